package mathx

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Every fast form against its plain form (or float64): bit for bit where
// the operations are the same in the same order, else within the bound
// each check states. The S forms (QuatMulS, QuatMulInvS, QuatInvMulS,
// QuatMulVec3S) are checked through the Q4 methods written on them;
// QuatInvMulVec3S and RodriguesS directly.

// relErr is |got - want| / max(|want|, floor).
func relErr(got float32, want, floor float64) float64 {
	return math.Abs(float64(got)-want) / math.Max(math.Abs(want), floor)
}

func near3(a, b mgl32.Vec3, tol float32) bool { return a.Sub(b).Len() <= tol }

func nearQ(a, b mgl32.Quat, tol float32) bool {
	return near3(a.V, b.V, tol) && a.W-b.W <= tol && b.W-a.W <= tol
}

func same3(a, b mgl32.Vec3) bool {
	return math.Float32bits(a[0]) == math.Float32bits(b[0]) && math.Float32bits(a[1]) == math.Float32bits(b[1]) &&
		math.Float32bits(a[2]) == math.Float32bits(b[2])
}

func sameQ(a, b mgl32.Quat) bool {
	return math.Float32bits(a.W) == math.Float32bits(b.W) && same3(a.V, b.V)
}

// The float32 transcendentals are within a few float32 ulp (6e-8) of
// float64.
func TestFastTranscendentals(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	worst := map[string]float64{}
	note := func(name string, e float64) { worst[name] = math.Max(worst[name], e) }
	for i := 0; i < 200000; i++ {
		x := float32(math.Exp(r.Float64()*20 - 10)) // 4.5e-5 .. 2.2e4
		note("Log32", math.Abs(float64(Log32(x))-math.Log(float64(x))))
		y := float32(r.Float64()*40 - 20)
		note("Exp32", relErr(Exp32(y), math.Exp(float64(y)), 0))
		a := float32(r.Float64()*40 - 20)
		s, c := Sincos32(a)
		note("Sincos32", math.Max(math.Abs(float64(s)-math.Sin(float64(a))), math.Abs(float64(c)-math.Cos(float64(a)))))
		h := float32(r.Float64() * 4)
		sc, cc := sinc32(h)
		note("sinc32", math.Max(relErr(sc, math.Sin(float64(h))/float64(h), 1e-30), math.Abs(float64(cc)-math.Cos(float64(h)))))
		ang := r.Float64() * math.Pi
		sw, ww := float32(math.Sin(ang)), float32(math.Cos(ang))
		note("atan2OverS", relErr(atan2OverS(sw, ww), math.Atan2(float64(sw), float64(ww))/float64(sw), 0))
	}
	nan := float32(math.NaN())
	isNaN := func(x float32) bool { return math.IsNaN(float64(x)) }
	if !isNaN(Log32(nan)) || !isNaN(Log32(-1)) || !math.IsInf(float64(Log32(0)), -1) {
		t.Fatal("Log32 must give NaN for NaN and negatives, -Inf for 0")
	}
	if !isNaN(Exp32(nan)) {
		t.Fatal("Exp32(NaN) must be NaN")
	}
	if s, c := Sincos32(1e6); math.Abs(float64(s)-math.Sin(1e6)) > 1e-6 || math.Abs(float64(c)-math.Cos(1e6)) > 1e-6 {
		t.Fatal("Sincos32 must stay accurate for large arguments")
	}
	if Log32(1) != 0 || Exp32(0) != 1 {
		t.Fatalf("Log32(1) = %v, Exp32(0) = %v; want exactly 0 and 1", Log32(1), Exp32(0))
	}
	limits := map[string]float64{"Log32": 2e-6, "Exp32": 3e-7, "Sincos32": 3e-7, "sinc32": 3e-7, "atan2OverS": 3e-7}
	for name, e := range worst {
		t.Logf("%-10s worst error %.2g", name, e)
		if e > limits[name] {
			t.Errorf("%s error %.2g > %.2g", name, e, limits[name])
		}
	}
}

