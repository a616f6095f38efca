package labs

import (
	"runtime"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/app"
	"kinelab/app/labs/matching"
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
	var matcher *matching.Lab
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
	// the clips and adds the features of every frame, their k-d tree and
	// a one-joint smoothed root with its sampling cache, plus its history
	// of 600 poses: 520 bytes a frame measured. Its own budget: 600 bytes
	// a frame and 4 MB; a copy of the clips (as a first version made,
	// re-rooting them) would add 600 more for this skeleton. Mirrored (the
	// lab's default for captures) the database has twice the frames, and
	// the mirrored clips are a copy: at most twice the budget and the
	// clips' own bytes more.
	clipBytes := 0
	for c := range ch.Clips {
		clipBytes += ch.Clips[c].Bytes()
	}
	for _, mirror := range []bool{false, true} {
		before := liveHeap()
		l := matching.New()
		l.S.Mirror = mirror
		l.SetCharacter(ch)
		l.Update(1.0 / 60)
		extra := liveHeap() - before
		t.Logf("the matching lab, mirror %v, adds %.1f MB (%.0f bytes a frame; the clips take %.0f)", mirror, float64(extra)/1e6,
			float64(extra)/float64(s.Frames), float64(clipBytes)/float64(s.Frames))
		budget := 600*int64(s.Frames) + 4e6
		if mirror {
			budget = 2*budget + int64(clipBytes)
		}
		if extra > budget {
			t.Errorf("the matching lab, mirror %v, adds %.1f MB for %d frames: over %.1f MB", mirror, float64(extra)/1e6, s.Frames, float64(budget)/1e6)
		}
		matcher = l
		runtime.KeepAlive(matcher)
	}
	runtime.KeepAlive(matcher)
	for _, l := range labs {
		l.Unload()
	}
	runtime.KeepAlive(ch)
}
