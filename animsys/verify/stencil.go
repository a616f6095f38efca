package verify

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// stencil evaluates a case at t-2h, t-h, t-h/2, t, t+h/2, t+h, t+2h.
type stencil struct {
	eval1 func(*animsys.Pose, float32)
	p     animsys.Pose    // at t
	q     [4]animsys.Pose // at t-2h, t-h, t+h, t+2h
	half  [2]animsys.Pose // at t-h/2, t+h/2
	inv   [3]float32      // 1 / (ts[2] - ts[1]), 1 / (ts[3] - ts[0]), 1 / (t+h/2 - (t-h/2))
	errs  []sampleErr     // per joint and quantity, j*3 + q
}

// sampleErr is the error of a propagated velocity against the reference
// (the Richardson extrapolation of central differences), the estimated
// error of that reference, the velocity's magnitude, and the rounding noise
// of the propagated velocity itself; the error is NaN if any is not finite.
type sampleErr struct{ e, trunc, scale, noise float64 }

func newStencil(n int, eval func(*animsys.Pose, float32)) *stencil {
	s := &stencil{eval1: eval, errs: make([]sampleErr, 3*n)}
	animsys.NewPoses(n, &s.p, &s.q[0], &s.q[1], &s.q[2], &s.q[3], &s.half[0], &s.half[1])
	return s
}

// eval evaluates the stencil at t with step h (its errors in errs) and
// returns h. The reference is O(h^4) (err), so a violent joint (a
// flailing thumb, a knee landing a hop) needs no smaller step, whose
// float32 time rounding would only add noise (1e-3 relative at 10 s and
// 1 ms).
func (s *stencil) eval(t, h float32) float32 {
	s.eval1(&s.p, t)
	s.around(t, h)
	return h
}

// around evaluates the stencil's other times and the errors of the
// velocities at t.
func (s *stencil) around(t, h float32) {
	ts := [4]float32{t - 2*h, t - h, t + h, t + 2*h}
	for i := range s.q {
		s.eval1(&s.q[i], ts[i])
	}
	lo, hi := t-h/2, t+h/2
	s.eval1(&s.half[0], lo)
	s.eval1(&s.half[1], hi)
	s.inv = [3]float32{1 / (ts[2] - ts[1]), 1 / (ts[3] - ts[0]), 1 / (hi - lo)}
	for j := range s.p.Pos {
		for q := Quantity(0); q < 3; q++ {
			s.errs[3*j+int(q)] = s.err(j, q)
		}
	}
}

// diff is the finite-difference velocity of quantity q of joint j from
// pose a to pose b, times inv.
func diff(a, b *animsys.Pose, j int, q Quantity, inv float32) mgl32.Vec3 {
	switch q {
	case Linear:
		return b.Pos[j].Sub(a.Pos[j]).Mul(inv)
	case Angular:
		return mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(b.Rot[j], a.Rot[j]))).Mul(inv)
	}
	if b.Scl[j] == a.Scl[j] {
		return mgl32.Vec3{} // most joints: no logs
	}
	return mathx.Vec3Log(mathx.Vec3Div(b.Scl[j], a.Scl[j])).Mul(inv)
}

// err is the sampleErr of the propagated velocity q of joint j against
// the Richardson extrapolation of the central differences D over h/2 and
// h, R(h/2) = (4 D(h/2) - D(h)) / 3: their h^2 error terms cancel,
// leaving an O(h^4) reference. On fast joints of high-rate captures
// (fingers at 125 fps, a thumb about to flip) the plain D(h)'s own h^2
// error used up most of the tolerance. The reference's error is bounded
// by |R(h) - R(h/2)| (R(h) from D(h) and D(2h)): 15/16 of R(h)'s, sixteen
// times R(h/2)'s for a smooth curve.
func (s *stencil) err(j int, q Quantity) sampleErr {
	d := diff(&s.q[1], &s.q[2], j, q, s.inv[0])
	d2 := diff(&s.q[0], &s.q[3], j, q, s.inv[1])
	dh := diff(&s.half[0], &s.half[1], j, q, s.inv[2])
	prop := [3]mgl32.Vec3{s.p.Vel[j], s.p.Ang[j], s.p.Svl[j]}[q]
	if !mathx.Vec3Finite(prop) || !mathx.Vec3Finite(d) || !mathx.Vec3Finite(d2) || !mathx.Vec3Finite(dh) {
		return sampleErr{e: math.NaN()}
	}
	ref := richardson(dh, d)
	return sampleErr{e: vecDist(prop, ref), trunc: vecDist(ref, richardson(d, d2)), scale: vecDist(d, mgl32.Vec3{}), noise: s.noise(j, q, prop)}
}

