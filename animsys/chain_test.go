package animsys

import "testing"

func benchCharacter() *Character {
	skel := BenchSkeleton()
	a, b := GenerateBenchClip(1), GenerateBenchClip(2)
	ch := BenchChain(skel.Parents)
	return NewCharacter(&ch, &a, &b, 1, 0, 0)
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
