package tracking

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
	"kinelab/assets"
)

// Beyond the article: the tracking filter applied to a whole character. The
// default character plays a clip whose time skips CutSkip seconds every
// CutEvery seconds — a cut, as when animation data is stitched together —
// and every joint's local rotation and position is tracked by the chosen
// variant, with the same gains, known-cut handling and clipping as the
// 1-D signal. The raw and the filtered characters stand side by side.
//
// The spring package's trackers are scalar, so the lab builds the vector
// version from its scalar functions (vecTrack): positions per component,
// and rotations per component of the scaled angle-axis of the goal
// relative to the previous output — the tracking spring runs in the
// tangent space at its own output, from x = 0 towards that offset, and the
// step it returns is applied as exp(step)·output. The rotation's velocity
// target is the scaled angle-axis between successive samples over dt; both
// are in the joint's parent frame (rad/s). Velocity and acceleration
// limits, when clipping is on, apply per component in rad/s and rad/s².

// trackChar is the character: its clip, the raw and filtered local poses
// and one vecTrack per joint for rotations and one for positions.
type trackChar struct {
	skel  animsys.Skeleton
	fig   *humanoid.Figure // the skeleton read as a body: its Ground joints get no bones
	clips []animsys.Clip
	top   int     // joint the captions float above (the head)
	apart float32 // m between the two characters
	width float32 // m, one figure's width as the default camera sees it (at rest)
	// middle is where the body's middle stands from its root, for a
	// figure that is no human (an animal's pelvis is at its back end):
	// each is placed by its middle. Zero for a human.
	middle mgl32.Vec3
	clip   int32   // clip playing
	t      float32 // s into it
	since  float32 // s since the last cut
	pend   bool    // a cut was asked for

	raw, prev, filt animsys.Pose // local: newest sample, the one before, the filter's output
	rawG, filtG     animsys.Pose // global, for drawing
	rot, pos        []vecTrack
	started         bool

	Cut             bool    // the newest sample follows a cut
	MeanDeg, MaxDeg float32 // angle (degrees) between filtered and raw rotations over joints
	Worst           int     // joint of MaxDeg
}

// newTrackChar is the raw and filtered character of ch (the default, or
// loaded from BVH files), standing a body width apart.
func newTrackChar(ch *character.Character) *trackChar {
	c := &trackChar{skel: ch.Skel, fig: ch.Figure, clips: ch.Clips, clip: -1, top: ch.Head, apart: 1}
	if c.top < 0 {
		c.top = ch.Hips
	}
	// A loaded human may play its clips arms out: stand the two a step
	// wider than its rest pose's hands so they never overlap. The default
	// character's clips keep its arms down, so it keeps the 1 m the lab
	// was laid out for (its T-shaped rest pose would make it 1.1 m).
	// At another size, the metre is the figure's (app.ViewScale); a
	// figure that is no human stands clear of the other by its width as
	// the camera sees it (an animal seen from its front-left).
	k := app.ViewScale(ch)
	rest := ch.Skel.BindPose()
	right := app.DefaultCameraRight()
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for j, p := range rest.Pos {
		if !ch.Figure.Ground[j] {
			lo, hi = min(lo, p.Dot(right)), max(hi, p.Dot(right))
		}
	}
	c.width = max(0, hi-lo)
	if f := ch.Figure; f.Human && ch != assets.Character() {
		span := rest.Pos[f.Arms[humanoid.Left].End].Sub(rest.Pos[f.Arms[humanoid.Right].End]).Len()
		c.apart = max(k, 0.8*span)
	} else if !f.Human {
		c.apart = max(k, 1.1*c.width)
		c.middle = ch.Middle
	}
	n := c.skel.Len()
	for _, p := range []*animsys.Pose{&c.raw, &c.prev, &c.filt, &c.rawG, &c.filtG} {
		*p = animsys.NewPose(n)
	}
	c.rot, c.pos = make([]vecTrack, n), make([]vecTrack, n)
	return c
}

// Places of the raw and filtered characters (m), side by side as the
// default camera sees them.
func (c *trackChar) places() (raw, filt mgl32.Vec3) {
	r := app.DefaultCameraRight().Mul(0.5 * c.apart)
	return r.Mul(-1).Sub(c.middle), r.Sub(c.middle)
}

