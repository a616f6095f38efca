package mathx

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx/mathx64"
)

// The lane types against float64 (mathx64), lane by lane, in whichever
// build runs the test (`make test` runs this package in both). Bounds are
// in units of float32's epsilon (2^-23 = 1.19e-7) relative to the
// magnitude of what is computed, each stated with why it holds.

const eps32 = 1.0 / (1 << 23)

// splatLanes loads up to Lanes float32s, repeating the last.
func splatLanes(x []float32) SoaFloat {
	var b [Lanes]float32
	for j := range b {
		b[j] = x[min(j, len(x)-1)]
	}
	return LoadSoaFloat(&b)
}

func vecLanes(v []mgl32.Vec3) SoaVec3 { return LoadSoaVec3Part(v, 0) }

func quatLanes(q []mgl32.Quat) SoaQuat { return LoadSoaQuatPart(q, 0) }

func randUnitQuat(r *rand.Rand, maxAngle float64) mathx64.Quat {
	axis := mathx64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	return mathx64.QuatExp(axis.Scale(r.Float64() * maxAngle / 2))
}

func randVec64(r *rand.Rand, s float64) mathx64.Vec3 {
	return mathx64.Vec3{s * (2*r.Float64() - 1), s * (2*r.Float64() - 1), s * (2*r.Float64() - 1)}
}

func err3(got mgl32.Vec3, want mathx64.Vec3, scale float64) float64 {
	return mathx64.FromVec32(got).Sub(want).Len() / scale
}

func errQ(got mgl32.Quat, want mathx64.Quat) float64 {
	g := mathx64.FromQuat32(got)
	return math.Sqrt(g.Add(want.Scale(-1)).Dot(g.Add(want.Scale(-1))))
}

// Quaternion products and rotations: each output component is a sum of
// four products of float32 inputs (unit quaternions, vectors of size s),
// rounded at each step: within 8 eps of the float64 result relative to
// |q| |p| (or |v|), four roundings of the products plus three of the sums
// with room for the inputs' own rounding to float32.
func TestSoaQuatAlgebra(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var worst [5]float64
	for it := 0; it < 4000; it++ {
		var qs, ps []mgl32.Quat
		var vs []mgl32.Vec3
		var q64, p64 []mathx64.Quat
		var v64 []mathx64.Vec3
		for j := 0; j < Lanes; j++ {
			q, p := randUnitQuat(r, 2*math.Pi), randUnitQuat(r, 2*math.Pi)
			v := randVec64(r, 10)
			qs, ps, vs = append(qs, q.F32()), append(ps, p.F32()), append(vs, v.F32())
			// The references start from the float32 inputs.
			q64, p64, v64 = append(q64, mathx64.FromQuat32(q.F32())), append(p64, mathx64.FromQuat32(p.F32())), append(v64, mathx64.FromVec32(v.F32()))
		}
		q, p, v := quatLanes(qs), quatLanes(ps), vecLanes(vs)
		mul, mulInv, invMul, rot, invRot := q.Mul(p), q.MulInv(p), q.InvMul(p), q.MulVec3(v), q.InvMulVec3(v)
		for j := 0; j < Lanes; j++ {
			a, b := q64[j], p64[j]
			worst[0] = max(worst[0], errQ(mul.Lane(j), a.Mul(b)))
			worst[1] = max(worst[1], errQ(mulInv.Lane(j), a.Mul(b.Conj())))
			worst[2] = max(worst[2], errQ(invMul.Lane(j), a.Conj().Mul(b)))
			l := math.Max(v64[j].Len(), 1e-30)
			worst[3] = max(worst[3], err3(rot.Lane(j), a.Rotate(v64[j]), l))
			worst[4] = max(worst[4], err3(invRot.Lane(j), a.Conj().Rotate(v64[j]), l))
		}
	}
	for i, name := range []string{"Mul", "MulInv", "InvMul", "MulVec3", "InvMulVec3"} {
		t.Logf("%s: %.2f eps", name, worst[i]/eps32)
		if worst[i] > 8*eps32 {
			t.Errorf("%s is %.2f eps from float64, want <= 8", name, worst[i]/eps32)
		}
	}
}