// V3's arithmetic is mgl32's (and Vec3Mul, Vec3Div, Vec3Lerp's) bit for
// bit; loads and stores round-trip.
func TestFastVec3MatchesPlain(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for i := 0; i < 10000; i++ {
		a, b, s := randVec(r, 3), randVec(r, 3), 2*r.Float32()-1
		fa, fb := LoadV3(&a), LoadV3(&b)
		q := QuatFromScaledAngleAxis(randVec(r, 3))
		if fa.Vec3() != a || LoadQ4(&q).Quat() != q {
			t.Fatalf("load and store of %v, %v", a, q)
		}
		checks := []struct {
			name      string
			got, want mgl32.Vec3
		}{
			{"Add", fa.Add(fb).Vec3(), a.Add(b)},
			{"Sub", fa.Sub(fb).Vec3(), a.Sub(b)},
			{"Scale", fa.Scale(s).Vec3(), a.Mul(s)},
			{"Mul", fa.Mul(fb).Vec3(), Vec3Mul(a, b)},
			{"Div", fa.Div(fb).Vec3(), Vec3Div(a, b)},
			{"Cross", fa.Cross(fb).Vec3(), a.Cross(b)},
			{"Lerp", fa.Lerp(fb, s).Vec3(), Vec3Lerp(a, b, s)},
		}
		for _, c := range checks {
			if !same3(c.got, c.want) {
				t.Fatalf("%s(%v, %v) = %v, plain %v", c.name, a, b, c.got, c.want)
			}
		}
		if got, want := fa.Dot(fb), a.Dot(b); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("Dot(%v, %v) = %v, plain %v", a, b, got, want)
		}
	}
}

