package character_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/fixture"
)

// TestLoadSameFileOnce gives one file twice in several ways (by name, a
// folder twice, a file and its folder, through a symbolic and a hard
// link): each file loads once, and Repeated names it.
func TestLoadSameFileOnce(t *testing.T) {
	dir := t.TempDir()
	a, b := fixture.Mixamo(), fixture.Mixamo()
	a.Name, b.Name = "a", "b"
	pa, pb := fixture.File(t, dir, a), fixture.File(t, dir, b)
	links := t.TempDir()
	sym, hard := filepath.Join(links, "sym.bvh"), filepath.Join(links, "hard.bvh")
	if err := os.Symlink(pa, sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(pb, hard); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.bvh")
	for _, c := range []struct {
		name   string
		paths  []string
		clips  []string
		notes  []string
		errors int
	}{
		{"a file twice", []string{pa, pa}, []string{"a"}, []string{"a.bvh given twice; loaded once"}, 0},
		{"a file three times", []string{pa, pb, pa, pa}, []string{"a", "b"}, []string{"a.bvh given 3 times; loaded once"}, 0},
		{"a folder twice", []string{dir, dir}, []string{"a", "b"}, []string{"a.bvh given twice; loaded once", "b.bvh given twice; loaded once"}, 0},
		{"a file and its folder", []string{pb, dir}, []string{"b", "a"}, []string{"b.bvh given twice; loaded once"}, 0},
		{"links", []string{sym, pa, hard, dir}, []string{"sym", "hard"}, []string{"sym.bvh given 3 times (also as a.bvh); loaded once", "hard.bvh given twice (also as b.bvh); loaded once"}, 0},
		{"a missing file twice", []string{pa, missing, missing}, []string{"a"}, nil, 2}, // named by its reader
		{"distinct files", []string{pa, pb}, []string{"a", "b"}, nil, 0},
	} {
		ch, err := character.Load(c.paths, bvh.ReadOptions{})
		if errs := character.FileErrors(err); len(errs) != c.errors || ch == nil {
			t.Errorf("%s: errors %v; want %d", c.name, errs, c.errors)
			continue
		}
		var clips []string
		for _, cl := range ch.Clips {
			clips = append(clips, cl.Name)
		}
		if !slices.Equal(clips, c.clips) || !slices.Equal(ch.Repeated, c.notes) {
			t.Errorf("%s: clips %q, repeated %q; want %q, %q", c.name, clips, ch.Repeated, c.clips, c.notes)
		}
	}
}
