package body

import (
	"testing"

	"kinelab/animsys"
)

// TestGenerateBodyCell: a coarse cell gives a crowd-sized body that is
// still a valid skinned mesh, and the default cell gives GenerateBody's
// mesh exactly.
func TestGenerateBodyCell(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	def := generate(s.Parents, pos, rot, s.Names)
	same := generateCell(s.Parents, pos, rot, s.Names, CellDefault)
	if len(def.Positions) != len(same.Positions) || len(def.Indices) != len(same.Indices) {
		t.Fatalf("default cell: %d vertices, GenerateBody %d", same.VertexCount(), def.VertexCount())
	}
	for i := range def.Positions {
		if def.Positions[i] != same.Positions[i] {
			t.Fatalf("default cell differs from GenerateBody at float %d", i)
		}
	}
	for _, tc := range []struct {
		cell     float32
		min, max int
	}{
		{CellCrowd, 350, 800},
		{0.05, 600, 1200},
		{0.08, 150, 800},
	} {
		b := generateCell(s.Parents, pos, rot, s.Names, tc.cell)
		t.Logf("cell %.3f m: %d vertices, %d triangles", tc.cell, b.VertexCount(), b.TriangleCount())
		if n := b.VertexCount(); n < tc.min || n > tc.max {
			t.Errorf("cell %.3f m: %d vertices, want %d to %d", tc.cell, n, tc.min, tc.max)
		}
		if err := b.Validate(); err != nil {
			t.Errorf("cell %.3f m: %v", tc.cell, err)
		}
	}
}
