package labs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/app"
	"kinelab/internal/fixture"
)

// Every lab that animates a character takes each file of the load path's
// corpus that gives one (every test file of the parser, the character's
// refused and odd files, every exporter's figure), as files dropped on the
// window one after another, and ticks — a zero tick, a frame's tick and
// huge ones — writing CSV rows with no NaN or Inf in them. The load path
// itself is fuzzed, from the same files, by animsys/character's FuzzLoad,
// which links no raylib; the labs are made once here, as in the window
// (made anew for each file they took 0.4 s a file, building the Matching
// lab's embedded set).
func TestLabsTakeEveryFile(t *testing.T) {
	names, files := fixture.LoadCorpus(t, "../..")
	var labs []app.Lab
	for _, e := range All() {
		labs = append(labs, e.New())
	}
	defer func() {
		for _, l := range labs {
			l.Unload() // no window: this stops the crowd's workers
		}
	}()
	dir := t.TempDir()
	loaded := 0
	for i, data := range files {
		path := filepath.Join(dir, names[i])
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if ch == nil {
			if err == nil {
				t.Fatalf("%s: no character and no error", names[i])
			}
			continue
		}
		loaded++
		for _, l := range labs {
			l.SetCharacter(ch)
			for _, dt := range []float32{0, 1.0 / 60, 5, 1e6} {
				l.Update(dt)
			}
			for _, row := range l.CSVRows(nil) {
				for _, cell := range row {
					if strings.Contains(cell, "NaN") || strings.Contains(cell, "Inf") {
						t.Fatalf("%s in the %s lab: CSV row %q", names[i], l.Name(), row)
					}
				}
			}
		}
	}
	t.Logf("%d of %d files gave a character", loaded, len(files))
	if loaded < 20 {
		t.Errorf("%d of %d files gave a character", loaded, len(files))
	}
}
