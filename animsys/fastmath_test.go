package animsys

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// relErr is |got - want| / max(|want|, floor).
func relErr(got float32, want, floor float64) float64 {
	return math.Abs(float64(got)-want) / math.Max(math.Abs(want), floor)
}

// The float32 kernels must be within a few float32 ulp (6e-8) of float64.
func TestFastTranscendentals(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	worst := map[string]float64{}
	note := func(name string, e float64) { worst[name] = math.Max(worst[name], e) }
	for i := 0; i < 200000; i++ {
		x := float32(math.Exp(r.Float64()*20 - 10)) // 4.5e-5 .. 2.2e4
		note("log32", math.Abs(float64(log32(x))-math.Log(float64(x))))
		y := float32(r.Float64()*40 - 20)
		note("exp32", relErr(exp32(y), math.Exp(float64(y)), 0))
		a := float32(r.Float64()*40 - 20)
		s, c := sincos32(a)
		note("sincos32", math.Max(math.Abs(float64(s)-math.Sin(float64(a))), math.Abs(float64(c)-math.Cos(float64(a)))))
		h := float32(r.Float64() * 4)
		sc, cc := sinc32(h)
		note("sinc32", math.Max(relErr(sc, math.Sin(float64(h))/float64(h), 1e-30), math.Abs(float64(cc)-math.Cos(float64(h)))))
		ang := r.Float64() * math.Pi
		sw, ww := float32(math.Sin(ang)), float32(math.Cos(ang))
		note("atan2OverS", relErr(atan2OverS(sw, ww), math.Atan2(float64(sw), float64(ww))/float64(sw), 0))
	}
	nan := float32(math.NaN())
	isNaN := func(x float32) bool { return math.IsNaN(float64(x)) }
	if !isNaN(log32(nan)) || !isNaN(log32(-1)) || !math.IsInf(float64(log32(0)), -1) {
		t.Fatal("log32 must give NaN for NaN and negatives, -Inf for 0")
	}
	if !isNaN(exp32(nan)) {
		t.Fatal("exp32(NaN) must be NaN")
	}
	if s, c := sincos32(1e6); math.Abs(float64(s)-math.Sin(1e6)) > 1e-6 || math.Abs(float64(c)-math.Cos(1e6)) > 1e-6 {
		t.Fatal("sincos32 must stay accurate for large arguments")
	}
	if log32(1) != 0 || exp32(0) != 1 {
		t.Fatalf("log32(1) = %v, exp32(0) = %v; want exactly 0 and 1", log32(1), exp32(0))
	}
	limits := map[string]float64{"log32": 2e-6, "exp32": 3e-7, "sincos32": 3e-7, "sinc32": 3e-7, "atan2OverS": 3e-7}
	for name, e := range worst {
		t.Logf("%-10s worst error %.2g", name, e)
		if e > limits[name] {
			t.Errorf("%s error %.2g > %.2g", name, e, limits[name])
		}
	}
}

func randVec(r *rand.Rand, s float32) mgl32.Vec3 {
	return mgl32.Vec3{s * (2*r.Float32() - 1), s * (2*r.Float32() - 1), s * (2*r.Float32() - 1)}
}

func near3(a, b mgl32.Vec3, tol float32) bool { return a.Sub(b).Len() <= tol }

func nearQ(a, b mgl32.Quat, tol float32) bool {
	return near3(a.V, b.V, tol) && a.W-b.W <= tol && b.W-a.W <= tol
}

// The register kernels compute the same maps as mathx (float64 trig).
func TestFastQuatMatchesMathx(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		scale := []float32{1e-4, 0.05, 1, 3}[i%4]
		v, dv := randVec(r, scale), randVec(r, 3)
		a := mathx.QuatFromScaledAngleAxis(randVec(r, 3))
		b := mathx.QuatFromScaledAngleAxis(randVec(r, 3))
		if got, want := qmul(ldq(a), ldq(b)).quat(), mathx.QuatMul(a, b); !nearQ(got, want, 1e-6) {
			t.Fatalf("qmul %v want %v", got, want)
		}
		if got, want := qrot(ldq(a), ld(dv)).vec(), mathx.QuatMulVec3(a, dv); !near3(got, want, 1e-5) {
			t.Fatalf("qrot %v want %v", got, want)
		}
		if got, want := qexp(ld(v)).quat(), mathx.QuatFromScaledAngleAxis(v); !nearQ(got, want, 1e-6) {
			t.Fatalf("qexp(%v) %v want %v", v, got, want)
		}
		q := mathx.QuatAbs(mathx.QuatFromScaledAngleAxis(v))
		if got, want := qlog(ldq(q)).vec(), mathx.QuatToScaledAngleAxis(q); !near3(got, want, 2e-6*(1+want.Len())) {
			t.Fatalf("qlog %v want %v", got, want)
		}
		qq, ang := qexpVel(ld(v), ld(dv))
		if want := mathx.QuatFromScaledAngleAxisDx(v, dv); !near3(ang.vec(), want, 2e-5) || !nearQ(qq.quat(), mathx.QuatFromScaledAngleAxis(v), 1e-6) {
			t.Fatalf("qexpVel(%v, %v) ang %v want %v", v, dv, ang, want)
		}
		// Up to pi: the rate of the shortest log (qabs'd quaternions).
		lv := qlog(ldq(q))
		if got, want := qlogRate(ldq(q), lv, ld(dv)).vec(), mathx.QuatToScaledAngleAxisDx(lv.vec(), dv); !near3(got, want, 2e-5*(1+want.Len())) {
			t.Fatalf("qlogRate(%v, %v) %v want %v", lv, dv, got, want)
		}
	}
}

// logNearOne, FiniteDiff's inline log of a tick's scale ratio, is log32
// bit for bit on every float32 of its range (sqrt2/2, sqrt2].
func TestLogNearOneIsLog32(t *testing.T) {
	lo, hi := math.Float32bits(sqrt2/2), math.Float32bits(sqrt2)
	for b := lo + 1; b <= hi; b++ {
		x := math.Float32frombits(b)
		if !nearOne(x) {
			t.Fatalf("nearOne(%v) false inside the range", x)
		}
		if got, want := logNearOne(x), log32(x); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("logNearOne(%v) = %v, log32 %v", x, got, want)
		}
	}
	for _, x := range []float32{sqrt2 / 2, math.Nextafter32(sqrt2, 2), 0, -1} {
		if nearOne(x) {
			t.Errorf("nearOne(%v) true outside the range", x)
		}
	}
}

// qinvrotS, BK's rotation by the inverse parent rotation, agrees with
// qrot by the conjugate within float32 rounding.
func TestQinvrotMatchesConjugate(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 1000; i++ {
		q := qnormRand(r)
		v := v3{r.Float32()*2 - 1, r.Float32()*2 - 1, r.Float32()*2 - 1}
		x, y, z := qinvrotS(q.w, q.x, q.y, q.z, v.x, v.y, v.z)
		want := qrot(q4{q.w, -q.x, -q.y, -q.z}, v)
		if d := want.sub(v3{x, y, z}); d.dot(d) > 1e-12 {
			t.Fatalf("qinvrotS(%v, %v) = %v %v %v, want %v", q, v, x, y, z, want)
		}
	}
}

func qnormRand(r *rand.Rand) q4 {
	q := q4{r.Float32()*2 - 1, r.Float32()*2 - 1, r.Float32()*2 - 1, r.Float32()*2 - 1}
	k := 1 / sqrt32(q.w*q.w+q.x*q.x+q.y*q.y+q.z*q.z)
	return q4{q.w * k, q.x * k, q.y * k, q.z * k}
}
