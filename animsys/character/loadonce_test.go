package character

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/internal/fixture"
	"kinelab/internal/mocap"
)

// Function names as the runtime gives them, for the memory profile.
const (
	fnPrepare = "kinelab/animsys.(*Clip).Prepare"
	fnDetect  = "kinelab/animsys/bvh.DetectContext"
	fnRead    = "kinelab/animsys/humanoid.Read"
	fnLoad    = "kinelab/animsys/character.LoadContext"
)

// profiled runs fn with every allocation recorded in the memory profile
// (runtime.MemProfileRate 1) and returns the records of the allocations
// it made: the profile's growth, bucket by bucket (a bucket is one call
// stack and object size).
func profiled(fn func()) []runtime.MemProfileRecord {
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = old }()
	type bucket struct {
		stack [32]uintptr
		size  int64
	}
	key := func(r *runtime.MemProfileRecord) bucket {
		return bucket{r.Stack0, r.AllocBytes / max(r.AllocObjects, 1)}
	}
	before := map[bucket]runtime.MemProfileRecord{}
	for _, r := range memProfile() {
		before[key(&r)] = r
	}
	fn()
	var out []runtime.MemProfileRecord
	for _, r := range memProfile() {
		b := before[key(&r)]
		r.AllocObjects -= b.AllocObjects
		r.AllocBytes -= b.AllocBytes
		if r.AllocObjects > 0 {
			out = append(out, r)
		}
	}
	return out
}

// memProfile is the whole memory profile, as of a garbage collection
// run for it (the profile is published at collections).
func memProfile() []runtime.MemProfileRecord {
	runtime.GC()
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	for {
		recs := make([]runtime.MemProfileRecord, n+64)
		m, ok := runtime.MemProfile(recs, true)
		if ok {
			return recs[:m]
		}
		n = m
	}
}

// frames are the functions of a record's stack, innermost first, the
// runtime's own left out; none for an object the runtime allocated for
// itself while allocating (a GC assist's), which is no allocation of the
// functions on the stack.
func frames(r *runtime.MemProfileRecord) []runtime.Frame {
	var out []runtime.Frame
	mallocs := 0
	fs := runtime.CallersFrames(r.Stack())
	for {
		f, more := fs.Next()
		switch {
		case !strings.HasPrefix(f.Function, "runtime."):
			out = append(out, f)
		case f.Function == "runtime.mallocgc" && len(out) == 0:
			if mallocs++; mallocs > 1 {
				return nil
			}
		}
		if !more {
			return out
		}
	}
}

// calls counts how many times function fn ran in recs, by its own
// allocations: the records whose innermost frame is fn, grouped by the
// allocating instruction, the largest group. It holds for a function
// with an allocation made once on every call and none made more than
// once a call: Prepare's rotation records, DetectContext's joint lists.
func calls(recs []runtime.MemProfileRecord, fn string) int {
	by := map[uintptr]int64{}
	for i := range recs {
		if fs := frames(&recs[i]); len(fs) > 0 && fs[0].Function == fn {
			by[fs[0].PC] += recs[i].AllocObjects
		}
	}
	most := int64(0)
	for _, n := range by {
		most = max(most, n)
	}
	return int(most)
}

// under counts the objects allocated within a call of function fn that
// no call of function outer holds.
func under(recs []runtime.MemProfileRecord, fn, outer string) int {
	n := 0
	for i := range recs {
		in, out := false, false
		for _, f := range frames(&recs[i]) {
			in = in || f.Function == fn
			out = out || (in && f.Function == outer)
		}
		if in && !out {
			n += int(recs[i].AllocObjects)
		}
	}
	return n
}

