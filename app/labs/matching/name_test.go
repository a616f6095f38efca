package matching

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	mm "kinelab/animsys/matching"
	"kinelab/internal/fixture"
)

// The database is named after what it holds: the embedded set by its
// name, loaded captures by their clips and folder (as `matching eval`
// names them), mirrored or not; a folder with a file of another skeleton
// names the files used.
func TestMatchingDatabaseName(t *testing.T) {
	l := New()
	if got, want := l.Title(), "Motion matching - embedded locomotion - "; !strings.HasPrefix(got, want) {
		t.Errorf("title %q, want it to begin %q", got, want)
	}
	dir := t.TempDir()
	l1 := fixture.LAFAN1()
	l1.Name = "a_lafan1"
	fixture.File(t, dir, l1)
	for i, fps := range []float32{30, 24, 40} {
		b := fixture.Bandai()
		b.Name, b.FPS = fmt.Sprintf("bandai_%d", i+1), fps
		fixture.File(t, dir, b)
	}
	ch, err := character.Load([]string{dir}, bvh.ReadOptions{})
	if err != nil || ch == nil || len(ch.Skipped) != 1 {
		t.Fatalf("%v, skipped %v", err, ch.Skipped)
	}
	l.SetCharacter(ch)
	name := "3 clips from " + filepath.Base(dir) + "/"
	if got, want := l.Title(), "Motion matching - "+name+" + mirrored - "; !strings.HasPrefix(got, want) || l.Err != "" {
		t.Errorf("title %q (%s), want it to begin %q (captures are mirrored by default)", got, l.Err, want)
	}
	l.S.Mirror = false
	l.Update(1.0 / 60)
	if got, want := l.Title(), "Motion matching - "+name+" - "; !strings.HasPrefix(got, want) {
		t.Errorf("not mirrored: title %q, want it to begin %q", got, want)
	}
}

// The readout's sliding line gives the figures on the clips' own contacts
// (eval's ankle and toe sliding) and the skating, and "-" for a figure
// without toes; the short form where the long one does not fit.
func TestSlidingText(t *testing.T) {
	long := func(l, _ string) string { return l }
	short := func(_, s string) string { return s }
	a, toe := 4.25, 19.0
	sk := 21.83
	f := mm.Metrics{FeetMetrics: mm.FeetMetrics{AnkleSliding: &a, ToeSliding: &toe, AnkleSkating: 9.22, ToeSkating: &sk}}
	if got, want := slidingText(&f, long), "feet slide where the clips' feet stood: ankle 4.2, toe 19.0 cm/s (skating 9.2, 21.8)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	f.ToeSliding, f.ToeSkating = nil, nil
	if got, want := slidingText(&f, short), "slide: ankle 4.2, toe -; skate 9.2, - cm/s"; got != want {
		t.Errorf("no toes: got %q, want %q", got, want)
	}
}
