package spring_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// A damper halves its distance to the goal every half-life, at any tick rate.
func ExampleDamperExact() {
	x := float32(0)
	for i := 0; i < 30; i++ { // 0.5 s at 60 Hz
		x = spring.DamperExact(x, 10, 0.5, 1.0/60)
	}
	fmt.Printf("after one half-life: %.4f\n", x)
	fmt.Printf("in one step:         %.4f\n", spring.DamperExact(0, 10, 0.5, 0.5))
	// Output:
	// after one half-life: 5.0000
	// in one step:         5.0000
}

// The general spring-damper with a goal velocity, ticked at 60 Hz.
func ExampleSpringDamperExact() {
	x, v := float32(0), float32(0)
	stiffness := spring.FrequencyToStiffness(2) // 2 Hz
	damping := spring.HalflifeToDamping(0.2)
	for i := 0; i < 120; i++ {
		x, v = spring.SpringDamperExact(x, v, 1, 0, stiffness, damping, 1.0/60)
	}
	fmt.Printf("x %.4f v %.4f\n", x, v)
	// Output:
	// x 1.0000 v 0.0000
}

// An inertializer decays the offset between two animations with the critical
// spring; the weights apply to any offset and its velocity.
func ExampleCriticalDecayWeights() {
	x0, v0 := float32(0.3), float32(-2) // offset (m) and its velocity (m/s)
	w0, w1, w2, w3 := spring.CriticalDecayWeights(0.1, 0.05)
	fmt.Printf("offset %.4f velocity %.4f\n", w0*x0+w1*v0, w2*x0+w3*v0)
	x, v := spring.DecaySpringDamperExact(x0, v0, 0.1, 0.05)
	fmt.Printf("offset %.4f velocity %.4f\n", x, v)
	// Output:
	// offset 0.2040 velocity -1.7482
	// offset 0.2040 velocity -1.7482
}

// The article's gains at 60 Hz are a spring with stiffness 36 and damping
// 12.48.
func ExampleTrackingSpringExactStiffnessDamping() {
	s, d := spring.TrackingSpringExactStiffnessDamping(0.01, 0.2, 1.0/60)
	fmt.Printf("stiffness %.2f damping %.2f over-damped %v\n", s, d, s < d*d/4)
	// Output:
	// stiffness 36.00 damping 12.48 over-damped true
}

// A stream with a known cut at sample 3: the tracker ignores the jump in its
// velocity and acceleration targets and glides to the new level.
func ExampleCutTracker() {
	f := &spring.ExactTracker{XGain: 0.01, VGain: 0.2, AGain: 1, GainDt: 1.0 / 60}
	var ct spring.CutTracker
	samples := []float32{0, 0, 0, 1, 1, 1}
	for i, s := range samples {
		ct.Update(f, s, i == 3, 1.0/60)
		fmt.Printf("sample %.0f -> x %.4f v %.4f\n", s, f.X, f.V)
	}
	// Output:
	// sample 0 -> x 0.0000 v 0.0000
	// sample 0 -> x 0.0000 v 0.0000
	// sample 0 -> x 0.0000 v 0.0000
	// sample 1 -> x 0.0050 v 0.5960
	// sample 1 -> x 0.0186 v 1.0196
	// sample 1 -> x 0.0385 v 1.3545
}

// A rotation springs to its goal; its velocity is an angular velocity in
// rad/s, in the frame the rotations are expressed in.
func ExampleQuatSpringDamperExact() {
	goal := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 1, 0}) // 1 rad about +Y
	x, w := mathx.QuatIdentity(), mgl32.Vec3{}
	for i := 0; i < 6; i++ { // 0.1 s
		x, w = spring.QuatSpringDamperExact(x, w, goal, 0.1, 1.0/60)
	}
	angle := mathx.QuatToScaledAngleAxis(x)
	fmt.Printf("angle %.4f rad, angular velocity %.4f rad/s about +Y\n", angle.Y(), w.Y())
	// Output:
	// angle 0.4034 rad, angular velocity 4.8045 rad/s about +Y
}

// A scale spring works in doublings: its velocity is a base-2 scalar
// velocity.
func ExampleScaleSpringDamperExact() {
	s, v := mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}
	s, v = spring.ScaleSpringDamperExact(s, v, mgl32.Vec3{4, 4, 4}, 0.2, 0.1)
	fmt.Printf("scale %.4f, %.4f doublings/s\n", s.X(), v.X())
	// Output:
	// scale 1.2370, 4.8045 doublings/s
}

// Scalar velocity: 0.1 to 10 in 3 s is log2(100)/3 doublings per second.
func ExampleScaleIntegrateVelocity() {
	v := spring.ScaleDifferentiateVelocity(10, 0.1, 3)
	fmt.Printf("%.4f doublings/s, doublelife %.4f s\n", v, spring.ScalarVelocityToDoublelife(v))
	fmt.Printf("halfway (1.5 s): %.4f\n", spring.ScaleIntegrateVelocity(v, 0.1, 1.5))
	// Output:
	// 2.2146 doublings/s, doublelife 0.4515 s
	// halfway (1.5 s): 1.0000
}

// Eerp interpolates scales geometrically: halfway from 0.1 to 10 is 1.
func ExampleEerpLog() {
	fmt.Printf("%.4f %.4f %.4f\n", spring.EerpPow(0.1, 10, 0.5), spring.EerpRatio(0.1, 10, 0.5), spring.EerpLog(0.1, 10, 0.5))
	// Output:
	// 1.0000 1.0000 1.0000
}

// The cost of a transition is the area the inertialized offset sweeps. A
// positive offset with the right negative velocity is cheap; the
// approximation underestimates offsets that overshoot zero.
func ExampleTransitionCost() {
	const halflife = 0.15
	for _, c := range [][2]float32{{0.5, 0}, {0.5, -4.6}, {0.5, -9.2}, {0.5, -15}} {
		fmt.Printf("x %.1f v %5.1f: exact %.4f approx %.4f baseline %.4f\n", c[0], c[1],
			spring.TransitionCost(c[0], c[1], halflife), spring.TransitionCostApprox(c[0], c[1], halflife),
			spring.TransitionCostBaseline(c[0], c[1], 1, 0.5))
	}
	// Output:
	// x 0.5 v   0.0: exact 0.1082 approx 0.1082 baseline 0.5000
	// x 0.5 v  -4.6: exact 0.0543 approx 0.0543 baseline 2.8000
	// x 0.5 v  -9.2: exact 0.0396 approx 0.0005 baseline 5.1000
	// x 0.5 v -15.0: exact 0.0883 approx 0.0674 baseline 8.0000
}
