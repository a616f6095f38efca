package apptest

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/mathx"
	"kinelab/internal/fixture"
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

// FixtureCharacter loads a synthetic convention's figure as the app loads
// a BVH file.
func FixtureCharacter(t *testing.T, s fixture.Spec) *character.Character {
	t.Helper()
	ch, err := character.Load([]string{fixture.File(t, t.TempDir(), s)}, bvh.ReadOptions{})
	if ch == nil || err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return ch
}

// SettingCase is a value a hand-edited settings file may hold (Set, on the
// defaults) and where the lab's CheckSettings must put it (Got reads Want).
type SettingCase[S any] struct {
	Name string
	Set  func(*S)
	Got  func(*S) float32
	Want float32
}

// Case is a SettingCase (a function, so that the labs' tables stay one
// line a case).
func Case[S any](name string, set func(*S), got func(*S) float32, want float32) SettingCase[S] {
	return SettingCase[S]{name, set, got, want}
}

// CheckSettings tests a lab's CheckSettings (check) on its settings s: the
// defaults (s as given) stay bit for bit, and each case ends at its Want.
// s is left at the defaults.
func CheckSettings[S comparable](t *testing.T, s *S, check func(), cases []SettingCase[S]) {
	t.Helper()
	def := *s
	check()
	if *s != def {
		t.Fatalf("CheckSettings changed the defaults: %+v, want %+v", *s, def)
	}
	for _, c := range cases {
		*s = def
		c.Set(s)
		check()
		if got := c.Got(s); got != c.Want {
			t.Errorf("%s: %v after CheckSettings, want %v", c.Name, got, c.Want)
		}
	}
	*s = def
}