// The exp map and its Jacobian at angles from 0 to 4 pi (the polynomial
// below 1 rad, the general form beyond), against float64: the quaternion
// within 8 eps (the polynomials' error is under 4e-9 = 0.03 eps; the rest
// is the rounding of a2, h2 and a few products), J(v) dv within 16 eps of
// |dv| (C2 cancels for small a, but only ever multiplies v x (v x dv), of
// size a^2 |dv|: ExpAt's comment).
func TestSoaExpMap(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var wq, wj float64
	for it := 0; it < 4000; it++ {
		var vs, ds []mgl32.Vec3
		for j := 0; j < Lanes; j++ {
			axis := mathx64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
			a := math.Pow(10, -6+7*r.Float64()) // 1e-6 .. 10 rad
			if it%7 == 0 {
				a = r.Float64() * 4 * math.Pi
			}
			vs = append(vs, axis.Scale(a).F32())
			ds = append(ds, randVec64(r, 3).F32())
		}
		v, dv := vecLanes(vs), vecLanes(ds)
		k := ExpAt(v.Dot(v))
		q, jac := k.Quat(v), k.Jacobian(v, dv)
		for j := 0; j < Lanes; j++ {
			v64, d64 := mathx64.FromVec32(vs[j]), mathx64.FromVec32(ds[j])
			want := mathx64.QuatExp(v64.Scale(0.5))
			wq = max(wq, errQ(q.Lane(j), want))
			wj = max(wj, err3(jac.Lane(j), expJacobian64(v64, d64), math.Max(d64.Len(), 1e-30)))
		}
	}
	t.Logf("exp: %.2f eps, Jacobian: %.2f eps of |dv|", wq/eps32, wj/eps32)
	if wq > 8*eps32 || wj > 16*eps32 {
		t.Errorf("exp map %.2f eps (want <= 8), Jacobian %.2f eps (want <= 16)", wq/eps32, wj/eps32)
	}
}

// expJacobian64 is J(v) dv in float64, by its closed form.
func expJacobian64(v, dv mathx64.Vec3) mathx64.Vec3 {
	a := v.Len()
	if a < 1e-8 {
		return dv.Add(v.Cross(dv).Scale(0.5))
	}
	c1, c2 := (1-math.Cos(a))/(a*a), (a-math.Sin(a))/(a*a*a)
	vx := v.Cross(dv)
	return dv.Add(vx.Scale(c1)).Add(v.Cross(vx).Scale(c2))
}

// The log map at angles from 0 to 2 pi (the polynomial up to 45 degrees
// with w > 0, the general form beyond, including w < 0 the long way round)
// against float64 within 8 eps of the angle (plus 8 eps absolute: the
// float32 quaternion itself is only that exact), and its rate J(v)^-1 w
// within 16 eps of |w| |J^-1| (which grows as cot h near 2 pi).
func TestSoaLogMap(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var wl, wr float64
	for it := 0; it < 4000; it++ {
		var qs []mgl32.Quat
		var ws []mgl32.Vec3
		for j := 0; j < Lanes; j++ {
			maxA := math.Pi / 4
			if it%3 == 0 {
				maxA = 1.9 * math.Pi
			}
			qs = append(qs, randUnitQuat(r, maxA).F32())
			ws = append(ws, randVec64(r, 3).F32())
		}
		q, w := quatLanes(qs), vecLanes(ws)
		v := q.ToScaledAngleAxis()
		dv := ToScaledAngleAxisDx(q, v, w)
		for j := 0; j < Lanes; j++ {
			q64 := mathx64.FromQuat32(qs[j])
			want := mathx64.QuatLog(q64.Normalize()).Scale(2)
			wl = max(wl, err3(v.Lane(j), want, want.Len()+1))
			// J(v)^-1 w = w - (v x w)/2 + c v x (v x w).
			h := want.Len() / 2
			c := 1.0 / 12
			if h > 1e-4 {
				c = (1 - h*math.Cos(h)/math.Sin(h)) / (4 * h * h)
			}
			w64 := mathx64.FromVec32(ws[j])
			vw := want.Cross(w64)
			ref := w64.Sub(vw.Scale(0.5)).Add(want.Cross(vw).Scale(c))
			scale := w64.Len() * (1 + want.Len()*want.Len()*math.Abs(c))
			wr = max(wr, err3(dv.Lane(j), ref, scale))
		}
	}
	t.Logf("log: %.2f eps, rate: %.2f eps", wl/eps32, wr/eps32)
	if wl > 8*eps32 || wr > 16*eps32 {
		t.Errorf("log map %.2f eps (want <= 8), rate %.2f eps (want <= 16)", wl/eps32, wr/eps32)
	}
}

