package mathx

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func randVec(r *rand.Rand, s float32) mgl32.Vec3 {
	return mgl32.Vec3{s * (2*r.Float32() - 1), s * (2*r.Float32() - 1), s * (2*r.Float32() - 1)}
}

// Scaled angle-axis round trips for angles up to just under pi (beyond pi the
// log picks the other, shorter, representation). 1e-5 rad is a few float32
// ulps of angles of order 1.
func TestScaledAngleAxisRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1000; i++ {
		v := randVec(r, 1.7)
		got := QuatToScaledAngleAxis(QuatFromScaledAngleAxis(v))
		if got.Sub(v).Len() > 1e-5 {
			t.Fatalf("round trip of %v gave %v", v, got)
		}
	}
	if got := QuatToScaledAngleAxis(QuatIdentity()); got.Len() != 0 {
		t.Fatalf("log(identity) = %v", got)
	}
}

// QuatMulVec3 must agree with mathgl's own rotation.
func TestQuatMulVec3MatchesMgl(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 1000; i++ {
		q := QuatFromScaledAngleAxis(randVec(r, 3))
		v := randVec(r, 2)
		if d := QuatMulVec3(q, v).Sub(q.Rotate(v)).Len(); d > 1e-5 {
			t.Fatalf("rotate mismatch %g", d)
		}
		if d := QuatInvMulVec3(q, QuatMulVec3(q, v)).Sub(v).Len(); d > 1e-5 {
			t.Fatalf("inverse rotate mismatch %g", d)
		}
	}
}

func TestSlerpShortestEnds(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 500; i++ {
		a := QuatFromScaledAngleAxis(randVec(r, 3))
		b := QuatFromScaledAngleAxis(randVec(r, 3))
		if !QuatSlerpShortest(a, b, 0).ApproxEqualThreshold(a, 1e-5) {
			t.Fatal("t=0 is not a")
		}
		e := QuatSlerpShortest(a, b, 1)
		if !e.ApproxEqualThreshold(b, 1e-4) && !e.ApproxEqualThreshold(b.Scale(-1), 1e-4) {
			t.Fatalf("t=1 is not +-b: %v vs %v", e, b)
		}
	}
}

func TestQuatBetween(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 500; i++ {
		p, q := randVec(r, 2), randVec(r, 2)
		got := QuatMulVec3(QuatBetween(p, q), p.Normalize())
		if got.Sub(q.Normalize()).Len() > 1e-4 {
			t.Fatalf("between(%v,%v) maps p to %v", p, q, got)
		}
	}
}

func TestEerp(t *testing.T) {
	if got := Eerp(0.1, 10, 0.5); got < 0.99999 || got > 1.00001 {
		t.Fatalf("eerp(0.1,10,.5) = %v, want 1", got)
	}
}
