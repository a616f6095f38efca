package character_test

import (
	"path/filepath"
	"regexp"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
)

// A file that parses but holds less than a clip (no frame, one frame) is
// refused with the line of its Frames:, never a character that panics
// later; a file that is odd but usable (one joint, bones of zero length, a
// rest frame leaving two, huge values and frame times) loads, with every
// frame of its clip finite.
func TestRefusedAndOddFiles(t *testing.T) {
	refused, _ := filepath.Glob("testdata/refused/*.bvh")
	odd, _ := filepath.Glob("testdata/odd/*.bvh")
	if len(refused) < 2 || len(odd) < 5 {
		t.Fatalf("testdata: %d refused and %d odd files", len(refused), len(odd))
	}
	for _, path := range refused {
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		errs := character.FileErrors(err)
		want := regexp.MustCompile("^" + regexp.QuoteMeta(path) + `:\d+: Frames: \d: a clip needs at least 2 frames`)
		if ch != nil || len(errs) != 1 || !want.MatchString(errs[0].Error()) {
			t.Errorf("%s: character %v, errors %v; want none and %q", path, ch != nil, errs, want)
		}
	}
	for _, path := range odd {
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if ch == nil || err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		c := &ch.Clips[0]
		if c.Frames < 2 {
			t.Errorf("%s: %d frames", path, c.Frames)
		}
	frames:
		for f := 0; f < c.Frames; f++ {
			for j := 0; j < c.Joints; j++ {
				p, q := c.PosAt(f, j), c.Rot[c.At(f, j)]
				if !finite(p[0]) || !finite(p[1]) || !finite(p[2]) || !finite(q.W) {
					t.Errorf("%s: frame %d joint %d is not finite: %v %v", path, f, j, p, q)
					break frames
				}
			}
		}
	}
}

func finite(x float32) bool { return x-x == 0 }
