package crowd

import (
	"math"
	"testing"

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
	for i := range serial.Characters {
		s, p := serial.Characters[i], parallel.Characters[i]
		for _, pair := range [][2]*animsys.Pose{{&s.Global, &p.Global}, {&s.FDLocal, &p.FDLocal}} {
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