// update advances the clip by dt, cutting it when due, and tracks the new
// sample with the variant s.CharVariant.
func (c *trackChar) update(s *Settings, dt float32) {
	clip := int32(max(0, min(int(s.CharClip), len(c.clips)-1)))
	c.t += dt
	c.since += dt
	due := c.pend || (s.CutEvery > 0 && c.since >= s.CutEvery)
	if due {
		c.t += s.CutSkip
		c.since = 0
	}
	cut := due || clip != c.clip || !c.started
	c.pend, c.clip = false, clip
	c.t = mathx.WrapTime(c.t, c.clips[clip].Duration())
	c.Cut = cut

	c.prev.CopyFrom(&c.raw)
	animsys.SampleCubic(&c.raw, &c.clips[clip], c.t)
	c.raw.Pos[0], c.raw.Rot[0] = mgl32.Vec3{}, mathx.QuatIdentity() // in place
	if !c.started {
		c.prev.CopyFrom(&c.raw)
		c.filt.CopyFrom(&c.raw)
		c.started = true
	}

	known := cut && s.KnownCuts
	maxVel, maxAcc := s.clipLimits()
	inv := 1 / dt
	var sum float32
	c.MaxDeg, c.Worst = 0, 1
	for j := 1; j < c.skel.Len(); j++ {
		// Rotation: offsets in the tangent space at the output.
		vGoal := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.raw.Rot[j], c.prev.Rot[j]))).Mul(inv)
		e := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.raw.Rot[j], c.filt.Rot[j])))
		d := c.rot[j].step(s, s.CharVariant, e, vGoal, known, maxVel, maxAcc, dt)
		q := mathx.QuatNormalize(mathx.QuatMul(mathx.QuatFromScaledAngleAxis(d), c.filt.Rot[j]))
		if !mathx.QuatFinite(q) || !mathx.Vec3Finite(c.rot[j].w) { // an extreme setting ran away
			q, c.rot[j] = c.raw.Rot[j], vecTrack{}
		}
		c.filt.Rot[j] = q

		// Position: plain per-component tracking.
		for k := 0; k < 3; k++ {
			vGoal[k] = spring.TrackingTargetVelocity(c.raw.Pos[j][k], c.prev.Pos[j][k], dt)
		}
		d = c.pos[j].step(s, s.CharVariant, c.raw.Pos[j].Sub(c.filt.Pos[j]), vGoal, known, maxVel, maxAcc, dt)
		p := c.filt.Pos[j].Add(d)
		if !mathx.Vec3Finite(p) || !mathx.Vec3Finite(c.pos[j].w) {
			p, c.pos[j] = c.raw.Pos[j], vecTrack{}
		}
		c.filt.Pos[j] = p
		c.filt.Scl[j] = c.raw.Scl[j]

		deg := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.filt.Rot[j], c.raw.Rot[j]))).Len() * 180 / math.Pi
		sum += deg
		if deg > c.MaxDeg {
			c.MaxDeg, c.Worst = deg, j
		}
	}
	c.MeanDeg = sum / float32(c.skel.Len()-1)

	pr, pf := c.places()
	c.raw.Pos[0], c.filt.Pos[0] = pr, pf
	animsys.FKStatic(&c.rawG, &c.raw, c.skel.Parents)
	animsys.FKStatic(&c.filtG, &c.filt, c.skel.Parents)
}

// vecTrack feeds a three-component stream to a tracking spring the way
// spring.CutTracker feeds a scalar one — position only across a cut,
// position and velocity on the next sample, then all three — for streams
// whose goal offset and velocity target the caller computes (a rotation's
// live in a tangent space, which CutTracker's plain differences cannot
// express). The spring runs from 0 towards the offset, so step returns the
// displacement to apply.
type vecTrack struct {
	w     mgl32.Vec3 // the spring's velocity (units/s)
	vPrev mgl32.Vec3 // the previous velocity target, clipped
	clean uint8      // cut-free intervals up to the newest sample, at most 2
}

// step tracks goal offset e with velocity target vGoal (units/s) over dt
// seconds; cut says a discontinuity lies before this sample. Targets are
// clipped to ±maxVel and ±maxAcc (units/s, units/s²) when those are > 0.
func (t *vecTrack) step(s *Settings, kind int32, e, vGoal mgl32.Vec3, cut bool, maxVel, maxAcc, dt float32) (d mgl32.Vec3) {
	if cut {
		t.clean = 0
	} else if t.clean < 2 {
		t.clean++
	}
	for k := 0; k < 3; k++ {
		vg := spring.ClipTarget(vGoal[k], maxVel)
		ag := spring.ClipTarget(spring.TrackingTargetVelocity(vg, t.vPrev[k], dt), maxAcc)
		d[k], t.w[k] = s.trackStep(kind, t.clean, t.w[k], e[k], vg, ag, dt)
		t.vPrev[k] = vg
	}
	return d
}

// trackStep is one scalar update of variant kind from position 0 with
// velocity w towards goal e, velocity target vg and acceleration target ag:
// the full update, the one without acceleration (clean 1) or the
// position-only one (clean 0, right after a cut). The plain spring ignores
// the targets.
func (s *Settings) trackStep(kind int32, clean uint8, w, e, vg, ag, dt float32) (x, v float32) {
	switch kind {
	case VarPlain:
		return spring.SimpleSpringDamperExact(0, w, e, s.PlainHalflife, dt)
	case VarLerp:
		switch clean {
		case 0:
			return spring.TrackingSpringUpdateNoVelocityAcceleration(0, w, e, s.XGain, dt)
		case 1:
			return spring.TrackingSpringUpdateNoAcceleration(0, w, e, vg, s.XGain, s.VGain, dt)
		}
		return spring.TrackingSpringUpdate(0, w, e, vg, ag, s.XGain, s.VGain, s.AGain, dt)
	case VarHalflife:
		switch clean {
		case 0:
			return spring.TrackingSpringUpdateImprovedNoVelocityAcceleration(0, w, e, s.XHalflife, dt)
		case 1:
			return spring.TrackingSpringUpdateImprovedNoAcceleration(0, w, e, vg, s.XHalflife, s.VHalflife, dt)
		}
		return spring.TrackingSpringUpdateImproved(0, w, e, vg, ag, s.XHalflife, s.VHalflife, s.AHalflife, dt)
	default:
		switch clean {
		case 0:
			return spring.TrackingSpringUpdateNoVelocityAccelerationExact(0, w, e, s.XGain, dt, s.GainDt)
		case 1:
			return spring.TrackingSpringUpdateNoAccelerationExact(0, w, e, vg, s.XGain, s.VGain, dt, s.GainDt)
		}
		return spring.TrackingSpringUpdateExact(0, w, e, vg, ag, s.XGain, s.VGain, s.AGain, dt, s.GainDt)
	}
}
