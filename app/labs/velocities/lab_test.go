package velocities

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/internal/apptest"
)

// A seeded user hammers the lab for 6000 ticks: stages toggle, sliders jump
// to their extremes, buttons are pressed, dt ranges from 0 to 0.5 s. No NaN
// or Inf may appear in any pose, readout or CSV value.
func TestVelocitiesLabSurvivesAnyInput(t *testing.T) {
	l := New()
	r := rand.New(rand.NewSource(42))
	ext := func(lo, hi float32) float32 { return apptest.SliderEnd(r, lo, hi) }
	dts := []float32{0, 1e-6, 1.0 / 240, 1.0 / 60, 1.0 / 60, 1.0 / 60, 0.1, 0.5}
	var row []string
	for i := 0; i < 6000; i++ {
		s := &l.S
		switch r.Intn(24) {
		case 0:
			s.Cubic = !s.Cubic
		case 1:
			s.Transition = int32(r.Intn(5))
		case 2:
			s.BlendDuration, s.InertDuration = ext(0, 2), ext(0, 2)
		case 3:
			s.InertHalflife, s.DeadHalflife = ext(0, 1), ext(0, 1)
		case 4:
			s.IgnoreWeightVel = !s.IgnoreWeightVel
		case 5:
			s.Additive = !s.Additive
			s.AddWeight, s.AddDuration = ext(0, 1), ext(0, 2)
		case 6:
			s.AddLocal = !s.AddLocal
		case 7:
			s.LookAt = !s.LookAt
		case 8:
			s.IK = !s.IK
			s.IKChain = int32(r.Intn(2))
		case 9:
			s.TurnRate = ext(-1.5, 1.5)
		case 10:
			s.Quantity = int32(r.Intn(len(quantityNames)))
		case 11:
			l.Teleport()
		case 12:
			l.Reset()
		case 13:
			s.SkipFrames = ext(1, 30)
			l.Skip()
		case 14, 15:
			l.Play(r.Intn(len(l.clips)))
		case 16:
			p := mgl32.Vec3{ext(-5, 5), ext(-1, 4), ext(-5, 5)}
			l.DragLook, l.DragIK = &p, &p
		case 17:
			l.DragLook, l.DragIK = nil, nil
		}
		l.Update(dts[r.Intn(len(dts))])
		for _, p := range []*animsys.Pose{&l.local, &l.global, &l.fd, &l.bk, &l.fdLocal} {
			if !apptest.PoseFinite(p) {
				t.Fatalf("tick %d: a pose went non-finite (settings %+v)", i, l.S)
			}
		}
		if !mathx.Finite(l.Mean) || !mathx.Finite(l.Max) {
			t.Fatalf("tick %d: readout %v %v", i, l.Mean, l.Max)
		}
		row = l.CSVRows(nil)[0]
		for _, c := range row {
			if c == "NaN" || c == "+Inf" || c == "-Inf" {
				t.Fatalf("tick %d: CSV row %v", i, row)
			}
		}
	}
}

// runTicks advances the lab n ticks of dt and returns the largest |red -
// blue| of world linear velocity seen (m/s).
func runTicks(l *Lab, n int, dt float32) float32 {
	var m float32
	for i := 0; i < n; i++ {
		l.Update(dt)
		m = max(m, l.Max)
	}
	return m
}

// The article's motivation, measured: on the very tick of a teleport,
// reset or skipped update, the finite difference is wrong by the jump / dt
// while the propagated velocity stays what the animation says; on every
// other tick the two agree to within the one-frame finite-difference
// error.
func TestVelocitiesSpikesExactlyAtEvents(t *testing.T) {
	const dt = float32(1.0 / 60)
	l := New()
	l.S.Transition = int32(animsys.TransitionCut)
	l.S.TurnRate = 0
	// A walk at 1.35 m/s with feet decelerating at up to ~40 m/s^2: the
	// previous-frame difference lags by about a dt/2 = 0.33 m/s. 1 m/s is
	// the bound away from events.
	const calm = 1.0
	if m := runTicks(l, 200, dt); m > calm {
		t.Fatalf("steady walk: max |red-blue| %v m/s > %v", m, calm)
	}

	// Teleport: every joint jumps TeleportDist metres.
	before := l.global.Vel[0]
	l.Teleport()
	l.Update(dt)
	jump := l.S.TeleportDist / dt
	if l.Event != "teleport" || l.Max < 0.99*jump || l.Mean < 0.99*jump-calm {
		t.Errorf("teleport tick: mean %v max %v, want about %v m/s", l.Mean, l.Max, jump)
	}
	// The propagated root velocity is the walk's, not the jump's.
	if d := l.global.Vel[0].Sub(before).Len(); d > 0.05 {
		t.Errorf("propagated root velocity changed by %v m/s at the teleport", d)
	}
	if want := float32(1.35); math.Abs(float64(l.global.Vel[0].Len()-want)) > 0.05 {
		t.Errorf("propagated root speed %v, want the walk's %v m/s", l.global.Vel[0].Len(), want)
	}
	if m := runTicks(l, 1, dt); m > calm || l.Event != "" {
		t.Errorf("tick after the teleport: max %v m/s, want <= %v", m, calm)
	}
	runTicks(l, 30, dt)

	// Reset to another clip and time: the pose jumps, the finite
	// difference spikes, the propagated velocities are the new clip's.
	l.Reset()
	l.Update(dt)
	if l.Max < 10 {
		t.Errorf("reset tick: max |red-blue| %v m/s, want a spike > 10", l.Max)
	}
	if m := runTicks(l, 1, dt); m > calm {
		t.Errorf("tick after the reset: max %v m/s", m)
	}
	l.Play(1) // back to walking (a cut)
	runTicks(l, 30, dt)

	// Skipping k updates: the finite difference sees k+1 frames of motion
	// over one dt, so the root's blue velocity is (k+1) times the red.
	l.S.SkipFrames = 5
	l.Skip()
	l.Update(dt)
	red, blue := l.global.Vel[0].Len(), l.fd.Vel[0].Len()
	if math.Abs(float64(blue/red-6)) > 0.1 {
		t.Errorf("skip 5: root |blue|/|red| = %v, want 6", blue/red)
	}
	if m := runTicks(l, 1, dt); m > calm {
		t.Errorf("tick after the skip: max %v m/s", m)
	}
}

