package gltf

import (
	"math"
	"slices"
	"sort"

	"kinelab/animsys"
	"kinelab/animsys/mathx/mathx64"
)

// Interpolation is an animation sampler's interpolation (glTF 2.0 section
// 3.11 "Animations", appendix C "Interpolation").
type Interpolation uint8

const (
	Linear      Interpolation = iota // LINEAR: lerp, slerp for rotations
	Step                             // STEP: each key held until the next
	CubicSpline                      // CUBICSPLINE: Hermite with in and out tangents
)

func (i Interpolation) String() string {
	switch i {
	case Step:
		return "STEP"
	case CubicSpline:
		return "CUBICSPLINE"
	}
	return "LINEAR"
}

// Path is the property a channel animates.
type Path uint8

const (
	Translation Path = iota // m, VEC3
	Rotation                // unit quaternion x, y, z, w, VEC4
	Scale                   // per axis, VEC3
)

func (p Path) String() string {
	return [...]string{"translation", "rotation", "scale"}[p]
}

// Channel is one animated property of one node: key times and values as
// the file holds them (normalised integers converted to floats).
type Channel struct {
	Node int // glTF node index
	// Joint is the skeleton joint whose local transform the channel
	// moves, or -1 for a non-joint ancestor folded into the joints below
	// it (Asset doc).
	Joint  int
	Path   Path
	Interp Interpolation
	// Times are the key times (s), non-decreasing; a zero-length interval
	// is skipped.
	Times []float32
	// Values hold Width() floats per key in glTF order (x, y, z, and w for
	// rotations); CUBICSPLINE holds three per key: in-tangent, value,
	// out-tangent (tangents in units per second). STEP and LINEAR
	// rotations are normalised on load, as the spec's slerp assumes.
	Values []float32
}

// Width is the number of floats of one value: 4 for rotations, else 3.
func (c *Channel) Width() int {
	if c.Path == Rotation {
		return 4
	}
	return 3
}

// Value is key k's value (for CUBICSPLINE the middle of its triple), as
// up to four floats.
func (c *Channel) Value(k int) [4]float64 {
	w := c.Width()
	if c.Interp == CubicSpline {
		k = 3*k + 1
	}
	var v [4]float64
	for i := 0; i < w; i++ {
		v[i] = float64(c.Values[k*w+i])
	}
	return v
}

// at is the element i of Values as a 4-vector.
func (c *Channel) at(i int) [4]float64 {
	w := c.Width()
	var v [4]float64
	for j := 0; j < w; j++ {
		v[j] = float64(c.Values[i*w+j])
	}
	return v
}

// interval locates time t (s): key k and the fraction u of the way to key
// k+1, over an interval of td seconds; hold when t is before the first key
// or at or after the last (the key value then holds, at rest).
//
// With end, t is an end approached from inside: k is the last key before
// t (not at it), so that a key at t ends an interval at u = 1 rather than
// holding. STEP has no such interval: its value at t is the key's.
func (c *Channel) interval(t float64, end bool) (k int, u, td float64, hold bool) {
	n := len(c.Times)
	if end && c.Interp != Step {
		k = sort.Search(n, func(i int) bool { return float64(c.Times[i]) >= t }) - 1
	} else { // the last key at or before t
		k = sort.Search(n, func(i int) bool { return float64(c.Times[i]) > t }) - 1
	}
	if k < 0 {
		return 0, 0, 0, true
	}
	if k >= n-1 {
		return n - 1, 0, 0, true
	}
	t0, t1 := float64(c.Times[k]), float64(c.Times[k+1])
	td = t1 - t0 // > 0: times[k] <= t < times[k+1], or < t <= with end
	return k, min((t-t0)/td, 1), td, false
}

