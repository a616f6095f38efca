package spring

import "kinelab/animsys/mathx"

// Tracking springs (article: "Perfect Tracking with Springs"). Each update
// takes the tracked signal's position xGoal, velocity vGoal (units/s) and
// acceleration aGoal (units/s²) for the step, usually from the finite
// differences TrackingTargetVelocity and TrackingTargetAcceleration with
// xGoal the newest sample, and returns the spring's new position and
// velocity. With the article's gains (x 0.01, v 0.2, a 1 at 60 Hz) the spring
// reproduces a clean signal exactly and smooths out discontinuities; the
// NoAcceleration and NoVelocityAcceleration variants are for the steps whose
// finite differences straddle a known discontinuity.
//
// The lerp-gain updates are not dt-invariant: the gains are per tick, and a
// discontinuity is smoothed over a number of ticks, not of seconds. The
// Exact updates emulate ticking the gains at gainDt with the exact
// spring-damper and respond to a discontinuity the same way at any dt, but
// they no longer reproduce a clean signal exactly: xGoal leads the spring by
// one step, which the gains compensate only at dt = gainDt, leaving a lag
// that grows with |dt - gainDt| and the signal's velocity. Every update
// returns (x, v) unchanged for dt <= 0.

// TrackingTargetVelocity is the article's tracking_target_velocity: the
// forward finite difference (xNext - xCurr)/dt in units/s. dt <= 0 gives 0.
func TrackingTargetVelocity(xNext, xCurr, dt float32) float32 {
	if dt <= 0 {
		return 0
	}
	return f32((float64(xNext) - float64(xCurr)) / float64(dt))
}

// TrackingTargetAcceleration is the article's tracking_target_acceleration:
// the second finite difference of three samples dt seconds apart, in
// units/s². dt <= 0 gives 0.
func TrackingTargetAcceleration(xNext, xCurr, xPrev, dt float32) float32 {
	if dt <= 0 {
		return 0
	}
	n, c, p, h := float64(xNext), float64(xCurr), float64(xPrev), float64(dt)
	return f32(((n-c)/h - (c-p)/h) / h)
}

// ClipTarget clamps a tracking target (a velocity or an acceleration) to
// [-limit, limit]: the article's remedy for streams whose discontinuities
// are not known. A limit <= 0 disables clipping.
func ClipTarget(target, limit float32) float32 {
	if limit <= 0 {
		return target
	}
	return mathx.Clamp(target, -limit, limit)
}

// TrackingSpringUpdate is the article's tracking_spring_update, with per-tick
// gains in [0, 1]:
//
//	v = lerp(v, v + aGoal·dt, aGain)
//	v = lerp(v, vGoal, vGain)
//	v = lerp(v, (xGoal - x)/dt, xGain)
//	x = x + dt·v
func TrackingSpringUpdate(x, v, xGoal, vGoal, aGoal, xGain, vGain, aGain, dt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	h, xx, vv := float64(dt), float64(x), float64(v)
	vv = lerp64(vv, vv+float64(aGoal)*h, float64(aGain))
	vv = lerp64(vv, float64(vGoal), float64(vGain))
	vv = lerp64(vv, (float64(xGoal)-xx)/h, float64(xGain))
	return f32(xx + h*vv), f32(vv)
}

// TrackingSpringUpdateNoAcceleration is the article's
// tracking_spring_update_no_acceleration: TrackingSpringUpdate without the
// acceleration term, for the step after a discontinuity.
func TrackingSpringUpdateNoAcceleration(x, v, xGoal, vGoal, xGain, vGain, dt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	h, xx, vv := float64(dt), float64(x), float64(v)
	vv = lerp64(vv, float64(vGoal), float64(vGain))
	vv = lerp64(vv, (float64(xGoal)-xx)/h, float64(xGain))
	return f32(xx + h*vv), f32(vv)
}

// TrackingSpringUpdateNoVelocityAcceleration is the article's
// tracking_spring_update_no_velocity_acceleration: only the position term,
// for the step across a discontinuity.
func TrackingSpringUpdateNoVelocityAcceleration(x, v, xGoal, xGain, dt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	h, xx, vv := float64(dt), float64(x), float64(v)
	vv = lerp64(vv, (float64(xGoal)-xx)/h, float64(xGain))
	return f32(xx + h*vv), f32(vv)
}

// TrackingSpringUpdateImproved is the article's tracking_spring_update_improved:
// TrackingSpringUpdate with each lerp replaced by DamperExact and the gains by
// half-lives in seconds (the article uses a 0, v 0.05, x 1.0). Less
// dependent on dt than the lerp version, but still not dt-invariant.
func TrackingSpringUpdateImproved(x, v, xGoal, vGoal, aGoal, xHalflife, vHalflife, aHalflife, dt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	h, xx, vv := float64(dt), float64(x), float64(v)
	vv = damperStep64(vv, vv+float64(aGoal)*h, aHalflife, h)
	vv = damperStep64(vv, float64(vGoal), vHalflife, h)
	vv = damperStep64(vv, (float64(xGoal)-xx)/h, xHalflife, h)
	return f32(xx + h*vv), f32(vv)
}