// richardson is (4 d - d2) / 3 in float64, for the central differences d
// over h and d2 over 2h.
func richardson(d, d2 mgl32.Vec3) mgl32.Vec3 {
	var r mgl32.Vec3
	for k := range r {
		r[k] = float32((4*float64(d[k]) - float64(d2[k])) / 3)
	}
	return r
}

// noise estimates the float32 rounding noise of the propagated velocity v
// of joint j (quantity q) from the velocities the stencil's five poses
// propagated: their fourth difference v(-2) - 4v(-1) + 6v(0) - 4v(1) +
// v(2) is h^4 times the fourth derivative (nothing, at h = 1 ms) plus
// sqrt(70) times the noise of one sample. It returns three times that
// noise. It matters for an operation whose velocity is itself a finite
// difference over a short step (TwoBoneIK at 1 ms: ~20 float32 roundings
// of rotations over 1 ms, ~2e-3 rad/s); for exact operations it is ~0.
func (s *stencil) noise(j int, q Quantity, v mgl32.Vec3) float64 {
	at := func(p *animsys.Pose) mgl32.Vec3 { return [3]mgl32.Vec3{p.Vel[j], p.Ang[j], p.Svl[j]}[q] }
	var d4 float64
	for k := 0; k < 3; k++ {
		x := float64(at(&s.q[0])[k]) - 4*float64(at(&s.q[1])[k]) + 6*float64(v[k]) - 4*float64(at(&s.q[2])[k]) + float64(at(&s.q[3])[k])
		d4 += x * x
	}
	return 3 * math.Sqrt(d4/70)
}

// round bounds the error the float32 rounding of the stencil's poses puts
// in the reference velocity of quantity q of joint j. Each evaluated value
// is off by rounding noise of some sigma; the reference (4 D(h/2) - D(h))
// / 3, D the central differences over h and 2h, weighs it to a standard
// deviation of sqrt(32.5)/3 sigma / h = 1.9 sigma / h per component, and
// three of those are the bound. sigma is measured as noise measures the
// velocities' (the fourth difference of the values at t-2h .. t+2h is
// sqrt(70) sigma; the curve's own h^4 term is nothing at these steps), and
// is at least the rounding of depth values of the magnitude mag the value
// was computed through, adding up (sqrt(depth) ulp / sqrt(12); for
// positions the world positions down the joint's chain, worldMags, depth
// its depth in the hierarchy; 1 for rotations and log scales), since one
// fourth difference can come out small by chance. Rotations and scales
// are measured as their offsets from the pose at t (scaled angle-axis, log
// ratio). A position 700 m out (a long capture's walk) rounds by 6e-5 m:
// 0.1 m/s over 1 ms, and a head looking at a target from there turns by
// as much over its distance; the poses of a 10,000 fps clip, differenced
// over 12.5 us, round 80 times as much as over 1 ms.
func (s *stencil) round(j int, q Quantity, mag float32, depth int) float64 {
	var y [5]mgl32.Vec3
	for i, p := range [5]*animsys.Pose{&s.q[0], &s.q[1], &s.p, &s.q[2], &s.q[3]} {
		switch q {
		case Linear:
			y[i] = p.Pos[j]
		case Angular:
			y[i] = mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(p.Rot[j], s.p.Rot[j])))
		default:
			if p.Scl[j] != s.p.Scl[j] {
				y[i] = mathx.Vec3Log(mathx.Vec3Div(p.Scl[j], s.p.Scl[j]))
			}
		}
	}
	var d4 float64
	for k := 0; k < 3; k++ {
		x := float64(y[0][k]) - 4*float64(y[1][k]) + 6*float64(y[2][k]) - 4*float64(y[3][k]) + float64(y[4][k])
		d4 += x * x
	}
	sigma := max(math.Sqrt(d4/70), ulp32(mag)*math.Sqrt(float64(depth)/12))
	h := 1 / float64(s.inv[0]) / 2 // inv[0] = 1 / 2h
	return 3 * 1.9 * sigma / h
}

// vecDist is |a - b| in float64.
func vecDist(a, b mgl32.Vec3) float64 {
	var e float64
	for k := 0; k < 3; k++ {
		d := float64(a[k]) - float64(b[k])
		e += d * d
	}
	return math.Sqrt(e)
}
