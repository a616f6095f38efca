package verify

import (
	"math"
	"testing"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/fixture"
)

// verifyFile runs the checks `kinelab verify --file` runs on a generated
// Mixamo walk of frames frames at fps, written perMetre file units to the
// metre and read with units, on at most intervals frame intervals.
func verifyFile(t *testing.T, name string, frames int, fps, perMetre float32, units string, intervals int) Report {
	t.Helper()
	s := fixture.Mixamo()
	s.Name, s.Frames, s.FPS, s.PerMetre = name, frames, fps, perMetre
	path := fixture.File(t, t.TempDir(), s)
	ch, err := character.Load([]string{path}, bvh.ReadOptions{Units: units, Up: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	var clips []*animsys.Clip
	for i := range ch.Clips {
		clips = append(clips, &ch.Clips[i])
	}
	return RunIntervals(&ch.Skel, Cases(&ch.Skel, Roles{Head: ch.Head, Leg: ch.Leg}), clips, intervals)
}

// failures lists the checks of rep that fail.
func failures(rep Report) []string {
	var out []string
	for _, s := range rep.Stats {
		if s.Checked && !s.Pass {
			out = append(out, s.String())
		}
	}
	return out
}

// The same walk passes at a hundredth, one and a hundred times a human's
// size (read as metres whatever its unit): the linear tolerances scale
// with the character (LengthScale). With metres' tolerances the 170 m
// figure failed BK and Chain by 2.4 and 1.2 times.
func TestVerifySizes(t *testing.T) {
	var one float64
	for _, size := range []float32{1, 0.01, 100} {
		rep := verifyFile(t, "walk", 150, 60, size, "m", 60)
		scale := rep.LengthScale
		if scale == 0 {
			scale = 1
		}
		if size == 1 {
			one = scale
		} else if r := scale / one / float64(size); math.Abs(r-1) > 1e-3 {
			t.Errorf("size %g: length scale %.4g, %.4g times the 1x figure's, want %g", size, scale, scale/one, size)
		}
		if f := failures(rep); len(f) > 0 {
			t.Errorf("size %gx (length scale %.3g): %d checks fail:\n%v", size, scale, len(f), f)
		}
	}
}

// A capture of 30,000 frames at 60 fps (500 s, the walk 700 m from the
// origin by its end) passes: its times resolve to 3e-5 s in float32, its
// positions to 6e-5 m, and the reference's rounding is allowed for as
// measured (stencil.round). Before, samples past about 86 s failed FK,
// BK, Chain and LookAt. And a capture at Frame Time 0.0001 (the shortest
// a BVH file may have), whose finite-difference step is 12.5 us, passes:
// 23 checks failed on the rounding of poses over so short a step. 100
// intervals of each, spread over the whole clip: 83 of the long one's
// are past 86 s, and every interval's check is the same code at another
// time (300 took 5 s more). Short mode checks 40.
func TestVerifyLongAndFast(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 40
	}
	for _, c := range []struct {
		name   string
		frames int
		fps    float32
	}{{"long", 30000, 60}, {"fast", 600, 10000}} {
		rep := verifyFile(t, c.name, c.frames, c.fps, 100, "cm", n)
		if f := failures(rep); len(f) > 0 {
			t.Errorf("%s (%d frames at %g fps): %d checks fail:\n%v", c.name, c.frames, c.fps, len(f), f)
		}
	}
}
