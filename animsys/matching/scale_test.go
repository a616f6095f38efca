package matching

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/assets"
	"kinelab/internal/racebuild"
)

// scaleFrames is the size of the database at scale.
const scaleFrames = 500000

// scaleVariants are the variations the generated set plays the mirrored
// embedded set at, in turn, until it has scaleFrames frames: a playback
// rate (time scale: speeds and cadence together) and a turn rate (rad/s)
// added to the root, bending every path, its sign alternating from clip to
// clip. The first is the set itself. Rates of 0.8 to 1.25 keep walks and
// runs in the speeds people move at; turns of up to 0.3 rad/s bend a
// straight walk into a circle of 4 m radius or more, and make the feet
// slide by no more than a planted foot's twist.
var scaleVariants = []struct{ rate, turn float32 }{
	{1, 0}, {0.9, 0.12}, {1.12, -0.1}, {0.84, -0.22}, {1.22, 0.18}, {0.96, 0.3},
}

// scaleSource is the generated 500,000-frame source (the clips prepared),
// made once for the package's tests and benchmarks: about 2 s.
var scaleSource = sync.OnceValue(func() Source {
	emb, err := SourceOf(assets.LocomotionCharacter())
	if err != nil {
		panic(err)
	}
	base := Mirrored(emb)
	src := base
	src.Clips = nil
	total := 0
	for v := 0; total < scaleFrames; v++ {
		sv := scaleVariants[v%len(scaleVariants)]
		for c := range base.Clips {
			if total >= scaleFrames {
				break
			}
			turn := sv.turn
			if c%2 == 1 {
				turn = -turn
			}
			var clip animsys.Clip
			if sv.rate == 1 && turn == 0 {
				clip = base.Clips[c]
			} else {
				clip = varyClip(&base.Clips[c], sv.rate, turn)
			}
			if total+clip.Frames > scaleFrames {
				clip = truncateClip(&clip, scaleFrames-total)
			}
			src.Clips = append(src.Clips, clip)
			total += clip.Frames
		}
	}
	return src
})

// varyClip plays c at rate (its frame f samples c cubically at
// f·FrameTime·rate) with the root (joint 0) turned by turn rad/s more:
// its rotation by the angle turned so far and its motion from frame to
// frame by that angle too, so the path bends. The result is prepared.
func varyClip(c *animsys.Clip, rate, turn float32) animsys.Clip {
	n := int(float32(c.Frames-1)/rate) + 1
	out := animsys.NewClip(fmt.Sprintf("%s x%.2f %+.2f", c.Name, rate, turn), n, c.Joints, c.FrameTime)
	p := animsys.NewPose(c.Joints)
	var prev, pos mgl32.Vec3
	for f := 0; f < n; f++ {
		animsys.SampleCubic(&p, c, min(float32(f)*c.FrameTime*rate, c.Duration()))
		yaw := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, turn * float32(f) * c.FrameTime, 0})
		if f == 0 {
			pos = p.Pos[0]
		} else {
			pos = pos.Add(mathx.QuatMulVec3(yaw, p.Pos[0].Sub(prev)))
		}
		prev = p.Pos[0]
		p.Pos[0], p.Rot[0] = pos, yaw.Mul(p.Rot[0]).Normalize()
		out.SetFrame(f, &p)
	}
	out.Prepare()
	return out
}

// truncateClip is c's first n frames, prepared.
func truncateClip(c *animsys.Clip, n int) animsys.Clip {
	out := animsys.NewClip(c.Name, n, c.Joints, c.FrameTime)
	p := animsys.NewPose(c.Joints)
	for f := 0; f < n; f++ {
		c.Frame(&p, f)
		out.SetFrame(f, &p)
	}
	out.Prepare()
	return out
}

// scaleDB is the database of the generated set, built once.
func scaleDB() (*Database, error) {
	b, err := scaleBuild()
	return b.db, err
}

// scaleBuild is scaleDB's build, and the heap it added (the live heap
// after a collection, before and after it; the source made first).
var scaleBuild = sync.OnceValues(func() (built struct {
	db   *Database
	heap int64
}, err error) {
	src := scaleSource()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	built.db, err = NewDatabase(src, DefaultWeights, DefaultSettings().Halflife)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	built.heap = int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
	return built, err
})

