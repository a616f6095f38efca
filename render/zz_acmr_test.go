package render

import (
	"testing"

	"kinelab/animsys"
)

func acmr(idx []uint16, size int) float64 {
	fifo := make([]int, 0, size)
	miss := 0
	for _, i := range idx {
		hit := false
		for _, c := range fifo {
			if c == int(i) {
				hit = true
				break
			}
		}
		if !hit {
			miss++
			if len(fifo) == size {
				fifo = fifo[1:]
			}
			fifo = append(fifo, int(i))
		}
	}
	return float64(miss) / float64(len(idx)/3)
}

func TestACMR(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	b := GenerateBody(s.Parents, pos, rot, s.Names)
	t.Logf("verts %d tris %d acmr16 %.3f acmr32 %.3f acmr64 %.3f acmr256 %.3f", b.VertexCount(), b.TriangleCount(), acmr(b.Indices, 16), acmr(b.Indices, 32), acmr(b.Indices, 64), acmr(b.Indices, 256))
}
