package mathx64

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
)

func randQuat(rng *rand.Rand) Quat {
	return Quat{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize()
}

func randVec(rng *rand.Rand) Vec3 {
	return Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
}

func near(a, b Vec3, tol float64) bool { return a.Sub(b).Len() <= tol }

// sameRot reports whether p and q are the same rotation within tol.
func sameRot(p, q Quat, tol float64) bool { return 1-math.Abs(p.Dot(q)) <= tol }

// The products and rotations agree with mathgl's float64 quaternions, an
// independent implementation.
func TestAgainstMgl64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m64 := func(q Quat) mgl64.Quat { return mgl64.Quat{W: q.W, V: mgl64.Vec3{q.X, q.Y, q.Z}} }
	for range 1000 {
		p, q, v := randQuat(rng), randQuat(rng), randVec(rng)
		pq, want := p.Mul(q), m64(p).Mul(m64(q))
		if !sameRot(pq, Quat{want.W, want.V[0], want.V[1], want.V[2]}, 1e-15) || math.Abs(pq.W-want.W) > 1e-15 {
			t.Fatalf("%v * %v = %v, mgl64 %v", p, q, pq, want)
		}
		if got, w := q.Rotate(v), m64(q).Rotate(mgl64.Vec3(v)); !near(got, Vec3(w), 1e-14) {
			t.Fatalf("%v rotates %v to %v, mgl64 %v", q, v, got, w)
		}
		// Rotate is q v q^-1.
		r := q.Mul(Quat{0, v[0], v[1], v[2]}).Mul(q.Conj())
		if !near(q.Rotate(v), r.Vec(), 1e-14) {
			t.Fatalf("%v rotates %v to %v, q v q* %v", q, v, q.Rotate(v), r.Vec())
		}
		if c, w := v.Cross(p.Vec()), Vec3(mgl64.Vec3(v).Cross(mgl64.Vec3(p.Vec()))); c != w {
			t.Fatalf("%v x %v = %v, mgl64 %v", v, p.Vec(), c, w)
		}
	}
}

func TestAxisRotations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		a, v := rng.Float64()*8-4, randVec(rng)
		if got, want := v.RotateX(a), QuatX(a).Rotate(v); !near(got, want, 1e-14) {
			t.Fatalf("RotateX(%g) %v = %v, QuatX %v", a, v, got, want)
		}
		if got, want := v.RotateY(a), QuatY(a).Rotate(v); !near(got, want, 1e-14) {
			t.Fatalf("RotateY(%g) %v = %v, QuatY %v", a, v, got, want)
		}
		z := QuatZ(a).Rotate(Vec3{1, 0, 0})
		if !near(z, Vec3{math.Cos(a), math.Sin(a), 0}, 1e-15) {
			t.Fatalf("QuatZ(%g) takes X to %v", a, z)
		}
	}
}

func TestExpLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		q := randQuat(rng).Abs()
		if got := QuatExp(QuatLog(q)); !sameRot(got, q, 1e-15) || math.Abs(got.W-q.W) > 1e-15 {
			t.Fatalf("exp(log(%v)) = %v", q, got)
		}
		// exp(axis angle/2) is the rotation by angle about axis.
		axis, angle := randVec(rng).Normalize(), rng.Float64()*3
		r := mgl64.QuatRotate(angle, mgl64.Vec3(axis))
		want := Quat{r.W, r.V[0], r.V[1], r.V[2]}
		if got := QuatExp(axis.Scale(angle / 2)); !sameRot(got, want, 1e-15) {
			t.Fatalf("exp of %v * %g/2 = %v, want %v", axis, angle, got, want)
		}
	}
	if q := QuatExp(Vec3{}); q != QuatIdent() {
		t.Errorf("exp(0) = %v", q)
	}
}

// QuatFromMatrix recovers a rotation from its matrix, through each of
// Shepperd's four cases.
func TestQuatFromMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	qs := []Quat{QuatIdent(), QuatX(3), QuatY(3), QuatZ(3), QuatX(math.Pi), QuatY(-math.Pi / 2)}
	for range 500 {
		qs = append(qs, randQuat(rng))
	}
	for _, q := range qs {
		var m [3][3]float64
		for c := range 3 {
			var e Vec3
			e[c] = 1
			col := q.Rotate(e)
			for r := range 3 {
				m[r][c] = col[r]
			}
		}
		if got := QuatFromMatrix(m); !sameRot(got, q, 1e-15) || math.Abs(got.Dot(got)-1) > 1e-15 {
			t.Fatalf("the matrix of %v gives %v", q, got)
		}
	}
}

func TestNormalizeAndUnitF32(t *testing.T) {
	for _, q := range []Quat{{}, {W: math.NaN()}, {X: math.Inf(1)}} {
		if q.Normalize() != QuatIdent() || q.UnitF32() != mgl32.QuatIdent() {
			t.Errorf("%v: Normalize %v, UnitF32 %v, want the identity", q, q.Normalize(), q.UnitF32())
		}
	}
	q := Quat{2, 0, 0, 0}
	if q.Normalize() != QuatIdent() || q.UnitF32() != mgl32.QuatIdent() {
		t.Errorf("%v: Normalize %v, UnitF32 %v", q, q.Normalize(), q.UnitF32())
	}
	if a := (Quat{-1, 2, 3, 4}).Abs(); a != (Quat{1, -2, -3, -4}) {
		t.Errorf("Abs = %v", a)
	}
	if r := (Vec3{1, 2, 3}).Reflect(Vec3{1, 0, 0}); r != (Vec3{-1, 2, 3}) {
		t.Errorf("Reflect = %v", r)
	}
	if l := (Vec3{1, 2, 3}).Lerp(Vec3{3, 2, 1}, 0.5); l != (Vec3{2, 2, 2}) {
		t.Errorf("Lerp = %v", l)
	}
}
