package mathx

import (
	"math"
	"math/rand"
	"testing"
)

// ExpPoly is Exp32 to the bit wherever InExpPoly holds, and InExpPoly
// leaves out the values Exp32 treats apart (zeros of either sign, the
// bounds, NaN, infinities): animsys's cubic scales take V3.Exp's
// uniform case through them inline.
func TestExpPolyIsExp32(t *testing.T) {
	for _, x := range []float32{0, float32(math.Copysign(0, -1)), 0.34, -0.34, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1, -5} {
		if InExpPoly(x) {
			t.Errorf("InExpPoly(%v) = true, want false", x)
		}
	}
	r := rand.New(rand.NewSource(11))
	edges := []float32{math.Nextafter32(0.34, 0), math.Nextafter32(-0.34, 0), 1e-40, -1e-40, 1e-20, -1e-20, 0.2, -0.1}
	n := 0
	for i := 0; i < 20000; i++ {
		x := (r.Float32()*2 - 1) * 0.4
		if i < len(edges) {
			x = edges[i]
		}
		if !InExpPoly(x) {
			continue
		}
		n++
		if got, want := ExpPoly(x), Exp32(x); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("ExpPoly(%v) = %v, Exp32 %v", x, got, want)
		}
	}
	if n < 15000 {
		t.Fatalf("only %d of 20000 values in ExpPoly's range", n)
	}
}
