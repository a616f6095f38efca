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

// capture writes a CMU capture of frames frames, and loads it into a
// character and every lab but the Matching lab (each ticked once): the
// bytes of its values parsed (as float32), the heap the character and
// labs hold, the character and the labs.
func capture(t *testing.T, frames int) (parsed, held int64, ch *character.Character, labs []app.Lab) {
	s := fixture.CMU()
	s.Frames = frames
	path, err := fixture.WriteFile(t.TempDir(), s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := bvh.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	parsed = int64(4 * len(f.Motion))
	f = nil
	before := liveHeap()
	ch, err = character.Load([]string{path}, bvh.ReadOptions{})
	if ch == nil {
		t.Fatal(err)
	}
	for _, e := range All() {
		if e.Name == "matching" {
			continue
		}
		l := e.New()
		l.SetCharacter(ch)
		l.Update(1.0 / 60)
		labs = append(labs, l)
	}
	return parsed, liveHeap() - before, ch, labs
}

// A long capture of a 38-joint CMU skeleton is held by the character and
// every lab at no more than twice its parsed size (its values as float32)
// a frame: a clip keeps every joint's rotation (16 bytes against the
// file's 12 for three angles) but a position track only for the joints
// that move, and no sampling cache over animsys.MaxCacheBytes. It took
// 9.6 times (369 MB of 100,000 frames) with positions and scales stored
// for every joint and the cache.
//
// Measured a frame, between captures of 8,000 and 25,000 frames (both
// past MaxCacheBytes' 6,900 frames of cache): what the labs hold whatever
// the capture (7 MB) drops out, which a single capture of 100,000 frames
// (84 MB of text, 10 s) was needed to dilute below the factor; what they
// hold besides is bounded on its own.
func TestLongCaptureMemory(t *testing.T) {
	const frames, fixedMax = 25_000, 16 << 20
	// What the labs make once for the process (the default character,
	// the embedded sets) is made before either capture counts.
	var p0, h0 int64
	for _, n := range []int{100, 8_000} {
		var labs0 []app.Lab
		p0, h0, _, labs0 = capture(t, n)
		for _, l := range labs0 {
			l.Unload()
		}
	}
	parsed, held, ch, labs := capture(t, frames)
	perFrame := float64(held-h0) / float64(parsed-p0)
	fixed := float64(held) - perFrame*float64(parsed)
	t.Logf("parsed %.1f and %.1f MB; the character and %d labs hold %.1f and %.1f MB: %.2fx a frame, %.1f MB besides",
		float64(p0)/1e6, float64(parsed)/1e6, len(labs), float64(h0)/1e6, float64(held)/1e6, perFrame, fixed/1e6)
	if perFrame > 2 {
		t.Errorf("the character and labs hold %.2f times a frame's parsed size: over twice", perFrame)
	}
	if fixed > fixedMax {
		t.Errorf("the character and labs hold %.1f MB whatever the capture, over %d MB", fixed/1e6, fixedMax>>20)
	}
	var matcher *matching.Lab
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
			float64(extra)/float64(frames), float64(clipBytes)/float64(frames))
		budget := 600*int64(frames) + 4e6
		if mirror {
			budget = 2*budget + int64(clipBytes)
		}
		if extra > budget {
			t.Errorf("the matching lab, mirror %v, adds %.1f MB for %d frames: over %.1f MB", mirror, float64(extra)/1e6, frames, float64(budget)/1e6)
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
