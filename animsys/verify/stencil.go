package verify

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// stencil evaluates a case at t-2h, t-h, t, t+h, t+2h.
type stencil struct {
	eval1 func(*animsys.Pose, float32)
	p     animsys.Pose    // at t
	q     [4]animsys.Pose // at t-2h, t-h, t+h, t+2h
	inv   [2]float32      // 1 / (ts[2] - ts[1]), 1 / (ts[3] - ts[0])
	errs  []sampleErr     // per joint and quantity, j*3 + q
}

// sampleErr is the error of a propagated velocity against the central
// difference, the estimated truncation error of that difference, the
// difference's magnitude, and the rounding noise of the propagated
// velocity itself; the error is NaN if either is not finite.
type sampleErr struct{ e, trunc, scale, noise float64 }

func newStencil(n int, eval func(*animsys.Pose, float32)) *stencil {
	s := &stencil{eval1: eval, errs: make([]sampleErr, 3*n)}
	animsys.NewPoses(n, &s.p, &s.q[0], &s.q[1], &s.q[2], &s.q[3])
	return s
}

// eval evaluates the stencil at t with step h, and returns the step
// used: halved, down to h/4, while the estimated truncation error of the
// central difference exceeds half the tolerance at any joint. Where the
// motion is violent (a flailing thumb at 400 rad/s, a knee landing a hop)
// the difference at h = 1 ms is past its O(h^2) regime and its estimate
// of its own error falls short; each halving divides that error by four.
// Below h/4, float32 rounding of world positions (1e-6 m at 12 m) over 2h
// would approach the tolerance itself.
func (s *stencil) eval(t, h float32, tol Tolerance) float32 {
	s.eval1(&s.p, t)
	s.around(t, h)
	for lo := h / 2; h > lo && s.coarse(tol); {
		h /= 2
		s.around(t, h)
	}
	return h
}

// coarse reports whether the estimated truncation error at some joint
// exceeds its tolerance.
func (s *stencil) coarse(tol Tolerance) bool {
	for i, e := range s.errs {
		if q := i % 3; tol.Abs[q] >= 0 && e.trunc > tol.Abs[q]+tol.Rel*e.scale {
			return true
		}
	}
	return false
}

// around evaluates t-2h, t-h, t+h, t+2h and the errors of the velocities
// at t.
func (s *stencil) around(t, h float32) {
	ts := [4]float32{t - 2*h, t - h, t + h, t + 2*h}
	for i := range s.q {
		s.eval1(&s.q[i], ts[i])
	}
	s.inv = [2]float32{1 / (ts[2] - ts[1]), 1 / (ts[3] - ts[0])}
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

// err is the sampleErr of the propagated velocity q of joint j.
func (s *stencil) err(j int, q Quantity) sampleErr {
	ref := diff(&s.q[1], &s.q[2], j, q, s.inv[0])
	ref2 := diff(&s.q[0], &s.q[3], j, q, s.inv[1])
	prop := [3]mgl32.Vec3{s.p.Vel[j], s.p.Ang[j], s.p.Svl[j]}[q]
	if !mathx.Vec3Finite(prop) || !mathx.Vec3Finite(ref) || !mathx.Vec3Finite(ref2) {
		return sampleErr{e: math.NaN()}
	}
	return sampleErr{vecDist(prop, ref), vecDist(ref2, ref) / 3, vecDist(ref, mgl32.Vec3{}), s.noise(j, q, prop)}
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

// vecDist is |a - b| in float64.
func vecDist(a, b mgl32.Vec3) float64 {
	var e float64
	for k := 0; k < 3; k++ {
		d := float64(a[k]) - float64(b[k])
		e += d * d
	}
	return math.Sqrt(e)
}