func TestScaleSource(t *testing.T) {
	if testing.Short() {
		t.Skip("the 500,000-frame set: not with -short")
	}
	skipUnderRace(t)
	src := scaleSource()
	total := 0
	for _, c := range src.Clips {
		total += c.Frames
	}
	if total != scaleFrames {
		t.Fatalf("the generated set has %d frames, want %d", total, scaleFrames)
	}
	t.Logf("%d clips", len(src.Clips))
}

// skipUnderRace skips a test of the 500,000-frame set under the race
// detector, which makes its build take minutes: the build and the
// searches run on one goroutine, and the same code runs under the
// detector on the embedded set in the other tests here.
func skipUnderRace(t *testing.T) {
	if racebuild.Enabled {
		t.Skip("SKIPPED under the race detector: the 500,000-frame set takes minutes to build there; one goroutine, whose code the smaller sets' tests run")
	}
}

// scaleBytesPerFrame is the memory budget: what the database
// holds per frame, the source's clips aside (bytes).
const scaleBytesPerFrame = 600

// scaleDBOrSkip is scaleDB for a test: skipped with -short, as it builds
// half a million frames (seconds, and about 1.5 GB with the clips).
func scaleDBOrSkip(t *testing.T) *Database {
	if testing.Short() {
		t.Skip("the 500,000-frame database: not with -short")
	}
	skipUnderRace(t)
	db, err := scaleDB()
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestScaleMemory: the 500,000-frame database holds under
// scaleBytesPerFrame bytes a frame, counted both by its slices
// (Database.Bytes) and by the heap it adds (runtime.MemStats after a
// collection, before and after its build: scaleBuild measures the one
// build the package's tests share, where a second build for this test
// took 4 s). Its time budgets are the benchmarks'
// (BenchmarkDatabase500k, BenchmarkSearch500k).
func TestScaleMemory(t *testing.T) {
	db := scaleDBOrSkip(t)
	b := db.Bytes()
	per := float64(b.Total()) / float64(db.Frames)
	t.Logf("counted: %.1f B/frame: %s", per, scaleBreakdown(b, db.Frames))
	if per >= scaleBytesPerFrame {
		t.Errorf("the database holds %.1f B a frame, want under %d", per, scaleBytesPerFrame)
	}
	src := scaleSource()
	built, _ := scaleBuild()
	heap := float64(built.heap) / float64(db.Frames)
	t.Logf("heap: %.1f B/frame", heap)
	if heap >= scaleBytesPerFrame {
		t.Errorf("a build adds %.1f B of heap a frame, want under %d", heap, scaleBytesPerFrame)
	}
	clips := 0
	for c := range src.Clips {
		clips += src.Clips[c].Bytes()
	}
	t.Logf("the source's clips (shared, not counted): %.1f B/frame", float64(clips)/float64(db.Frames))
}

// scaleBreakdown writes the parts of b per frame.
func scaleBreakdown(b DatabaseBytes, frames int) string {
	f := func(n int) float64 { return float64(n) / float64(frames) }
	return fmt.Sprintf("raw %.1f, normalised %.1f, tree %.1f, flags %.1f, roots %.1f, other %.2f",
		f(b.Raw), f(b.Normalised), f(b.Tree), f(b.Flags), f(b.Roots), f(b.Other))
}

// TestScaleSearchMatchesBrute: on the 500,000-frame database, for a
// sample of a matcher's queries on every path (and each again unbounded
// with N = 16, as Exact asks), the index returns exactly what brute force
// returns. Every 16th query of 20 s, not every 4th: each brute-force
// search reads the whole database, and every path and set still has
// queries from all through its run (TestIndexEqualsBrute and
// TestSearchMatchesBrute compare every query on smaller sets).
func TestScaleSearchMatchesBrute(t *testing.T) {
	db := scaleDBOrSkip(t)
	var out, ref []Result
	for _, set := range []Set{Standard, InertialSet} {
		idx := db.Index(set)
		n := 0
		for p := Path(0); p < NumPaths; p++ {
			qs := RecordQueries(db, set, p, 20)
			for k := 0; k < len(qs); k += 16 {
				q := qs[k]
				for _, q := range []Query{q, {Features: q.Features, N: 16, SkipLo: q.SkipLo, SkipHi: q.SkipHi, Bound: float32(math.Inf(1))}} {
					out, ref = idx.Search(q, out[:0]), idx.SearchBrute(q, ref[:0])
					if !searchSame(out, ref) {
						t.Fatalf("%s, %s, query %d (N=%d, bound %g): index %v, brute force %v", set, p, k, q.N, q.Bound, out, ref)
					}
					n++
				}
			}
		}
		t.Logf("%s: %d searches", set, n)
	}
}

// BenchmarkDatabase500k times NewDatabase on the generated 500,000-frame
// set (s/op is one build, the source made beforehand) and reports what
// the database holds per frame (Database.Bytes).
func BenchmarkDatabase500k(b *testing.B) {
	src := scaleSource()
	var db *Database
	for b.Loop() {
		db = nil // the last build's memory free for this one's
		var err error
		if db, err = NewDatabase(src, DefaultWeights, DefaultSettings().Halflife); err != nil {
			b.Fatal(err)
		}
	}
	bb := db.Bytes()
	b.ReportMetric(float64(bb.Total())/float64(db.Frames), "B/frame")
	b.Logf("%s", scaleBreakdown(bb, db.Frames))
}

// BenchmarkSearch500k times the searches a matcher makes on the
// 500,000-frame database over 60 s of each scripted path, one search per
// op, cycling through them; it reports the median and the 99th
// percentile (µs) of the first passes' times, each search timed alone.
// The budget is on the standard and inertial sets' searches (the
// best frame below the cost of playing on); the exact set's is the
// inertial index's best 16 with no bound, before its re-ranking.
func BenchmarkSearch500k(b *testing.B) {
	db, err := scaleDB()
	if err != nil {
		b.Fatal(err)
	}
	for _, set := range []Set{Standard, InertialSet, Exact} {
		var qs []Query
		for p := Path(0); p < NumPaths; p++ {
			qs = append(qs, RecordQueries(db, set, p, 60)...)
		}
		idx := db.Index(set)
		b.Run(set.String(), func(b *testing.B) {
			out := make([]Result, 0, MaxCandidates)
			times := make([]int64, 0, 4*len(qs))
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				out = idx.Search(qs[i%len(qs)], out[:0])
				if len(times) < cap(times) {
					times = append(times, time.Since(t0).Nanoseconds())
				}
			}
			b.ReportMetric(Percentile(times, 0.5)/1e3, "median-us")
			b.ReportMetric(Percentile(times, 0.99)/1e3, "p99-us")
			b.ReportMetric(float64(len(qs)), "queries")
		})
	}
}