// vec4 is the channel's value and its time derivative (per second) at t,
// component-wise, as appendix C defines for each interpolation:
//
//   - STEP: the key value, derivative 0;
//   - LINEAR: v_k + u (v_k+1 - v_k), derivative (v_k+1 - v_k) / td;
//   - CUBICSPLINE: the Hermite curve p(u) = (2u^3 - 3u^2 + 1) v_k +
//     td (u^3 - 2u^2 + u) b_k + (-2u^3 + 3u^2) v_k+1 + td (u^3 - u^2) a_k+1
//     with b_k key k's out-tangent and a_k+1 key k+1's in-tangent, so
//     dp/dt = p'(u) / td.
func (c *Channel) vec4(t float64, end bool) (x, dx [4]float64) {
	k, u, td, hold := c.interval(t, end)
	if hold || c.Interp == Step {
		return c.Value(k), dx
	}
	if c.Interp == Linear {
		v0, v1 := c.Value(k), c.Value(k+1)
		for i := range x {
			d := v1[i] - v0[i]
			x[i], dx[i] = v0[i]+u*d, d/td
		}
		return x, dx
	}
	v0, b0, a1, v1 := c.at(3*k+1), c.at(3*k+2), c.at(3*k+3), c.at(3*k+4)
	u2, u3 := u*u, u*u*u
	h00, h10, h01, h11 := 2*u3-3*u2+1, u3-2*u2+u, -2*u3+3*u2, u3-u2
	d00, d10, d01, d11 := 6*u2-6*u, 3*u2-4*u+1, -6*u2+6*u, 3*u2-2*u
	for i := range x {
		x[i] = h00*v0[i] + h10*td*b0[i] + h01*v1[i] + h11*td*a1[i]
		dx[i] = (d00*v0[i]+d01*v1[i])/td + d10*b0[i] + d11*a1[i]
	}
	return x, dx
}

func v3(a [4]float64) mathx64.Vec3 { return mathx64.Vec3{a[0], a[1], a[2]} }

// q4 is a glTF x, y, z, w quaternion.
func q4(a [4]float64) mathx64.Quat { return mathx64.Quat{W: a[3], X: a[0], Y: a[1], Z: a[2]} }

// rotation is the channel's rotation and angular velocity (rad/s, world
// side) at t. LINEAR is the spec's slerp along the shortest arc (appendix
// C: the second key negated when the dot product is negative), written
// exp(u d/2) q_k with d = 2 log(q_k+1 q_k^-1) the scaled angle-axis
// (rad) from key to key: the same curve, turning at the constant angular
// velocity d / td. CUBICSPLINE is the normalised Hermite of the four
// components; its angular velocity is 2 (dq/dt) q^-1 with dq/dt the exact
// derivative of the normalisation (normalizeDx).
func (c *Channel) rotation(t float64, end bool) (mathx64.Quat, mathx64.Vec3) {
	k, u, td, hold := c.interval(t, end)
	switch {
	case hold && c.Interp == CubicSpline:
		return q4(c.Value(k)).Normalize(), mathx64.Vec3{}
	case hold || c.Interp == Step:
		return q4(c.Value(k)), mathx64.Vec3{} // normalised on load
	case c.Interp == Linear:
		q0, q1 := q4(c.Value(k)), q4(c.Value(k+1))
		if q0.Dot(q1) < 0 {
			q1 = q1.Scale(-1)
		}
		d := mathx64.QuatLog(q1.Mul(q0.Conj()).Normalize()).Scale(2)
		if u == 0 {
			return q0, d.Scale(1 / td) // exactly the key
		}
		return mathx64.QuatExp(d.Scale(u / 2)).Mul(q0), d.Scale(1 / td)
	}
	p, dp := c.vec4(t, end)
	pq, dpq := q4(p), q4(dp)
	q := pq.Normalize()
	return q, angVel(q, normalizeDx(pq, dpq))
}

// sample writes the channel's value and velocity at t into k (with end,
// t approached from inside: interval).
func (c *Channel) sample(k *kf, t float64, end bool) {
	switch c.Path {
	case Translation:
		x, dx := c.vec4(t, end)
		k.pos, k.vel = v3(x), v3(dx)
	case Rotation:
		k.rot, k.ang = c.rotation(t, end)
	case Scale:
		// Svl = d/dt log s = s'/s per axis; zero where the scale is zero
		// (a hidden part), where log s has no derivative.
		x, dx := c.vec4(t, end)
		k.scl = v3(x)
		for i := range k.svl {
			k.svl[i] = 0
			if x[i] != 0 {
				k.svl[i] = dx[i] / x[i]
			}
		}
	}
}

// Anim is one glTF animation, sampled exactly (Sample) or resampled into
// a Clip.
type Anim struct {
	Name     string
	Duration float32 // s, the latest key time of its channels
	// Channels are the channels kept: on skeleton joints, and on
	// non-joint ancestors folded into them (Joint -1).
	Channels []*Channel

	plans []plan    // per skeleton joint
	keys  []float32 // every channel's key times, sorted, once each
	// units and roots bake a uniform scale above the skeleton out of it
	// (builder.units): shared with the Asset's other animations.
	units []float64
	roots []bool
}

