package labs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/fixture"
)

// loadLimit is how long loading a file and a few ticks of every lab may
// take on the slowest machine the tests run on.
const loadLimit = 30 * time.Second

// FuzzLoad runs the whole load path on any bytes, as a file dropped on the
// window: parse, read (units, up axis, rest frames), the character (figure,
// bind pose, roles, paths), then every lab that animates a character takes
// it and ticks — a zero tick, a frame's tick and huge ones — and writes a
// CSV row with no NaN or Inf in it. Any input gives a character or errors,
// never a panic. The seeds (every test file of the parser, error files
// included, the character's refused and odd files, and every exporter's
// fixture) run in every `go test`; `go test -fuzz FuzzLoad`
// searches further. An input that takes over loadLimit is a hang to the
// user: the watchdog fails it, so the fuzzer keeps it.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"../../animsys/bvh/testdata/*.bvh", "../../animsys/bvh/testdata/errors/*.bvh",
		"../../animsys/character/testdata/*/*.bvh"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range fixture.All() {
		s.Frames = min(s.Frames, 8)
		var buf bytes.Buffer
		if err := fixture.Write(&buf, s); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	entries := All()
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(loadLimit):
				panic(fmt.Sprintf("loading and ticking a %d-byte file took over %v", len(data), loadLimit))
			}
		}()
		path := filepath.Join(t.TempDir(), "fuzz.bvh")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if ch == nil {
			if err == nil {
				t.Fatal("no character and no error")
			}
			return
		}
		for _, e := range entries {
			l := e.New()
			l.SetCharacter(ch)
			for _, dt := range []float32{0, 1.0 / 60, 5, 1e6} {
				l.Update(dt)
			}
			for _, row := range l.CSVRows(nil) {
				for _, cell := range row {
					if strings.Contains(cell, "NaN") || strings.Contains(cell, "Inf") {
						t.Fatalf("%s lab: CSV row %q", e.Name, row)
					}
				}
			}
			l.Unload() // no window: this stops the crowd's workers
		}
	})
}
