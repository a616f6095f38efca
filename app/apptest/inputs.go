package apptest

import (
	"math"
	"math/rand"
	"path/filepath"
	"strconv"
	"testing"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/bvh/fixture"
	"kinelab/animsys/character"
	"kinelab/animsys/mathx"
	"kinelab/assets"
)

// StressDts are the tick lengths (s) the signal labs' stress tests draw
// from: paused, the shortest a jittered clock makes, the slider's range,
// and slow frames up to 2 s.
var StressDts = []float32{0, 2e-9, 1e-6, 1.0 / 240, 1.0 / 60, 1.0 / 30, 0.1, 0.5, 2}

// StressDtsToHalfSecond are the steps (s) the other stress tests draw from:
// zero, tiny, ordinary tick rates, and half a second.
var StressDtsToHalfSecond = []float32{0, 1e-9, 1e-6, 1.0 / 240, 1.0 / 60, 1.0 / 30, 0.1, 0.5}

// SliderEnd picks a slider value the way a user hammering the panel would:
// one end of [lo, hi] two times in three, else anywhere in between.
func SliderEnd(r *rand.Rand, lo, hi float32) float32 {
	switch r.Intn(3) {
	case 0:
		return lo
	case 1:
		return hi
	}
	return lo + (hi-lo)*r.Float32()
}

// PickOne returns one of vals.
func PickOne[T any](r *rand.Rand, vals ...T) T { return vals[r.Intn(len(vals))] }

// ParseCSVRow parses every field of a CSV row as a number ("true" and
// "false" read as 1 and 0); it fails on a row whose length is not the
// header's, and on a field that is neither or is NaN or Inf.
func ParseCSVRow(t *testing.T, header, row []string) []float64 {
	t.Helper()
	if len(row) != len(header) {
		t.Fatalf("CSV row has %d fields, header %d", len(row), len(header))
	}
	out := make([]float64, len(row))
	for i, f := range row {
		switch f {
		case "true":
			out[i] = 1
			continue
		case "false":
			continue
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("CSV column %s = %q is not a finite number", header[i], f)
		}
		out[i] = x
	}
	return out
}

// PoseFinite reports whether every value of p is finite.
func PoseFinite(p *animsys.Pose) bool {
	for i := range p.Pos {
		if !mathx.Vec3Finite(p.Pos[i]) || !mathx.QuatFinite(p.Rot[i]) || !mathx.Vec3Finite(p.Scl[i]) ||
			!mathx.Vec3Finite(p.Vel[i]) || !mathx.Vec3Finite(p.Ang[i]) || !mathx.Vec3Finite(p.Svl[i]) {
			return false
		}
	}
	return true
}

// WriteDefaultBVH exports the default character's clip (e.g. "walk") to
// dir in centimetres, as most mocap, and returns its path.
func WriteDefaultBVH(t *testing.T, dir, clip string) string {
	t.Helper()
	sk := assets.Humanoid()
	for _, c := range assets.Clips() {
		if c.Name == clip {
			path := filepath.Join(dir, clip+".bvh")
			if err := bvh.WriteFile(path, &sk, &c, bvh.Centimetres.Scale()); err != nil {
				t.Fatal(err)
			}
			return path
		}
	}
	t.Fatalf("no embedded clip %q", clip)
	return ""
}

// WriteFixture writes a synthetic convention's figure to dir and returns
// its path.
func WriteFixture(t *testing.T, dir string, s fixture.Spec) string {
	t.Helper()
	path, err := fixture.WriteFile(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// FixtureCharacter loads a synthetic convention's figure as the app loads
// a BVH file.
func FixtureCharacter(t *testing.T, s fixture.Spec) *character.Character {
	t.Helper()
	ch, errs := character.Load([]string{WriteFixture(t, t.TempDir(), s)}, character.Options{})
	if ch == nil || len(errs) > 0 {
		t.Fatalf("%s: %v", s, errs)
	}
	return ch
}