// Q4's products, rotations and maps agree with the plain forms: MulVec3,
// QuatInvMulVec3S and Abs bit for bit (the same operations in the same
// order); the products within 1e-6, as mgl32's Quat.Mul sums its terms
// in another order; the matrix within 1e-5 of |v| = 3, nine products a
// row instead of the quaternion's nested ones; the maps within the
// tolerances below, float32 polynomials against float64 trig.
func TestFastQuatMatchesPlain(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		scale := []float32{1e-4, 0.05, 1, 3}[i%4]
		v, dv := randVec(r, scale), randVec(r, 3)
		a := QuatFromScaledAngleAxis(randVec(r, 3))
		b := QuatFromScaledAngleAxis(randVec(r, 3))
		fa, fb, fv, fdv := LoadQ4(&a), LoadQ4(&b), LoadV3(&v), LoadV3(&dv)
		if got, want := fa.Mul(fb).Quat(), QuatMul(a, b); !nearQ(got, want, 1e-6) {
			t.Fatalf("Mul %v want %v", got, want)
		}
		if got, want := fa.MulInv(fb).Quat(), QuatMulInv(a, b); !nearQ(got, want, 1e-6) {
			t.Fatalf("MulInv %v want %v", got, want)
		}
		if got, want := fa.InvMul(fb).Quat(), QuatInvMul(a, b); !nearQ(got, want, 1e-6) {
			t.Fatalf("InvMul %v want %v", got, want)
		}
		if neg := a.Scale(-1); !sameQ(LoadQ4(&neg).Abs().Quat(), QuatAbs(neg)) || !sameQ(fa.Abs().Quat(), QuatAbs(a)) {
			t.Fatalf("Abs of %v", a)
		}
		if got, want := fa.MulVec3(fdv).Vec3(), QuatMulVec3(a, dv); !same3(got, want) {
			t.Fatalf("MulVec3 %v want %v", got, want)
		}
		var inv V3
		inv.X, inv.Y, inv.Z = QuatInvMulVec3S(fa.W, fa.X, fa.Y, fa.Z, fdv.X, fdv.Y, fdv.Z)
		if want := QuatInvMulVec3(a, dv); !same3(inv.Vec3(), want) {
			t.Fatalf("QuatInvMulVec3S %v want %v", inv, want)
		}
		m := fa.Matrix()
		if got, want := m.Mul(fdv).Vec3(), QuatMulVec3(a, dv); !near3(got, want, 1e-5) {
			t.Fatalf("Matrix().Mul %v want %v", got, want)
		}
		if got, want := m.MulT(fdv).Vec3(), QuatInvMulVec3(a, dv); !near3(got, want, 1e-5) {
			t.Fatalf("Matrix().MulT %v want %v", got, want)
		}
		if got, want := Q4FromScaledAngleAxis(fv).Quat(), QuatFromScaledAngleAxis(v); !nearQ(got, want, 1e-6) {
			t.Fatalf("Q4FromScaledAngleAxis(%v) %v want %v", v, got, want)
		}
		q := QuatAbs(QuatFromScaledAngleAxis(v))
		fq := LoadQ4(&q)
		lv := fq.ToScaledAngleAxis()
		if want := QuatToScaledAngleAxis(q); !near3(lv.Vec3(), want, 2e-6*(1+want.Len())) {
			t.Fatalf("ToScaledAngleAxis %v want %v", lv, want)
		}
		qq, ang := Q4FromScaledAngleAxisDx(fv, fdv)
		if want := QuatFromScaledAngleAxisDx(v, dv); !near3(ang.Vec3(), want, 2e-5) || !nearQ(qq.Quat(), QuatFromScaledAngleAxis(v), 1e-6) {
			t.Fatalf("Q4FromScaledAngleAxisDx(%v, %v) ang %v want %v", v, dv, ang, want)
		}
		// Up to pi: the rate of the shortest log (Abs'd quaternions).
		if got, want := Q4ToScaledAngleAxisDx(fq, lv, fdv).Vec3(), QuatToScaledAngleAxisDx(lv.Vec3(), dv); !near3(got, want, 2e-5*(1+want.Len())) {
			t.Fatalf("Q4ToScaledAngleAxisDx(%v, %v) %v want %v", lv, dv, got, want)
		}
	}
}

// LogFactorShort is the factor of ToScaledAngleAxis up to 45 degrees, the
// same bits for q and -q; LogFactor is within 3e-7 of float64 for any
// rotation.
func TestLogFactors(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 20000; i++ {
		v := randVec(r, 3)
		q := QuatFromScaledAngleAxis(v)
		fq := LoadQ4(&q)
		k, ok := fq.LogFactorShort()
		kn, okn := Q4{-fq.W, -fq.X, -fq.Y, -fq.Z}.LogFactorShort()
		a := fq.Abs()
		s := math.Sqrt(float64(a.X*a.X + a.Y*a.Y + a.Z*a.Z))
		wantOK := s < math.Tan(math.Pi/8)*float64(a.W)
		if ok != okn || ok != wantOK && math.Abs(s-math.Tan(math.Pi/8)*float64(a.W)) > 1e-6 {
			t.Fatalf("LogFactorShort(%v) ok %v, for -q %v; want %v", q, ok, okn, wantOK)
		}
		if ok {
			got := V3{fq.X * k, fq.Y * k, fq.Z * k}
			if gotn := (V3{-fq.X * kn, -fq.Y * kn, -fq.Z * kn}); got != gotn || got != a.ToScaledAngleAxis() {
				t.Fatalf("LogFactorShort(%v): %v, for -q %v, ToScaledAngleAxis %v", q, got, gotn, a.ToScaledAngleAxis())
			}
		}
		if s > 0 {
			if e := relErr(a.LogFactor(), 2*math.Atan2(s, float64(a.W))/s, 0); e > 3e-7 {
				t.Fatalf("LogFactor(%v) error %.2g", a, e)
			}
		}
	}
}

