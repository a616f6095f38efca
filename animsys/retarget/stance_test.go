package retarget

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// A clip's step aside holds still while a foot stands and moves from one
// stance's to the next's smoothly in between: continuous, at rest at the
// stances, its rate the derivative of its value: the central difference
// at h = 1 ms within h times the smoothstep's largest second derivative,
// 6 |B - A| / span^2 (0.027 m/s^2 for 0.71 m over 0.4 s), its own error
// where the curvature jumps at a stance's ends.
func TestStepAt(t *testing.T) {
	ss := []stance{
		{t0: 0.1, t1: 0.5, off: mgl32.Vec3{0.5, 0, 0}},
		{t0: 0.9, t1: 1.3, off: mgl32.Vec3{0, 0, 0.5}},
	}
	for _, tt := range []float64{0, 0.1, 0.3, 0.5, 0.9, 1.1, 1.3, 2} {
		st := stepAt(ss, tt)
		if !st.set || st.vel != (mgl32.Vec3{}) {
			t.Errorf("at %g s (standing, or before or after): %+v, want held at rest", tt, st)
		}
	}
	if st := stepAt(ss, 0.3); st.off != ss[0].off {
		t.Errorf("standing: %v, want %v", st.off, ss[0].off)
	}
	const h = 1e-3
	for tt := 0.5; tt <= 0.9; tt += 0.01 {
		a, b, c := stepAt(ss, tt-h), stepAt(ss, tt), stepAt(ss, tt+h)
		fd := c.off.Sub(a.off).Mul(1 / (2 * h))
		if e := float64(fd.Sub(b.vel).Len()); e > h*6*0.71/(0.4*0.4) {
			t.Errorf("at %.2f s: rate %v, its difference %v", tt, b.vel, fd)
		}
		if d := float64(c.off.Sub(a.off).Len()); d > 2*h*0.71*1.5/0.4+1e-6 || math.IsNaN(d) {
			t.Errorf("at %.2f s: the step moves %g m in %g s", tt, d, 2*h)
		}
	}
}