// Log and Exp per lane against float64, each within 4 eps relative (Log:
// relative to max(|log x|, 1), its polynomial's truncation under 3e-9 and
// e ln2 split so the exponent adds no rounding); and their special values.
func TestSoaLogExp(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	var wl, we float64
	for it := 0; it < 20000; it++ {
		var xs, ys []float32
		for j := 0; j < Lanes; j++ {
			xs = append(xs, float32(math.Exp(r.Float64()*60-30)))
			ys = append(ys, float32(r.Float64()*160-80))
		}
		l, e := LaneLog(splatLanes(xs)), LaneExp(splatLanes(ys))
		for j := 0; j < Lanes; j++ {
			wl = max(wl, relErr(LaneOf(l, j), math.Log(float64(xs[j])), 1))
			we = max(we, relErr(LaneOf(e, j), math.Exp(float64(ys[j])), 0))
		}
	}
	t.Logf("Log: %.2f eps, Exp: %.2f eps", wl/eps32, we/eps32)
	if wl > 4*eps32 || we > 4*eps32 {
		t.Errorf("Log %.2f eps, Exp %.2f eps; want <= 4", wl/eps32, we/eps32)
	}
	nan := float32(math.NaN())
	special := []float32{1, 0, -1, float32(math.Inf(1)), nan, 0x1p-140, 0x1p-127}
	for _, x := range special {
		got, want := LaneOf(LaneLog(splatLanes([]float32{x})), 0), math.Log(float64(x))
		if !(math.IsNaN(want) && got != got) && float64(got) != want && math.Abs(float64(got)-want) > 4*eps32*math.Abs(want) {
			t.Errorf("Log(%g) = %g, want %g", x, got, want)
		}
	}
	if l := LaneOf(LaneLog(splatLanes([]float32{1})), 0); math.Float32bits(l) != 0 {
		t.Errorf("Log(1) = %g, want exactly +0", l)
	}
	if e := LaneOf(LaneExp(splatLanes([]float32{0})), 0); e != 1 {
		t.Errorf("Exp(0) = %g, want exactly 1", e)
	}
	if e := LaneOf(LaneExp(splatLanes([]float32{nan})), 0); e == e {
		t.Errorf("Exp(NaN) = %g, want NaN", e)
	}
	if e := LaneOf(LaneExp(splatLanes([]float32{1000})), 0); e > math.MaxFloat32 || e < 1e38 {
		t.Errorf("Exp(1000) = %g, want the clamp's e^88", e)
	}
}

// A lane's result does not depend on its neighbours: a block with one
// lane beyond a polynomial's range (which sends the block through the
// general form) gives the other lanes the bits they get in a block of
// their own.
func TestSoaLanesIndependent(t *testing.T) {
	if Lanes == 1 {
		t.Skip("SKIPPED: one lane in this build (the portable one), so no neighbours to check")
	}
	small := mgl32.Vec3{0.1, -0.2, 0.3}
	far := mgl32.Vec3{2, 1, -1}
	vs := make([]mgl32.Vec3, Lanes)
	for j := range vs {
		vs[j] = small
	}
	alone := FromScaledAngleAxis(vecLanes(vs)).Lane(0)
	aloneLog := FromScaledAngleAxis(vecLanes(vs)).ToScaledAngleAxis().Lane(0)
	vs[Lanes-1] = far
	mixed := FromScaledAngleAxis(vecLanes(vs))
	if mixed.Lane(0) != alone || mixed.ToScaledAngleAxis().Lane(0) != aloneLog {
		t.Errorf("lane 0 changed with a far lane beside it: %v vs %v", mixed.Lane(0), alone)
	}
}

