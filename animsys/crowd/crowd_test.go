package crowd

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// smallLibrary is a few bench clips: enough variety, quick to generate.
func smallLibrary() []animsys.Clip {
	lib := make([]animsys.Clip, 4)
	for i := range lib {
		lib[i] = animsys.GenerateBenchClip(uint32(LibraryFirstSeed + i))
	}
	return lib
}

func newCrowd(t testing.TB, lib []animsys.Clip, n int) *Crowd {
	skel := animsys.BenchSkeleton()
	c, err := New(&skel, lib, n, 7)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Ticking over a worker pool must give the same bits as ticking serially:
// every pose of every character and the checksum.
func TestParallelMatchesSerial(t *testing.T) {
	lib := smallLibrary()
	serial, parallel := newCrowd(t, lib, 101), newCrowd(t, lib, 101)
	parallel.Start(3)
	defer parallel.Close()
	for tick := 0; tick < 10; tick++ {
		a, b := serial.Tick(TickDt), parallel.Tick(TickDt)
		if math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("tick %d: checksum serial %v parallel %v", tick, a, b)
		}
	}
	n := len(serial.Chain.Parents)
	var sFD, sFDLocal, pFD, pFDLocal animsys.Pose
	animsys.NewPoses(n, &sFD, &sFDLocal, &pFD, &pFDLocal)
	for i := range serial.Characters {
		s, p := serial.Characters[i], parallel.Characters[i]
		s.FiniteDiff(&sFD, &sFDLocal, TickDt)
		p.FiniteDiff(&pFD, &pFDLocal, TickDt)
		for _, pair := range [][2]*animsys.Pose{{&s.Global, &p.Global}, {&s.Prev, &p.Prev}, {&sFDLocal, &pFDLocal}} {
			for j := range pair[0].Pos {
				if pair[0].Pos[j] != pair[1].Pos[j] || pair[0].Rot[j] != pair[1].Rot[j] ||
					pair[0].Vel[j] != pair[1].Vel[j] || pair[0].Ang[j] != pair[1].Ang[j] ||
					pair[0].Svl[j] != pair[1].Svl[j] {
					t.Fatalf("character %d joint %d differs between serial and parallel", i, j)
				}
			}
		}
	}
}

func TestCrowdTickAllocs(t *testing.T) {
	c := newCrowd(t, smallLibrary(), 64)
	for _, threads := range []int{1, 2} {
		c.Start(threads)
		if n := testing.AllocsPerRun(20, func() { c.Tick(TickDt) }); n != 0 {
			t.Errorf("%d threads: crowd tick allocates %v times", threads, n)
		}
	}
	c.Close()
}

func TestBenchReport(t *testing.T) {
	c := newCrowd(t, smallLibrary(), 16)
	r := Bench(c, 2)
	c.Close()
	if r.Characters != 16 || r.Threads != 2 || r.TimedTicks != TimedTicks || r.WarmupTicks != WarmupTicks {
		t.Fatalf("bench result %+v", r)
	}
	if !(r.NsPerCharTick > 0) || math.Abs(r.CharTicksPerSec*r.NsPerCharTick-1e9) > 1 || math.IsNaN(r.Checksum) {
		t.Fatalf("bench figures %+v", r)
	}
}

func TestNewRejectsMismatchedClips(t *testing.T) {
	skel := animsys.BenchSkeleton()
	bad := []animsys.Clip{animsys.NewClip("short", 10, 5, 1.0/60)}
	if _, err := New(&skel, bad, 1, 1); err == nil {
		t.Fatal("want an error for a clip with the wrong joint count")
	}
	if _, err := New(&skel, nil, 1, 1); err == nil {
		t.Fatal("want an error for an empty library")
	}
}

func BenchmarkCrowd1000(b *testing.B) {
	lib := NewLibrary()
	for _, threads := range []int{1, 2} {
		c := newCrowd(b, lib, DefaultSize)
		c.Start(threads)
		b.Run(map[int]string{1: "serial", 2: "2threads"}[threads], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.Tick(TickDt)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/DefaultSize, "ns/char-tick")
		})
		c.Close()
	}
}