// TrackingSpringUpdateImprovedNoAcceleration is TrackingSpringUpdateImproved
// without the acceleration term, for the step after a discontinuity.
func TrackingSpringUpdateImprovedNoAcceleration(x, v, xGoal, vGoal, xHalflife, vHalflife, dt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	h, xx, vv := float64(dt), float64(x), float64(v)
	vv = damperStep64(vv, float64(vGoal), vHalflife, h)
	vv = damperStep64(vv, (float64(xGoal)-xx)/h, xHalflife, h)
	return f32(xx + h*vv), f32(vv)
}

// TrackingSpringUpdateImprovedNoVelocityAcceleration is
// TrackingSpringUpdateImproved with only the position term, for the step
// across a discontinuity.
func TrackingSpringUpdateImprovedNoVelocityAcceleration(x, v, xGoal, xHalflife, dt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	h, xx, vv := float64(dt), float64(x), float64(v)
	vv = damperStep64(vv, (float64(xGoal)-xx)/h, xHalflife, h)
	return f32(xx + h*vv), f32(vv)
}

// TrackingSpringExactStiffnessDamping returns the stiffness (1/s²) and
// damping (1/s) of the spring-damper that the tracking spring with the given
// per-tick gains, ticked every gainDt seconds, is equivalent to (the
// article's appendix): stiffness = xGain/gainDt², damping = (1 - t0)/gainDt
// with t0 = (1 - vGain)(1 - xGain). The article's gains (0.01, 0.2 at
// 1/60 s) give stiffness 36 and damping 12.48, an over-damped spring.
// Gains are clamped to [0, 1]; gainDt <= 0 gives (0, 0).
func TrackingSpringExactStiffnessDamping(xGain, vGain, gainDt float32) (stiffness, damping float32) {
	if gainDt <= 0 {
		return 0, 0
	}
	s, d, _, _ := trackingExactParams(xGain, vGain, 0, float64(gainDt))
	return f32(s), f32(d)
}

// TrackingSpringUpdateExact is the article's tracking_spring_update_exact:
// the spring-damper equivalent to TrackingSpringUpdate ticked at gainDt
// seconds, evaluated exactly over dt (SpringDamperExact with stiffness and
// damping from TrackingSpringExactStiffnessDamping, goal xGoal and the force
// damping·q = t2·vGoal + t1·aGoal). Targets are held fixed over dt. Gains
// are clamped to [0, 1]; gainDt <= 0 means "the gains are for this dt".
func TrackingSpringUpdateExact(x, v, xGoal, vGoal, aGoal, xGain, vGain, aGain, dt, gainDt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	s, d, t1, t2 := trackingExactParams(xGain, vGain, aGain, gainOrStep(gainDt, dt))
	return springDamperF32(x, v, xGoal, t2*float64(vGoal)+t1*float64(aGoal), s, d, dt)
}

// TrackingSpringUpdateNoAccelerationExact is the article's
// tracking_spring_update_no_acceleration_exact: TrackingSpringUpdateExact
// without the acceleration term.
func TrackingSpringUpdateNoAccelerationExact(x, v, xGoal, vGoal, xGain, vGain, dt, gainDt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	s, d, _, t2 := trackingExactParams(xGain, vGain, 0, gainOrStep(gainDt, dt))
	return springDamperF32(x, v, xGoal, t2*float64(vGoal), s, d, dt)
}

// TrackingSpringUpdateNoVelocityAccelerationExact is the article's
// tracking_spring_update_no_velocity_acceleration_exact: only the position
// term, a spring with stiffness xGain/gainDt², damping xGain/gainDt and no
// goal velocity.
func TrackingSpringUpdateNoVelocityAccelerationExact(x, v, xGoal, xGain, dt, gainDt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	s, d, _, _ := trackingExactParams(xGain, 0, 0, gainOrStep(gainDt, dt))
	return springDamperF32(x, v, xGoal, 0, s, d, dt)
}

// trackingExactParams maps per-tick gains at gainDt > 0 to the spring's
// stiffness s = t3, damping d = (1 - t0)/gainDt and the force coefficients
// t1 (of aGoal) and t2 (of vGoal), following the article's appendix.
func trackingExactParams(xGain, vGain, aGain float32, gainDt float64) (s, d, t1, t2 float64) {
	gx := float64(mathx.Clamp(xGain, 0, 1))
	gv := float64(mathx.Clamp(vGain, 0, 1))
	ga := float64(mathx.Clamp(aGain, 0, 1))
	t0 := (1 - gv) * (1 - gx)
	t1 = ga * t0
	t2 = gv * (1 - gx) / gainDt
	s = gx / (gainDt * gainDt)
	d = (1 - t0) / gainDt
	return s, d, t1, t2
}

// gainOrStep is gainDt, or dt when gainDt is not positive.
func gainOrStep(gainDt, dt float32) float64 {
	if gainDt <= 0 {
		return float64(dt)
	}
	return float64(gainDt)
}

// springDamperF32 runs springDamper64 on float32 state and returns float32.
func springDamperF32(x, v, g float32, f, s, d float64, dt float32) (float32, float32) {
	xo, vo := springDamper64(float64(x), float64(v), float64(g), f, s, d, float64(dt))
	return f32(xo), f32(vo)
}

// lerp64 is lerp(a, b, t) = a + (b - a)·t in float64.
func lerp64(a, b, t float64) float64 { return a + (b-a)*t }

// damperStep64 is damper_exact in float64, snapping for half-lives below
// mathx.Eps, for dt > 0.
func damperStep64(x, g float64, halflife float32, dt float64) float64 {
	if halflife < mathx.Eps {
		return g
	}
	return damper64(x, g, float64(halflife), dt)
}