// Rooms' loads and stores round-trip whole blocks in NewPose's room
// (PaddedLen), and the Part loads of a slice without it repeat its last
// element past its end.
func TestSoaLoadStoreBlocks(t *testing.T) {
	for n := 1; n <= 3*Lanes+1; n++ {
		m := PaddedLen(n)
		if m < n+1 || m%Lanes != 0 {
			t.Fatalf("PaddedLen(%d) = %d: want whole blocks of %d and one more element", n, m, Lanes)
		}
		vs, qs := make([]mgl32.Vec3, n, m), make([]mgl32.Quat, n, m)
		for i := range vs[:m] {
			vs[:m][i] = mgl32.Vec3{float32(i), float32(-i), 0.5}
			qs[:m][i] = mgl32.Quat{W: float32(i), V: mgl32.Vec3{1, 2, float32(i)}}
		}
		outV, outQ, flat := make([]mgl32.Vec3, n, m), make([]mgl32.Quat, n, m), make([]mgl32.Vec3, n, m)
		rv, rq, ov, oq, of := RoomVec3(vs, n), RoomQuat(qs, n), RoomVec3(outV, n), RoomQuat(outQ, n), RoomVec3(flat, n)
		for i := 0; i < n; i += Lanes {
			ov.Store(i, rv.Load(i))
			oq.Store(i, rq.Load(i))
			of.StoreFlat(i, rv.LoadFlat(i))
			var got [Lanes]mgl32.Vec3
			if rv.Load(i).Unpack(&got); got != [Lanes]mgl32.Vec3(vs[i:m][:Lanes]) {
				t.Fatalf("n=%d: block %d unpacks to %v, want %v", n, i, got, vs[i:m][:Lanes])
			}
			pv, pq := LoadSoaVec3Part(vs, i), LoadSoaQuatPart(qs, i)
			for j := 0; j < Lanes; j++ {
				k := min(i+j, n-1)
				if pv.Lane(j) != vs[k] || pq.Lane(j) != qs[k] {
					t.Fatalf("n=%d: Part lane %d of block %d is %v %v, want element %d", n, j, i, pv.Lane(j), pq.Lane(j), k)
				}
			}
		}
		for i := 0; i < (n+Lanes-1)/Lanes*Lanes; i++ {
			if outV[:m][i] != vs[:m][i] || outQ[:m][i] != qs[:m][i] || flat[:m][i] != vs[:m][i] {
				t.Fatalf("n=%d: element %d came back as %v %v", n, i, outV[:m][i], outQ[:m][i])
			}
		}
	}
}

// A rotation with a NaN w (user input: a pose read from a damaged file)
// gives a NaN scaled angle-axis, in the polynomial's block and the
// general form's alike (the scalar form it replaced once recursed on it
// until the stack overflowed).
func TestSoaLogNaNW(t *testing.T) {
	nan := float32(math.NaN())
	for _, q := range []mgl32.Quat{{W: nan, V: mgl32.Vec3{0, 1, 0}}, {W: nan, V: mgl32.Vec3{0.3, 0, 0}}, {W: nan, V: mgl32.Vec3{nan, 0, 0}}} {
		if v := quatLanes([]mgl32.Quat{q}).ToScaledAngleAxis().Lane(0); v == v {
			t.Errorf("ToScaledAngleAxis(%v) = %v, want NaN", q, v)
		}
	}
}

// Sincos32 against float64 within 4 eps over [-20, 20].
func TestSincos32(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var worst float64
	for i := 0; i < 100000; i++ {
		a := float32(r.Float64()*40 - 20)
		s, c := Sincos32(a)
		worst = max(worst, math.Abs(float64(s)-math.Sin(float64(a))), math.Abs(float64(c)-math.Cos(float64(a))))
	}
	if worst > 4*eps32 {
		t.Errorf("Sincos32 is %.2f eps from float64, want <= 4", worst/eps32)
	}
}

// relErr is |got - want| / max(|want|, floor).
func relErr(got float32, want, floor float64) float64 {
	return math.Abs(float64(got)-want) / math.Max(math.Abs(want), floor)
}

// A room is made only over NewPose's memory (the package doc): n
// elements in room for exactly PaddedLen(n). A slice with more room
// past its end may share it with a caller's data, which whole-block
// stores would overwrite; one with less has none for them.
func TestRoomsOnlyOverPoseMemory(t *testing.T) {
	n := 5
	m := PaddedLen(n)
	for _, c := range []struct{ len, cap int }{{n, m + 1}, {n, m - 1}, {n - 1, m}, {n + 1, m}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RoomVec3 of %d elements in room for %d, n = %d: no panic", c.len, c.cap, n)
				}
			}()
			RoomVec3(make([]mgl32.Vec3, c.len, c.cap), n)
		}()
	}
	RoomVec3(make([]mgl32.Vec3, n, m), n)
	RoomQuat(make([]mgl32.Quat, n, m), n)
}
