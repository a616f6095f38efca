package labs

import (
	"runtime"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/bvh/fixture"
	"kinelab/animsys/character"
	"kinelab/app"
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
	ch, errs := character.Load([]string{path}, character.Options{})
	if ch == nil {
		t.Fatal(errs)
	}
	var labs []app.Lab
	for _, e := range All() {
		l := e.New()
		if c, ok := l.(app.CharacterSetter); ok {
			c.SetCharacter(ch)
			l.Update(1.0 / 60)
			labs = append(labs, l)
		}
	}
	held := liveHeap() - before
	t.Logf("parsed %.1f MB; the character and %d labs hold %.1f MB (%.2fx)", float64(parsed)/1e6, len(labs), float64(held)/1e6, float64(held)/float64(parsed))
	if held > 2*parsed {
		t.Errorf("the character and labs hold %.1f MB of a capture parsed into %.1f MB: over twice", float64(held)/1e6, float64(parsed)/1e6)
	}
	for _, l := range labs {
		if u, ok := l.(app.Unloader); ok {
			u.Unload()
		}
	}
	runtime.KeepAlive(ch)
}