// TestGaussianBits: gaussian gives the bits of its first form (each weight
// divided by the sum at each use, every index clamped), which the
// embedded set's features and its runs were made with.
func TestGaussianBits(t *testing.T) {
	ref := func(x []mgl32.Vec3, sigma float32) []mgl32.Vec3 {
		r := int(math.Ceil(3 * float64(sigma)))
		if r < 1 {
			return x
		}
		w := make([]float32, 2*r+1)
		var sum float32
		for k := -r; k <= r; k++ {
			w[k+r] = float32(math.Exp(-0.5 * float64(k*k) / float64(sigma*sigma)))
			sum += w[k+r]
		}
		out := make([]mgl32.Vec3, len(x))
		for i := range x {
			var s mgl32.Vec3
			for k := -r; k <= r; k++ {
				j := min(max(i+k, 0), len(x)-1)
				s = s.Add(x[j].Mul(w[k+r] / sum))
			}
			out[i] = s
		}
		return out
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{1, 2, 5, 20, 54, 55, 56, 300} {
		x := make([]mgl32.Vec3, n)
		for i := range x {
			x[i] = mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(100 * rng.NormFloat64())}
		}
		for _, sigma := range []float32{0.2, 1, 4.5, 9, 30} {
			got, want := gaussian(x, sigma), ref(x, sigma)
			for i := range want {
				for a := 0; a < 3; a++ {
					if math.Float32bits(got[i][a]) != math.Float32bits(want[i][a]) {
						t.Fatalf("n %d, sigma %g, frame %d: %v, want %v", n, sigma, i, got[i], want[i])
					}
				}
			}
		}
	}
}
