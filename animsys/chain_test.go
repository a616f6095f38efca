package animsys

import (
	"testing"

	"kinelab/animsys/mathx"
)

func benchCharacter() *Character {
	skel := BenchSkeleton()
	a, b := GenerateBenchClip(1), GenerateBenchClip(2)
	ch := BenchChain(skel.Parents)
	return NewCharacter(&ch, &a, &b, 1, 0, 0, nil)
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
		ch := BenchChain(skel.Parents)
		ch.Stages = Stages{Cubic: mask&1 != 0, Blend: mask&2 != 0, BlendVel: mask&4 != 0,
			Additive: mask&8 != 0, AdditiveVel: mask&16 != 0, Inertialize: mask&32 != 0}
		c := NewCharacter(&ch, &a, &b, 3, 1, 2, nil)
		for i := 0; i < 40; i++ {
			c.Tick(1.0 / 60)
		}
		for j := range c.FDLocal.Ang {
			if !mathx.Vec3Finite(c.Global.Vel[j]) || !mathx.Vec3Finite(c.FDLocal.Ang[j]) {
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
