package animsys

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// randKform is a random moving kineform: position +-2 m, any rotation,
// scale exp(+-0.7) and scalar velocity +-0.5 per axis (or, uniform, one
// factor and one rate for all axes), velocities +-2.
func randKform(r *rand.Rand, uniform bool) Kform {
	scl, svl := mathx.Vec3Exp(randVec(r, 0.7)), randVec(r, 0.5)
	if uniform {
		scl = mgl32.Vec3{scl[0], scl[0], scl[0]}
		svl = mgl32.Vec3{svl[0], svl[0], svl[0]}
	}
	return Kform{
		Pos: randVec(r, 2), Rot: mathx.QuatFromScaledAngleAxis(randVec(r, 3)), Scl: scl,
		Vel: randVec(r, 2), Ang: randVec(r, 2), Svl: svl,
	}
}

// kformNear compares every field; rotations up to sign. tol is absolute on
// values of order 1-10 and covers a few float32 roundings through two
// compositions (~1e-6 relative each).
func kformNear(a, b Kform, tol float32) bool {
	rotNear := nearQ(a.Rot, b.Rot, tol) || nearQ(a.Rot, b.Rot.Scale(-1), tol)
	return rotNear && near3(a.Pos, b.Pos, tol) && near3(a.Scl, b.Scl, tol) &&
		near3(a.Vel, b.Vel, tol) && near3(a.Ang, b.Ang, tol) && near3(a.Svl, b.Svl, tol)
}

const kformTol = 5e-5

func TestKformIdentity(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	id := KformIdentity()
	for i := 0; i < 1000; i++ {
		v := randKform(r, false)
		if !kformNear(KformMul(id, v), v, kformTol) || !kformNear(KformMul(v, id), v, kformTol) {
			t.Fatalf("identity does not leave %+v unchanged", v)
		}
		if !kformNear(KformDiv(id, v), v, kformTol) || !kformNear(KformDiv(v, v), id, kformTol) {
			t.Fatalf("dividing by identity / by itself fails for %+v", v)
		}
	}
}

// Mul and Div undo each other for any scale, uniform or not.
func TestKformDivUndoesMul(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 1000; i++ {
		v, w := randKform(r, false), randKform(r, false)
		if got := KformDiv(v, KformMul(v, w)); !kformNear(got, w, 2e-4) {
			t.Fatalf("div(v, mul(v, w)) = %+v, want %+v", got, w)
		}
		if got := KformMul(v, KformDiv(v, w)); !kformNear(got, w, 2e-4) {
			t.Fatalf("mul(v, div(v, w)) = %+v, want %+v", got, w)
		}
		if got, want := KformInvMul(v, w), KformDiv(v, w); !kformNear(got, want, 0) {
			t.Fatalf("inv_mul differs from div")
		}
	}
}

// v inv(v) is the identity for any scale; inv(v) v only for uniform scale
// (and uniform scalar velocity).
func TestKformInverse(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	id := KformIdentity()
	for i := 0; i < 1000; i++ {
		v := randKform(r, false)
		if got := KformMul(v, KformInv(v)); !kformNear(got, id, kformTol) {
			t.Fatalf("v inv(v) = %+v", got)
		}
		u := randKform(r, true)
		if got := KformMul(KformInv(u), u); !kformNear(got, id, kformTol) {
			t.Fatalf("inv(u) u = %+v for uniform scale", got)
		}
		w := randKform(r, true)
		if got, want := KformMulInv(w, u), KformMul(w, KformInv(u)); !kformNear(got, want, 0) {
			t.Fatal("mul_inv differs from mul(w, inv(u))")
		}
		if got := KformMulInv(u, u); !kformNear(got, id, kformTol) {
			t.Fatalf("u inv(u) via mul_inv = %+v", got)
		}
	}
}

