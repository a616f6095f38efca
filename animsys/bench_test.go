package animsys

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Benchmarks of each operation on the 23-joint bench skeleton (ns per call
// for the whole pose) and of the bench-spec chain (ns per character tick).

type benchFixture struct {
	skel                 Skeleton
	a, b                 Clip
	p, q, r, s, g, scrap Pose
}

func newBenchFixture() *benchFixture {
	f := &benchFixture{skel: BenchSkeleton(), a: GenerateBenchClip(1), b: GenerateBenchClip(2)}
	for _, p := range []*Pose{&f.p, &f.q, &f.r, &f.s, &f.g, &f.scrap} {
		*p = NewPose(23)
	}
	SampleCubic(&f.p, &f.a, 2.1)
	SampleCubic(&f.q, &f.b, 3.4)
	RandomAdditive(&f.r, 1)
	FK(&f.g, &f.p, f.skel.Parents)
	return f
}

func BenchmarkSampleLinear(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		SampleLinear(&f.s, &f.a, float32(i%500)*0.0173)
	}
}

func BenchmarkSampleCubic(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		SampleCubic(&f.s, &f.a, float32(i%500)*0.0173)
	}
}

// BenchmarkSampleCubicUncached is SampleCubic on a clip without Prepare's
// cache, as a clip over MaxCacheBytes is sampled.
func BenchmarkSampleCubicUncached(b *testing.B) {
	f := newBenchFixture()
	f.a.recs, f.a.posRecs, f.a.sclRecs = nil, nil, nil
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		SampleCubic(&f.s, &f.a, float32(i%500)*0.0173)
	}
}

func BenchmarkFK(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		FK(&f.s, &f.p, f.skel.Parents)
	}
}

func BenchmarkFKStatic(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		FKStatic(&f.s, &f.p, f.skel.Parents)
	}
}

func BenchmarkBK(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		BK(&f.s, &f.g, f.skel.Parents)
	}
}

func BenchmarkFiniteDiff(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		FiniteDiff(&f.s, &f.p, &f.q, 1.0/60)
	}
}

func BenchmarkBlend(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Blend(&f.s, &f.p, &f.q, 0.3, 0.5)
	}
}

func BenchmarkAdditive(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.s.CopyFrom(&f.p)
		Additive(&f.s, &f.r, 0.6, 0.4)
	}
}

func BenchmarkAdditiveLocal(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.s.CopyFrom(&f.p)
		AdditiveLocal(&f.s, &f.r, 0.6, 0.4)
	}
}

func BenchmarkInertialize(b *testing.B) {
	f := newBenchFixture()
	InertializeOffset(&f.r, &f.p, &f.q)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Inertialize(&f.s, &f.r, &f.q, 0.1, 0.5)
	}
}

func BenchmarkInertializeCritical(b *testing.B) {
	f := newBenchFixture()
	InertializeOffset(&f.r, &f.p, &f.q)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		InertializeCritical(&f.s, &f.r, &f.q, 0.1, 0.2)
	}
}

func BenchmarkDeadBlend(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		DeadBlend(&f.s, &f.scrap, &f.p, &f.q, 0.2, 0.1, 0.5)
	}
}

func BenchmarkLookAt(b *testing.B) {
	f := newBenchFixture()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		LookAt(&f.p, &f.g, BenchHead, mgl32.Vec3{0.3, 1.7, 4}, mgl32.Vec3{0.1, 0, 1.2}, mgl32.Vec3{0, 0, 1})
	}
}

func BenchmarkTwoBoneIK(b *testing.B) {
	f := newBenchFixture()
	leg := TwoBoneJoints{Root: BenchLeftUpLeg, Mid: BenchLeftLeg, End: BenchLeftFoot}
	target := f.g.Pos[leg.End].Add(mgl32.Vec3{0, .1, 0})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.s.CopyFrom(&f.p)
		TwoBoneIK(&f.s, &f.q, &f.r, &f.scrap, f.skel.Parents, leg, target, mgl32.Vec3{}, 0.01)
	}
}

func BenchmarkKformMul(b *testing.B) {
	f := newBenchFixture()
	v, w := f.g.Kform(5), f.p.Kform(6)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v = KformMul(v, w)
	}
	_ = v
}
