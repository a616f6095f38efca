package labs

import (
	"runtime"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/app"
	"kinelab/internal/fixture"
)

// liveHeap is the bytes of live heap objects, after collecting garbage.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// A long capture (100,000 frames of a 38-joint CMU skeleton, 84 MB of
// text) is held by the character and every lab at no more than twice its
// parsed size (its values as float32): a clip keeps every joint's rotation
// (16 bytes against the file's 12 for three angles) but a position track
// only for the joints that move, and no sampling cache over
// animsys.MaxCacheBytes. It took 9.6 times (369 MB) with positions and
// scales stored for every joint and the cache.
func TestLongCaptureMemory(t *testing.T) {
	s := fixture.CMU()
	s.Frames = 100_000
	path, err := fixture.WriteFile(t.TempDir(), s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := bvh.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	parsed := int64(4 * len(f.Motion))
	f = nil
	before := liveHeap()
	ch, err := character.Load([]string{path}, bvh.ReadOptions{})
	if ch == nil {
		t.Fatal(err)
	}
	var labs []app.Lab
	var matcher app.Lab
	for _, e := range All() {
		if e.Name == "matching" {
			continue
		}
		l := e.New()
		l.SetCharacter(ch)
		l.Update(1.0 / 60)
		labs = append(labs, l)
	}
	held := liveHeap() - before
	t.Logf("parsed %.1f MB; the character and %d labs hold %.1f MB (%.2fx)", float64(parsed)/1e6, len(labs), float64(held)/1e6, float64(held)/float64(parsed))
	if held > 2*parsed {
		t.Errorf("the character and labs hold %.1f MB of a capture parsed into %.1f MB: over twice", float64(held)/1e6, float64(parsed)/1e6)
	}
	// The Motion-matching lab builds a database of the capture: it shares
	// the clips and adds the features of every frame (75 floats, 300
	// bytes), their search trees (boxes, nodes and row-frame maps, about
	// 67 bytes) and a one-joint smoothed root with its sampling cache
	// (about 130 bytes), plus its history of 600 poses: 520 bytes a frame
	// measured. Its own budget: 600 bytes a frame and 4 MB; a copy of the
	// clips (as a first version made, re-rooting them) would add 600 more
	// for this skeleton.
	for _, e := range All() {
		if e.Name == "matching" {
			before := liveHeap()
			matcher = e.New()
			matcher.SetCharacter(ch)
			matcher.Update(1.0 / 60)
			extra := liveHeap() - before
			t.Logf("the matching lab adds %.1f MB (%.0f bytes a frame)", float64(extra)/1e6, float64(extra)/float64(s.Frames))
			if extra > 600*int64(s.Frames)+4e6 {
				t.Errorf("the matching lab adds %.1f MB for %d frames: over 600 bytes a frame and 4 MB", float64(extra)/1e6, s.Frames)
			}
		}
	}
	runtime.KeepAlive(matcher)
	for _, l := range labs {
		l.Unload()
	}
	runtime.KeepAlive(ch)
}