// Piece implements animsys.CurvePieces: the curves are smooth between
// keys, so the pieces are the intervals between the animation's distinct
// key times (of any channel), numbered from 0 before the first key.
func (a *Anim) Piece(t float64) int {
	i, _ := slices.BinarySearchFunc(a.keys, t, func(k float32, t float64) int {
		if float64(k) <= t {
			return -1
		}
		return 1
	})
	return i
}

// link is one node of a joint's chain: its rest transform and channels
// (nil for a property not animated).
type link struct {
	rest    kf
	t, r, s *Channel
}

func (l *link) sample(t float64, end bool) kf {
	k := l.rest
	for _, c := range [...]*Channel{l.t, l.r, l.s} {
		if c != nil {
			c.sample(&k, t, end)
		}
	}
	return k
}

// plan samples one joint's local transform: the constant product pre of
// the chain's links above the first animated one (the whole folded rest
// transform when none is animated), then the animated links and every
// link below them, composed.
type plan struct {
	pre   kf
	id    bool // pre is the identity: the first link is sampled as it is
	links []link
}

// Sample writes the local pose at time t (s, clamped to [0, Duration])
// into out, which must have as many joints as the asset's skeleton.
// Joints without a channel get their rest values and zero velocity.
// Velocities are the exact time derivatives of the sampled curves (see
// Channel.vec4 and Channel.rotation): m/s, rad/s (world side: the
// angular velocity of the local rotation in the parent's frame, as every
// animsys pose), and d/dt log(scale) per axis (1/s). Before a channel's
// first key or from its last key on, its key value holds, at rest;
// within an interval the right-hand derivative applies at its first key.
func (a *Anim) Sample(out *animsys.Pose, t float32) { a.SampleCurves(out, float64(t)) }

// SampleCurves is Sample at a float64 time: the animation as a clip's
// exact source (animsys.Curves). It allocates nothing and writes only
// out, so goroutines may share the animation.
func (a *Anim) SampleCurves(out *animsys.Pose, tt float64) {
	if !(tt > 0) { // also NaN
		tt = 0
	}
	a.sample(out, math.Min(tt, float64(a.Duration)), false)
}

// End is the animation's Duration (animsys.CurvesEnd).
func (a *Anim) End() float64 { return float64(a.Duration) }

// SampleCurvesEnd writes the local pose at the end, Duration, approached
// from inside (animsys.CurvesEnd): each channel's value there with the
// derivative of its last interval at its end (Channel.interval), where
// SampleCurves holds the last keys at rest. A channel that ends earlier,
// or a STEP channel, holds as there. It allocates nothing.
func (a *Anim) SampleCurvesEnd(out *animsys.Pose) { a.sample(out, float64(a.Duration), true) }

// sample is SampleCurves at tt within [0, Duration], approached from
// inside with end.
func (a *Anim) sample(out *animsys.Pose, tt float64, end bool) {
	for j := range a.plans {
		k := a.sampleJoint(j, tt, end)
		if u := a.units[j]; u != 1 { // a constant: the scale velocity stays
			if a.roots[j] {
				k.scl = k.scl.Scale(1 / u)
			} else {
				k.pos, k.vel = k.pos.Scale(u), k.vel.Scale(u)
			}
		}
		out.SetKform(j, k.kform())
	}
}

// sampleJoint is joint j's local transform at t, in float64.
func (a *Anim) sampleJoint(j int, t float64, end bool) kf {
	p := &a.plans[j]
	k := p.pre
	for i := range p.links {
		if i == 0 && p.id {
			k = p.links[0].sample(t, end)
			continue
		}
		k = k.mul(p.links[i].sample(t, end))
	}
	return k
}

// Clip is the animation as an animsys.Clip: sampled exactly from its
// curves (Clip.Curves is the animation), and resampled into frames for
// what reads frames, ceil(Duration fps) + 1 of them (fps 30 if not
// positive; a Duration within 1e-3 frames of a whole number of frames
// takes no extra frame for its rounding) spread evenly over [0,
// Duration], so that the clip ends where the animation does. The clip is
// prepared (Clip.Prepare).
func (a *Anim) Clip(fps float32) animsys.Clip {
	return animsys.CurvesClip(a.Name, a, len(a.plans), a.Duration, fps)
}
