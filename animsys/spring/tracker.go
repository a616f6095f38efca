package spring

// TrackingFilter is a tracking spring with its own state: the three updates
// of the article, from full targets down to position only. Tracker,
// HalflifeTracker and ExactTracker implement it; CutTracker drives one.
type TrackingFilter interface {
	// Update tracks position xGoal, velocity vGoal (units/s) and
	// acceleration aGoal (units/s²) over dt seconds.
	Update(xGoal, vGoal, aGoal, dt float32)
	// UpdateNoAcceleration tracks position and velocity only.
	UpdateNoAcceleration(xGoal, vGoal, dt float32)
	// UpdateNoVelocityAcceleration tracks position only.
	UpdateNoVelocityAcceleration(xGoal, dt float32)
}

// The three trackers are TrackingFilters.
var (
	_ TrackingFilter = (*Tracker)(nil)
	_ TrackingFilter = (*HalflifeTracker)(nil)
	_ TrackingFilter = (*ExactTracker)(nil)
)

// Tracker is the lerp-gain tracking spring (tracking_spring_update) with its
// state. The gains are per tick: the article's 0.01, 0.2, 1 are tuned for
// 60 Hz and behave differently at other rates.
type Tracker struct {
	X, V                float32 // position (units) and velocity (units/s)
	XGain, VGain, AGain float32 // per-tick gains in [0, 1]
}

// Update advances the tracker by dt with TrackingSpringUpdate.
func (t *Tracker) Update(xGoal, vGoal, aGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdate(t.X, t.V, xGoal, vGoal, aGoal, t.XGain, t.VGain, t.AGain, dt)
}

// UpdateNoAcceleration advances the tracker with
// TrackingSpringUpdateNoAcceleration.
func (t *Tracker) UpdateNoAcceleration(xGoal, vGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdateNoAcceleration(t.X, t.V, xGoal, vGoal, t.XGain, t.VGain, dt)
}

// UpdateNoVelocityAcceleration advances the tracker with
// TrackingSpringUpdateNoVelocityAcceleration.
func (t *Tracker) UpdateNoVelocityAcceleration(xGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdateNoVelocityAcceleration(t.X, t.V, xGoal, t.XGain, dt)
}

// HalflifeTracker is the half-life ("improved") tracking spring
// (tracking_spring_update_improved) with its state. The article uses
// half-lives of 1.0 (position), 0.05 (velocity) and 0 (acceleration).
type HalflifeTracker struct {
	X, V                            float32 // position (units) and velocity (units/s)
	XHalflife, VHalflife, AHalflife float32 // seconds; 0 snaps
}

// Update advances the tracker by dt with TrackingSpringUpdateImproved.
func (t *HalflifeTracker) Update(xGoal, vGoal, aGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdateImproved(t.X, t.V, xGoal, vGoal, aGoal, t.XHalflife, t.VHalflife, t.AHalflife, dt)
}

// UpdateNoAcceleration advances the tracker with
// TrackingSpringUpdateImprovedNoAcceleration.
func (t *HalflifeTracker) UpdateNoAcceleration(xGoal, vGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdateImprovedNoAcceleration(t.X, t.V, xGoal, vGoal, t.XHalflife, t.VHalflife, dt)
}

// UpdateNoVelocityAcceleration advances the tracker with
// TrackingSpringUpdateImprovedNoVelocityAcceleration.
func (t *HalflifeTracker) UpdateNoVelocityAcceleration(xGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdateImprovedNoVelocityAcceleration(t.X, t.V, xGoal, t.XHalflife, dt)
}

// ExactTracker is the dt-invariant tracking spring
// (tracking_spring_update_exact) with its state: the lerp gains are read as
// if ticked every GainDt seconds and evaluated exactly over any dt.
type ExactTracker struct {
	X, V                float32 // position (units) and velocity (units/s)
	XGain, VGain, AGain float32 // gains in [0, 1] per GainDt
	GainDt              float32 // seconds the gains are tuned for (1/60 in the article); <= 0: each dt
}

// Update advances the tracker by dt with TrackingSpringUpdateExact.
func (t *ExactTracker) Update(xGoal, vGoal, aGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdateExact(t.X, t.V, xGoal, vGoal, aGoal, t.XGain, t.VGain, t.AGain, dt, t.GainDt)
}

// UpdateNoAcceleration advances the tracker with
// TrackingSpringUpdateNoAccelerationExact.
func (t *ExactTracker) UpdateNoAcceleration(xGoal, vGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdateNoAccelerationExact(t.X, t.V, xGoal, vGoal, t.XGain, t.VGain, dt, t.GainDt)
}

// UpdateNoVelocityAcceleration advances the tracker with
// TrackingSpringUpdateNoVelocityAccelerationExact.
func (t *ExactTracker) UpdateNoVelocityAcceleration(xGoal, dt float32) {
	t.X, t.V = TrackingSpringUpdateNoVelocityAccelerationExact(t.X, t.V, xGoal, t.XGain, dt, t.GainDt)
}

// CutTracker feeds a sampled stream to a TrackingFilter the way the article
// does. Each call gets the newest sample and whether a cut (a known
// discontinuity) lies between it and the previous sample. The targets are
// the newest sample, the finite-difference velocity to it and the change of
// that velocity since the last call (TrackingTargetVelocity and
// TrackingTargetAcceleration, also right when dt varies). After a cut the
// filter gets the position only, on the next call position and velocity, and
// then all three again, so the jump never enters a velocity or acceleration
// target. For streams whose cuts are not known, MaxVel and MaxAcc clip the
// targets instead (ClipTarget); the acceleration is taken between clipped
// velocities.
//
// The zero value is ready: the first sample is treated as following a cut.
type CutTracker struct {
	MaxVel float32 // clip velocity targets to ±MaxVel (units/s); <= 0: no clipping
	MaxAcc float32 // clip acceleration targets to ±MaxAcc (units/s²); <= 0: no clipping

	curr    float32 // the previous sample
	vCurr   float32 // the previous velocity target (units/s), clipped
	clean   uint8   // cut-free intervals ending at the newest sample, at most 2
	started bool
}

// Reset forgets the stream: the next sample is treated as following a cut.
func (c *CutTracker) Reset() { *c = CutTracker{MaxVel: c.MaxVel, MaxAcc: c.MaxAcc} }

// Update tracks sample next, dt seconds after the previous one, with f. cut
// says a discontinuity lies between the previous sample and next. A call
// with dt <= 0 is ignored.
func (c *CutTracker) Update(f TrackingFilter, next float32, cut bool, dt float32) {
	if dt <= 0 {
		return
	}
	if cut || !c.started {
		c.clean = 0
	} else if c.clean < 2 {
		c.clean++
	}
	vGoal := ClipTarget(TrackingTargetVelocity(next, c.curr, dt), c.MaxVel)
	switch c.clean {
	case 0:
		f.UpdateNoVelocityAcceleration(next, dt)
	case 1:
		f.UpdateNoAcceleration(next, vGoal, dt)
	default:
		aGoal := ClipTarget(TrackingTargetVelocity(vGoal, c.vCurr, dt), c.MaxAcc)
		f.Update(next, vGoal, aGoal, dt)
	}
	c.curr, c.vCurr, c.started = next, vGoal, true
}