// ExpSmall (below a^2 = 1) and ExpLarge (above) give sinc(h), cos(h) and
// C1 = (1 - cos a)/a^2 within 2e-7 of float64, and C2 = (a - sin a)/a^3
// times a^2 (C2 cancels below a = 1, but only ever multiplies a term of
// size a^2: see ExpSmall) within 2e-7; Quat is Q4FromScaledAngleAxis bit
// for bit. LogRateSeries is (1 - h cot h)/(4 h^2) within 2e-7 relative
// for h^2 < 1/4.
func TestExpCoeffs(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	for i := 0; i < 20000; i++ {
		v := randVec(r, 4)
		fv := LoadV3(&v)
		a2 := fv.Dot(fv)
		k := ExpSmall(a2)
		if a2 >= 1 {
			k = ExpLarge(a2)
		}
		a := math.Sqrt(float64(a2))
		h := a / 2
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"Sinc", float64(k.Sinc), math.Sin(h) / h},
			{"Cos", float64(k.Cos), math.Cos(h)},
			{"C1", float64(k.C1()), (1 - math.Cos(a)) / (a * a)},
			{"C2 a^2", float64(k.C2) * a * a, (a - math.Sin(a)) / a},
		} {
			if e := math.Abs(c.got - c.want); e > 2e-7 {
				t.Fatalf("a %v: %s = %v, want %v (error %.2g)", a, c.name, c.got, c.want, e)
			}
		}
		if a2 <= (math.Pi/2)*(math.Pi/2) && k.Quat(fv) != Q4FromScaledAngleAxis(fv) {
			t.Fatalf("Quat(%v) = %v, Q4FromScaledAngleAxis %v", v, k.Quat(fv), Q4FromScaledAngleAxis(fv))
		}
		h2 := float32(r.Float64() * 0.25)
		hh := math.Sqrt(float64(h2))
		if hh > 1e-3 {
			want := (1 - hh/math.Tan(hh)) / (4 * hh * hh)
			if e := relErr(LogRateSeries(h2), want, 0); e > 2e-7 {
				t.Fatalf("LogRateSeries(%v) error %.2g", h2, e)
			}
		}
	}
}

// RodriguesS is x + a (v x x) + b (v x (v x x)) as V3's Cross writes it,
// bit for bit.
func TestRodriguesS(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	for i := 0; i < 1000; i++ {
		pv, px := randVec(r, 2), randVec(r, 2)
		v, x := LoadV3(&pv), LoadV3(&px)
		a, b := 2*r.Float32()-1, 2*r.Float32()-1
		var got V3
		got.X, got.Y, got.Z = RodriguesS(a, b, v.X, v.Y, v.Z, x.X, x.Y, x.Z)
		c := v.Cross(x)
		if want := x.Add(c.Scale(a)).Add(v.Cross(c).Scale(b)); got != want {
			t.Fatalf("RodriguesS(%v, %v, %v, %v) = %v, want %v", a, b, v, x, got, want)
		}
	}
}

// Log and Exp per axis are Vec3Log and Vec3Exp within Log32's and Exp32's
// bounds, and exact at the unit scale.
func TestFastVec3LogExp(t *testing.T) {
	r := rand.New(rand.NewSource(10))
	if (V3{1, 1, 1}).Log() != (V3{}) || (V3{}).Exp() != (V3{1, 1, 1}) {
		t.Fatal("Log of the unit scale must be zero, Exp of zero the unit scale")
	}
	for i := 0; i < 10000; i++ {
		v := Vec3Exp(randVec(r, 2))
		if i%2 == 0 {
			v[1], v[2] = v[0], v[0] // uniform: one Log32
		}
		fv := LoadV3(&v)
		if got, want := fv.Log().Vec3(), Vec3Log(v); !near3(got, want, 4e-6) || fv.Log() != fv.LogEach() {
			t.Fatalf("Log(%v) = %v, LogEach %v, plain %v", v, got, fv.LogEach(), want)
		}
		l := randVec(r, 2)
		fl := LoadV3(&l)
		if got, want := fl.Exp().Vec3(), Vec3Exp(l); !near3(got, want, 3e-7*want.Len()) {
			t.Fatalf("Exp(%v) = %v, plain %v", l, got, want)
		}
	}
}

