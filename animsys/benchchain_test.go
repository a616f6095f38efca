package animsys

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

func benchCharacter() *BenchCharacter {
	skel := BenchSkeleton()
	a, b := GenerateBenchClip(1), GenerateBenchClip(2)
	ch := NewBenchChain(skel.Parents)
	return NewBenchCharacter(&ch, &a, &b, 1, 0, 0, nil)
}

func BenchmarkChain(b *testing.B) {
	c := benchCharacter()
	var sum float32
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sum += c.Tick(1.0 / 60)
	}
	if sum != sum {
		b.Fatal("NaN checksum")
	}
}

// BenchmarkSampleBlendFK runs the steps ozz-animation's runtime also does
// (issue 31's comparison): sample two clips (cubic, with velocities),
// blend them with a moving weight, FK with velocities; no additive,
// inertialization, finite difference or BK. The clocks advance as in
// Tick.
func BenchmarkSampleBlendFK(b *testing.B) {
	skel := BenchSkeleton()
	clipA, clipB := GenerateBenchClip(1), GenerateBenchClip(2)
	ch := NewBenchChain(skel.Parents)
	ch.Stages = BenchStages{Cubic: true, Blend: true, BlendVel: true}
	c := NewBenchCharacter(&ch, &clipA, &clipB, 1, 0, 0, nil)
	const dt = 1.0 / 60
	var sum float32
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.TA = wrapTime(c.TA+dt, c.A.Duration())
		c.TB = wrapTime(c.TB+dt, c.B.Duration())
		c.T += dt
		c.Evaluate()
		sum += c.Global.Vel[len(c.Global.Vel)-1][0]
	}
	if sum != sum {
		b.Fatal("NaN checksum")
	}
}

func TestChainAllocs(t *testing.T) {
	c := benchCharacter()
	if n := testing.AllocsPerRun(100, func() { c.Tick(1.0 / 60) }); n != 0 {
		t.Fatalf("chain tick allocates %v times", n)
	}
}

// Every combination of stages ticks to finite poses, and the bench chain
// is deterministic.
func TestChainStages(t *testing.T) {
	skel := BenchSkeleton()
	a, b := GenerateBenchClip(1), GenerateBenchClip(2)
	for mask := 0; mask < 64; mask++ {
		ch := NewBenchChain(skel.Parents)
		ch.Stages = BenchStages{Cubic: mask&1 != 0, Blend: mask&2 != 0, BlendVel: mask&4 != 0,
			Additive: mask&8 != 0, AdditiveVel: mask&16 != 0, Inertialize: mask&32 != 0}
		c := NewBenchCharacter(&ch, &a, &b, 3, 1, 2, nil)
		for i := 0; i < 40; i++ {
			c.Tick(1.0 / 60)
		}
		for j := range c.own.FDLocal.Ang {
			if !mathx.Vec3Finite(c.Global.Vel[j]) || !mathx.Vec3Finite(c.own.FDLocal.Ang[j]) {
				t.Fatalf("stages %+v: joint %d not finite", ch.Stages, j)
			}
		}
	}
	c1, c2 := benchCharacter(), benchCharacter()
	for i := 0; i < 700; i++ { // past the clip's wrap at 599 frames
		if s1, s2 := c1.Tick(1.0/60), c2.Tick(1.0/60); s1 != s2 {
			t.Fatalf("tick %d: checksums %v and %v", i, s1, s2)
		}
	}
	if c1.TA < 0 || c1.TA >= a.Duration() {
		t.Fatalf("clip time %v not wrapped into [0, %v)", c1.TA, a.Duration())
	}
}

// restCurves are Curves that hold every joint at rest.
type restCurves struct{}

func (restCurves) SampleCurves(out *Pose, t float64) {}

// Prefetch only hints the cache: ticking with it gives the same bits as
// without and it allocates nothing; it is safe on clips without the
// sampling cache or with Curves, at any time, and on empty ranges.
func TestPrefetch(t *testing.T) {
	c1, c2 := benchCharacter(), benchCharacter()
	for i := 0; i < 700; i++ { // past the clip's wrap
		c2.Prefetch(1.0 / 60)
		if s1, s2 := c1.Tick(1.0/60), c2.Tick(1.0/60); s1 != s2 {
			t.Fatalf("tick %d: checksum %v without Prefetch, %v with", i, s1, s2)
		}
	}
	if n := testing.AllocsPerRun(100, func() { c2.Prefetch(1.0 / 60) }); n != 0 {
		t.Fatalf("Prefetch allocates %v times", n)
	}
	raw, one := NewClip("raw", 10, 23, 1.0/60), NewClip("one", 1, 23, 1.0/60)
	curves := CurvesClip("curves", restCurves{}, 23, 1, 60)
	bench := GenerateBenchClip(3)
	for _, clip := range []*Clip{&raw, &one, &curves, &bench, {}} {
		for _, tm := range []float32{-1, 0, 0.05, 0.1, 9.98, 10, 1e9, float32(math.NaN()), float32(math.Inf(1))} {
			clip.prefetchAt(tm)
		}
	}
	prefetch(nil, 0)
	prefetchSlice([]mgl32.Quat(nil))
	prefetchSlice(make([]float32, 3)[1:2])
}
