package character_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/fixture"
	"kinelab/internal/fuzzedit"
)

// loadLimit is the CPU time loading one file and sampling its clips may
// take: a hang to a user (a file dropped on the window), so the fuzzer
// keeps the input that takes it.
const loadLimit = 30 * time.Second

// FuzzLoad runs the load path on any bytes, as a file dropped on the
// window: parse, read (units, up axis, rest frames), the character
// (figure, bind pose, roles, paths), and every clip it gives sampled at
// its start, middle and end and far past it. Any input gives a character
// with finite frames, or errors; never a panic. The seeds (every test
// file of the parser, error files included, the character's refused and
// odd files, and every exporter's figure) run in every `go test`; `go
// test -fuzz FuzzLoad` searches further, editing them (package fuzzedit:
// fuzzed whole, the 30 KB figures kept the fuzzer minimizing). It was in
// app/labs, with every lab taking each character: that package links
// raylib, whose C the fuzzer's build compiles anew (minutes), and the labs
// made an input take 0.4 s. app/labs' TestLabsTakeEveryFile runs the labs
// on the same files.
func FuzzLoad(f *testing.F) {
	_, bases := fixture.LoadCorpus(f, "../..")
	for i := range bases {
		f.Add(uint16(i), []byte(nil))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, base uint16, edits []byte) {
		data := fuzzedit.Apply(bases[int(base)%len(bases)], edits)
		defer fuzzedit.Watchdog(loadLimit, func() string { return fmt.Sprintf("loading a %d-byte file", len(data)) })()
		path := filepath.Join(dir, "fuzz.bvh")
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
		if len(ch.Clips) == 0 {
			t.Fatal("a character without a clip")
		}
		p := animsys.NewPose(ch.Skel.Len())
		for i := range ch.Clips {
			c := &ch.Clips[i]
			if c.Joints != ch.Skel.Len() || c.Frames < 2 {
				t.Fatalf("clip %d: %d joints, %d frames, for a skeleton of %d", i, c.Joints, c.Frames, ch.Skel.Len())
			}
			for f := 0; f < c.Frames; f++ {
				for j := 0; j < c.Joints; j++ {
					pos, q := c.PosAt(f, j), c.Rot[c.At(f, j)]
					if !finite(pos[0]) || !finite(pos[1]) || !finite(pos[2]) || !finite(q.W) || !finite(q.V[0]) {
						t.Fatalf("clip %d, frame %d, joint %d is not finite: %v %v", i, f, j, pos, q)
					}
				}
			}
			for _, tt := range []float32{0, c.Duration() / 2, c.Duration(), 1e6} {
				animsys.SampleCubic(&p, c, tt)
			}
		}
	})
}