// BenchmarkCrowd1000OwnScratch ticks the crowd serially with a
// BenchScratch per character instead of one per goroutine: what sharing
// the tick's temporaries saves (every pose a character would otherwise
// write each tick leaves the cache before its next tick).
func BenchmarkCrowd1000OwnScratch(b *testing.B) {
	c := newCrowd(b, NewLibrary(), DefaultSize)
	own := make([]*animsys.BenchScratch, len(c.Characters))
	for i := range own {
		own[i] = animsys.NewBenchScratch(len(c.Chain.Parents))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, ch := range c.Characters {
			ch.TickWith(TickDt, own[k])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/DefaultSize, "ns/char-tick")
}

// wideSkeleton is a skeleton of n joints: chains of ten from the root.
func wideSkeleton(n int) animsys.Skeleton {
	s := animsys.Skeleton{Names: make([]string, n), Parents: make([]int, n), Offsets: make([]mgl32.Vec3, n)}
	for j := range s.Parents {
		s.Names[j] = fmt.Sprintf("j%d", j)
		s.Parents[j], s.Offsets[j] = j-1, mgl32.Vec3{0, 0.01, 0}
		if j%10 == 1 {
			s.Parents[j], s.Offsets[j] = 0, mgl32.Vec3{0.01 * float32(j%7), 0, 0}
		}
	}
	s.Parents[0] = -1
	return s
}

// TestBytesMatchesHeap: Bytes, what a crowd is refused by, is within
// -10% / +25% of the heap a crowd holds once it has ticked (measured with
// runtime.ReadMemStats after a collection), for the bench skeleton and for
// a 10,000-joint one.
func TestBytesMatchesHeap(t *testing.T) {
	bench := animsys.BenchSkeleton()
	for _, tc := range []struct {
		joints, n int
	}{{bench.Len(), 3000}, {10000, 12}} {
		skel := animsys.BenchSkeleton()
		lib := smallLibrary()
		if tc.joints != skel.Len() {
			skel = wideSkeleton(tc.joints)
			lib = []animsys.Clip{animsys.NewClip("still", 2, tc.joints, 1.0/30)}
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c, err := New(&skel, lib, tc.n, 3)
		if err != nil {
			t.Fatal(err)
		}
		c.Tick(TickDt)
		c.Tick(TickDt)
		runtime.GC()
		runtime.ReadMemStats(&after)
		got, est := int64(after.HeapAlloc)-int64(before.HeapAlloc), Bytes(tc.joints, tc.n)
		runtime.KeepAlive(c)
		r := float64(got) / float64(est)
		t.Logf("%d characters of %d joints: heap %s, estimate %s (heap / estimate %.3f)", tc.n, tc.joints, Size(got), Size(est), r)
		if r < 0.9 || r > 1.25 {
			t.Errorf("%d characters of %d joints: heap %d bytes, estimate %d: ratio %.3f outside [0.9, 1.25]", tc.n, tc.joints, got, est, r)
		}
	}
}

// TestBudgetRefused: a crowd over MemoryBudget is refused with a
// *BudgetError naming the count, the budget and what fits, before
// anything is allocated; MaxCharacters is the edge.
func TestBudgetRefused(t *testing.T) {
	skel, lib := animsys.BenchSkeleton(), smallLibrary()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c, err := New(&skel, lib, 2_000_000, 1)
	runtime.ReadMemStats(&after)
	var be *BudgetError
	if c != nil || !errors.As(err, &be) {
		t.Fatalf("2,000,000 characters: %v, want a BudgetError", err)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
		t.Errorf("refusing allocated %d bytes", grown)
	}
	max := MaxCharacters(skel.Len())
	msg := err.Error()
	for _, want := range []string{"2000000 characters", "23 joints", "1 GiB", fmt.Sprintf("at most %d fit", max)} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
	if be.Max != max || be.Characters != 2_000_000 {
		t.Errorf("error %+v, want max %d", be, max)
	}
	big := wideSkeleton(10000)
	for _, tc := range []struct{ joints, n int }{{skel.Len(), max}, {big.Len(), MaxCharacters(big.Len())}} {
		if err := CheckBudget(tc.joints, tc.n); err != nil {
			t.Errorf("%d characters of %d joints: %v", tc.n, tc.joints, err)
		}
		if err := CheckBudget(tc.joints, tc.n+1); err == nil || Bytes(tc.joints, tc.n+1) <= MemoryBudget {
			t.Errorf("%d characters of %d joints: not refused", tc.n+1, tc.joints)
		}
	}
	t.Logf("budget %s: %d characters of %d joints, %d of %d; %s", Size(MemoryBudget), max, skel.Len(), MaxCharacters(big.Len()), big.Len(), msg)
}

// TestBudgetOverflow: counts whose bytes overflow an int64 (wrapping to a
// small or negative product, which passed the budget and then panicked in
// makeslice) are refused like any count over the budget, the bytes
// saturated, and the error says so.
func TestBudgetOverflow(t *testing.T) {
	skel := animsys.BenchSkeleton()
	per := Bytes(skel.Len(), 1)
	for _, n := range []int{math.MaxInt, math.MaxInt/int(per) + 1, 1 << 62, 1 << 61} {
		if b := Bytes(skel.Len(), n); b != math.MaxInt64 {
			t.Errorf("Bytes(%d, %d) = %d, want math.MaxInt64 (saturated)", skel.Len(), n, b)
		}
		err := CheckBudget(skel.Len(), n)
		if err == nil || !strings.Contains(err.Error(), "more bytes than 64 bits count") {
			t.Errorf("%d characters: %v, want refused for overflowing", n, err)
		}
	}
	if n := math.MaxInt / int(per); Bytes(skel.Len(), n) != int64(n)*per {
		t.Errorf("the largest count that does not overflow: %d bytes, want %d", Bytes(skel.Len(), n), int64(n)*per)
	}
}

// Close returns only when its workers have: a worker that has not yet
// seen its channel closed still holds the crowd on its stack, so a crowd
// let go right after Close (the Crowd lab rebuilding one near
// MemoryBudget) could survive the next collection, two living at once. With
// one P the closed workers cannot run until Close blocks, so without the
// wait they would all still be counted.
func TestCloseLetsTheCrowdGo(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	c := newCrowd(t, smallLibrary(), 8)
	c.Start(4)
	c.Tick(1.0 / 60)
	if n := crowdGoroutines(); n != 3 {
		t.Errorf("%d crowd workers after Start(4), want 3", n)
	}
	w := weak.Make(c)
	c.Close()
	if n := crowdGoroutines(); n != 0 {
		t.Errorf("%d crowd workers after Close", n)
	}
	c = nil
	runtime.GC()
	if w.Value() != nil {
		t.Error("the crowd is still reachable after Close and a collection")
	}
}

// crowdGoroutines counts the goroutines running a Crowd's code: its
// workers. (Counting all goroutines made the test flaky: one left by an
// earlier test could end between the two counts.)
func crowdGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "kinelab/animsys/crowd.(*Crowd)") {
			n++
		}
	}
	return n
}