// Associativity holds when the outer kineforms' scales are uniform and stay
// uniform (uniform scalar velocity): a per-axis scale does not commute with
// the rotation it follows. The second
// half of the test documents that limit.
func TestKformAssociativity(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	worstNonUniform := float32(0)
	for i := 0; i < 1000; i++ {
		a, b, c := randKform(r, true), randKform(r, true), randKform(r, false)
		left, right := KformMul(KformMul(a, b), c), KformMul(a, KformMul(b, c))
		if !kformNear(left, right, 2e-4) {
			t.Fatalf("(ab)c = %+v, a(bc) = %+v", left, right)
		}
		a = randKform(r, false)
		left, right = KformMul(KformMul(a, b), c), KformMul(a, KformMul(b, c))
		worstNonUniform = max(worstNonUniform, left.Pos.Sub(right.Pos).Len())
	}
	if worstNonUniform < 0.1 {
		t.Fatalf("non-uniform outer scale unexpectedly associative (worst %v m)", worstNonUniform)
	}
}

// The point and direction transforms are the rows of KformMul.
func TestKformTransformsMatchMul(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 1000; i++ {
		v := randKform(r, false)
		p, pv := randVec(r, 2), randVec(r, 2)
		m := KformMul(v, KformFromPosVel(p, pv))
		if !near3(KformMulPos(v, p), m.Pos, 1e-5) || !near3(KformMulVel(v, p, pv), m.Vel, 1e-4) {
			t.Fatalf("mul_pos / mul_vel disagree with mul")
		}
		d := randVec(r, 1)
		if got := KformMulDir(v, d); !near3(got, mathx.QuatMulVec3(v.Rot, d), 1e-6) {
			t.Fatalf("mul_dir = %v", got)
		}
	}
}

func TestKformOnlyProjections(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	v := randKform(r, false)
	id := KformIdentity()
	p, q, s := KformPosOnly(v), KformRotOnly(v), KformSclOnly(v)
	if p.Pos != v.Pos || p.Vel != v.Vel || p.Rot != id.Rot || p.Scl != id.Scl || p.Ang != id.Ang {
		t.Fatalf("pos only: %+v", p)
	}
	if q.Rot != v.Rot || q.Ang != v.Ang || q.Pos != id.Pos || q.Vel != id.Vel || q.Svl != id.Svl {
		t.Fatalf("rot only: %+v", q)
	}
	if s.Scl != v.Scl || s.Svl != v.Svl || s.Pos != id.Pos || s.Rot != id.Rot {
		t.Fatalf("scl only: %+v", s)
	}
	// Composing the three (translation, then rotation, then scale) rebuilds v.
	if got := KformMul(KformMul(p, q), s); !kformNear(got, v, kformTol) {
		t.Fatalf("pos * rot * scl = %+v, want %+v", got, v)
	}
}

// The normalised direction and the rotation between two moving directions
// carry the derivatives of normalize and quat_between: a central
// difference at h = 1e-3 s agrees to truncation + float32 rounding.
func TestKformDirectionRates(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 500; i++ {
		d0, d1 := KformFromPosVel(randVec(r, 2), randVec(r, 1)), KformFromPosVel(randVec(r, 2), randVec(r, 1))
		if d0.Pos.Len() < 0.3 || d1.Pos.Len() < 0.3 || d0.Pos.Normalize().Dot(d1.Pos.Normalize()) < -0.9 {
			continue // near-zero or opposite directions: ill-conditioned
		}
		at := func(k Kform, t float32) Kform { return KformFromPosVel(k.Pos.Add(k.Vel.Mul(t)), k.Vel) }
		const h = 1e-3
		n := KformPosVelNormalize(d0)
		fd := KformPosVelNormalize(at(d0, h)).Pos.Sub(KformPosVelNormalize(at(d0, -h)).Pos).Mul(1 / (2 * h))
		if !near3(n.Vel, fd, 1e-3*(1+fd.Len())) {
			t.Fatalf("normalize rate %v, finite difference %v", n.Vel, fd)
		}
		b := KformRotAngBetween(d0, d1)
		q0, q1 := KformRotAngBetween(at(d0, -h), at(d1, -h)).Rot, KformRotAngBetween(at(d0, h), at(d1, h)).Rot
		fa := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(q1, q0))).Mul(1 / (2 * h))
		if !near3(b.Ang, fa, 2e-3*(1+fa.Len())) {
			t.Fatalf("between angular velocity %v, finite difference %v", b.Ang, fa)
		}
	}
}