// TestLoadDoesEachFileOnce loads files of one skeleton, one of them
// without fingers (the character loses them: it was made again for it),
// and counts the work from the memory profile: each file detected (its
// figure read) once and no figure read outside detection, and each clip
// prepared once, with the additive clip: 5 preparations for 4 files.
// Before, there were 15: each clip prepared, re-rooted and prepared
// again (a third time when cut to fewer joints), and the character made
// again, clips and additive, for the file without fingers.
func TestLoadDoesEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i, s := range []fixture.Spec{
		fixture.Mixamo(),
		fixture.Mixamo(),
		dropJoints(fixture.Mixamo(), "nofingers", func(j fixture.Joint) bool {
			return strings.Contains(j.Name, "Hand") && !strings.HasSuffix(j.Name, "Hand")
		}),
		fixture.Mixamo(),
	} {
		s.Name = fmt.Sprintf("%d-%s", i, s.Name)
		s.Frames += 7 * i // clips of their own lengths
		paths = append(paths, fixture.File(t, dir, s))
	}
	var ch *Character
	var err error
	recs := profiled(func() { ch, err = Load(paths, bvh.ReadOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Clips) != len(paths) {
		t.Fatalf("%d clips from %d files", len(ch.Clips), len(paths))
	}
	if got, want := calls(recs, fnPrepare), len(paths)+1; got != want {
		t.Errorf("%d clip preparations loading %d files; want %d (each clip once, and the additive)", got, len(paths), want)
	}
	if got := calls(recs, fnDetect); got != len(paths) {
		t.Errorf("%d detections for %d files; want one each", got, len(paths))
	}
	if n := under(recs, fnRead, fnDetect); n > 0 {
		t.Errorf("a figure was read outside bvh.Detect (%d objects allocated reading it): once a file, there", n)
	}
	// The reading kept is what reading the character anew finds.
	checkFigureKept(t, ch)
}

// checkFigureKept checks that ch's figure, the file's reading carried to
// its joints, is what reading the character anew (as the labs play it)
// finds, but for the ground joints among the file's roots: the file's
// reading finds a root that stands apart from the body (Bandai's static
// joint_Root beside a leaning runner, in ../shared/mocap) no part of it,
// which a reading of it under the Entity, no longer a root, may not (and
// draws a bone from the floor to the hips).
func checkFigureKept(t *testing.T, ch *Character) {
	t.Helper()
	kept, again := *ch.Figure, ch.read()
	for j := range kept.Ground {
		if kept.Ground[j] != again.Ground[j] && !(kept.Ground[j] && ch.root >= 0 && ch.Skel.Parents[j] == 0) {
			t.Errorf("%s: joint %s is ground %v in the file's reading, %v read again", ch.Name, ch.Skel.Names[j], kept.Ground[j], again.Ground[j])
		}
	}
	kept.Ground, again.Ground = nil, nil
	if got, want := fmt.Sprintf("%+v", kept), fmt.Sprintf("%+v", again); got != want {
		t.Errorf("%s: the figure kept from the file's reading is\n%s\nread again it is\n%s", ch.Name, got, want)
	}
}

// TestFigureKeptOnEveryFile checks, on every fixture and real capture,
// that the figure a character keeps from its file's reading is the one
// reading the character anew gives: one reading is enough.
func TestFigureKeptOnEveryFile(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, s := range fixture.All() {
		paths = append(paths, fixture.File(t, dir, s))
	}
	paths = append(paths, mocap.Files()...)
	for _, p := range paths {
		ch, err := Load([]string{p}, bvh.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		checkFigureKept(t, ch)
	}
}

// TestLoadLinear checks that loading costs in proportion to the frames
// and to the joints, by the bytes it allocates (the frames and the
// caches it makes; not the wall clock): twice the frames, or 2.6 times
// the joints (fingers), allocate at most 1.25 times that much more.
func TestLoadLinear(t *testing.T) {
	dir := t.TempDir()
	bytesFor := func(s fixture.Spec) float64 {
		path := fixture.File(t, dir, s)
		recs := profiled(func() {
			if _, err := Load([]string{path}, bvh.ReadOptions{}); err != nil {
				t.Fatal(err)
			}
		})
		var n int64
		for i := range recs {
			for _, f := range frames(&recs[i]) {
				if f.Function == fnLoad {
					n += recs[i].AllocBytes
					break
				}
			}
		}
		return float64(n)
	}
	long := fixture.Mixamo()
	long.Name, long.Frames = "long", 1200
	longer := long
	longer.Name, longer.Frames = "longer", 2*long.Frames
	if r := bytesFor(longer) / bytesFor(long); r > 2*1.25 || r < 2/1.25 {
		t.Errorf("twice the frames allocate %.2f times as much; want about 2", r)
	}
	few := dropJoints(long, "few", func(j fixture.Joint) bool {
		return strings.Contains(j.Name, "Hand") && !strings.HasSuffix(j.Name, "Hand")
	})
	k := float64(len(long.Joints)) / float64(len(few.Joints))
	if r := bytesFor(long) / bytesFor(few); r > k*1.25 || r < k/1.25 {
		t.Errorf("%.2f times the joints (%d, %d) allocate %.2f times as much; want about as many times", k, len(long.Joints), len(few.Joints), r)
	}
}