// LogNearOne, FiniteDiff's inline log of a tick's scale ratio, is Log32
// bit for bit on every float32 of its range (sqrt2/2, sqrt2].
func TestLogNearOneIsLog32(t *testing.T) {
	lo, hi := math.Float32bits(sqrt2/2), math.Float32bits(sqrt2)
	for b := lo + 1; b <= hi; b++ {
		x := math.Float32frombits(b)
		if !NearOne(x) {
			t.Fatalf("NearOne(%v) false inside the range", x)
		}
		if got, want := LogNearOne(x), Log32(x); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("LogNearOne(%v) = %v, Log32 %v", x, got, want)
		}
	}
	for _, x := range []float32{sqrt2 / 2, math.Nextafter32(sqrt2, 2), 0, -1} {
		if NearOne(x) {
			t.Errorf("NearOne(%v) true outside the range", x)
		}
	}
}

// V3s and Q4s read and write the vectors and rotations they view, in
// place, component for component.
func TestViews(t *testing.T) {
	vs := []mgl32.Vec3{{1, 2, 3}, {4, 5, 6}}
	qs := []mgl32.Quat{{W: 1, V: mgl32.Vec3{2, 3, 4}}, {W: 5, V: mgl32.Vec3{6, 7, 8}}}
	v, q := V3s(vs), Q4s(qs)
	if len(v) != 2 || len(q) != 2 || v[1] != (V3{4, 5, 6}) || q[1] != (Q4{5, 6, 7, 8}) {
		t.Fatalf("views read %v %v from %v %v", v, q, vs, qs)
	}
	v[0], q[0] = V3{7, 8, 9}, Q4{9, 10, 11, 12}
	if vs[0] != (mgl32.Vec3{7, 8, 9}) || qs[0] != (mgl32.Quat{W: 9, V: mgl32.Vec3{10, 11, 12}}) {
		t.Fatalf("views wrote %v %v", vs[0], qs[0])
	}
	if len(V3s(nil)) != 0 || len(Q4s(nil)) != 0 {
		t.Fatal("empty view not empty")
	}
}

// V3.Exp takes Exp32's result on every axis, to the bit: expEach's
// inline polynomial is Exp32's own for |x| < 0.34, and the boundaries,
// zeros of either sign, subnormals, NaN and infinities go to Exp32.
func TestExpEachBitsOfExp32(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	edges := []float32{0, float32(math.Copysign(0, -1)), 0.34, -0.34, math.Nextafter32(0.34, 0), math.Nextafter32(-0.34, 0),
		1e-40, -1e-40, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 100, -100, 0.2, -0.1}
	pick := func() float32 {
		if r.Intn(3) == 0 {
			return edges[r.Intn(len(edges))]
		}
		return (r.Float32()*2 - 1) * []float32{0.4, 3}[r.Intn(2)]
	}
	bits := func(x float32) uint32 { return math.Float32bits(x) }
	for i := 0; i < 20000; i++ {
		v := V3{pick(), pick(), pick()}
		if i%4 == 0 {
			v.Y, v.Z = v.X, v.X // uniform
		}
		got := v.Exp()
		want := V3{Exp32(v.X), Exp32(v.Y), Exp32(v.Z)}
		if v == (V3{}) {
			want = V3{1, 1, 1}
		}
		if bits(got.X) != bits(want.X) || bits(got.Y) != bits(want.Y) || bits(got.Z) != bits(want.Z) {
			t.Fatalf("Exp(%v) = %v, Exp32 per axis %v", v, got, want)
		}
	}
}