// The whole chain is consistent: the propagated velocities are the
// derivatives of what is drawn. The previous-frame finite difference
// errs by about acceleration * dt / 2, so the mean |red - blue| over a
// scripted run with every stage moving (clip transitions of each kind,
// the additive fading, the look-at target moving, the character turning)
// must shrink in proportion to dt: at dt/10 it must be at least 5 times
// smaller (first order, with margin for the float32 floor).
func TestVelocitiesChainConvergesWithDt(t *testing.T) {
	for _, q := range []int32{QWorldLinear, QWorldAngular, QWorldScalar, QLocalAngular, QBKAngular, -1} {
		var means [2]float64
		for k, dt := range []float32{1.0 / 60, 1.0 / 600} {
			l := New()
			l.S.LookAt = true
			l.S.Quantity = q
			if q < 0 {
				// Two-bone IK, whose velocities are a single-frame finite
				// difference over the article's delta: checked on world
				// linear velocity.
				l.S.Quantity, l.S.IK = QWorldLinear, true
			}
			var sum float64
			n := 0
			steps := int(6 / dt)
			for i := 0; i < steps; i++ {
				tm := float32(i) * dt
				switch {
				case i == int(0.5/dt):
					l.S.Additive = true
				case i == int(1.0/dt):
					l.S.Transition = int32(animsys.TransitionBlend)
					l.Play(2)
				case i == int(2.0/dt):
					l.S.Transition = int32(animsys.TransitionCubic)
					l.Play(3)
				case i == int(3.0/dt):
					l.S.Transition = int32(animsys.TransitionSpring)
					l.Play(1)
				case i == int(4.0/dt):
					l.S.Transition = int32(animsys.TransitionDeadBlend)
					l.S.Additive = false
					l.Play(4)
				}
				l.Update(dt)
				if tm > 0.1 {
					sum += float64(l.Mean)
					n++
				}
			}
			means[k] = sum / float64(n)
		}
		name := "with IK, world linear"
		if q >= 0 {
			name = quantityNames[q]
		}
		t.Logf("%s: mean |red-blue| %.5g at 1/60 s, %.5g at 1/600 s (ratio %.1f)", name, means[0], means[1], means[0]/means[1])
		if !(means[1] < means[0]/5) {
			t.Errorf("%s: mean |red-blue| %.5g at 1/60 s but %.5g at 1/600 s: not first order", name, means[0], means[1])
		}
	}
}

// The timeline: a seek is an event the plot marks, the clip speed scales
// how fast the clip's time runs, and the play mode is the lab's.
func TestTimeline(t *testing.T) {
	l := New()
	dt := float32(1.0 / 60)
	for range 10 {
		l.Update(dt)
	}
	timeline := func() app.Timeline {
		tl, ok := l.Timeline()
		if !ok {
			t.Fatal("the Velocities lab shows no timeline")
		}
		return tl
	}
	edit := func(change func(e *app.TimelineEdit)) {
		tl := timeline()
		e := app.TimelineEdit{Mode: tl.Mode, Speed: tl.Speed, Seek: -1}
		change(&e)
		l.EditTimeline(e)
	}
	tl := timeline()
	if tl.Clip != l.clips[l.cur].Name || !(tl.Length > 0) || tl.Speed != 1 || tl.Mode != animsys.PlayLoop {
		t.Fatalf("timeline %+v", tl)
	}
	edit(func(e *app.TimelineEdit) { e.Seek = tl.Length / 2 })
	l.Update(dt)
	if l.Event != "scrub" {
		t.Errorf("the update after a seek has event %q, want scrub", l.Event)
	}
	if got := timeline().Time; got < tl.Length/2 || got > tl.Length/2+2*dt {
		t.Errorf("after seeking to %.3f s the clip is at %.3f s", tl.Length/2, got)
	}
	l.Update(dt)
	if l.Event != "" {
		t.Errorf("the next update has event %q", l.Event)
	}
	before := timeline().Time
	edit(func(e *app.TimelineEdit) { e.Speed = 2 })
	l.Update(dt)
	if got := timeline().Time - before; got < 1.9*dt || got > 2.1*dt {
		t.Errorf("at clip speed 2 one tick of %.4f s moved the clip %.4f s", dt, got)
	}
	edit(func(e *app.TimelineEdit) { e.Speed = 99 })
	if l.S.ClipSpeed != app.MaxClipSpeed {
		t.Errorf("clip speed 99 kept as %v", l.S.ClipSpeed)
	}
	edit(func(e *app.TimelineEdit) { e.Mode = animsys.PlayPingPong })
	edit(func(e *app.TimelineEdit) { e.Mode = animsys.PlayMode(9) })
	if timeline().Mode != animsys.PlayPingPong {
		t.Errorf("play mode %v after ping-pong and a bad mode", timeline().Mode)
	}
}
