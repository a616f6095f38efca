package tracking

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
	"kinelab/internal/apptest"
	"kinelab/internal/fixture"
)

// randomizeTracking moves one setting to one of its extremes (or a
// typical value), as a user dragging sliders to their ends would.
func randomizeTracking(r *rand.Rand, l *Lab) {
	s := &l.S
	switch r.Intn(20) {
	case 0:
		s.Signal = int32(r.Intn(3))
	case 1:
		s.SwitchPeriod = apptest.PickOne[float32](r, 0, 1e-6, 2, 5)
	case 2:
		s.JumpRate, s.JumpSize = apptest.PickOne[float32](r, 0, 0.6, 4, 1e3), apptest.PickOne[float32](r, 0, 0.8, 2)
	case 3:
		s.PlainHalflife = apptest.PickOne[float32](r, 0, 1e-9, 0.05, 0.5)
	case 4:
		s.XGain = apptest.PickOne[float32](r, 0, 1e-4, 0.01, 1)
	case 5:
		s.VGain = apptest.PickOne[float32](r, 0, 1e-4, 0.2, 1)
	case 6:
		s.AGain = apptest.PickOne[float32](r, 0, 1, 0.5)
	case 7:
		s.GainDt = apptest.PickOne[float32](r, 1.0/240, 1.0/60, 0.1)
	case 8:
		s.XHalflife = apptest.PickOne[float32](r, 0, 1e-9, 1, 3)
	case 9:
		s.VHalflife = apptest.PickOne[float32](r, 0, 1e-9, 0.05, 0.5)
	case 10:
		s.AHalflife = apptest.PickOne[float32](r, 0, 1e-9, 0.5)
	case 11:
		s.KnownCuts = !s.KnownCuts
	case 12:
		s.Clip = !s.Clip
	case 13:
		s.MaxVel, s.MaxAcc = apptest.PickOne[float32](r, 0.1, 3, 20), apptest.PickOne[float32](r, 1, 20, 200)
	case 14:
		s.CharVariant = int32(r.Intn(numVariants))
	case 15:
		s.CharClip = int32(r.Intn(len(l.char.clips)))
	case 16:
		s.CutEvery, s.CutSkip = apptest.PickOne[float32](r, 0, 1e-6, 1.5, 5), apptest.PickOne[float32](r, 0, 0.35, 1)
	case 17:
		l.Jump()
		l.CutCharacter()
	case 18: // a mouse drag in the top plot
		l.draw.Down = r.Intn(2) == 0
		l.draw.Pressed = l.draw.Down
		l.draw.Value = apptest.PickOne[float32](r, -2, 0, 2, 1e3)
	case 19:
		s.Window, s.HoldPlot = apptest.PickOne[float32](r, 1, 6, 20), r.Intn(2) == 0
		s.Show[r.Intn(numVariants)] = r.Intn(2) == 0
	}
}

// TestTrackingStress ticks the lab headless with settings jumping to
// their extremes and dt from 0 to 2 s: every state and CSV value stays
// finite.
func TestTrackingStress(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	l := New()
	l.Configure(app.Config{Seed: 42})
	header := l.CSVHeader()
	var rows [][]string
	var maxAbs float64
	const ticks = 20000
	for i := 0; i < ticks; i++ {
		if r.Intn(8) == 0 {
			randomizeTracking(r, l)
		}
		dt := apptest.PickOne(r, apptest.StressDts...)
		if r.Intn(2) == 0 {
			dt = r.Float32() * 0.5
		}
		l.Update(dt)
		if rows = l.CSVRows(rows[:0]); len(rows) != 1 {
			t.Fatalf("tick %d: %d CSV rows, want one per update", i, len(rows))
		}
		for _, x := range apptest.ParseCSVRow(t, header, rows[0]) {
			maxAbs = max(maxAbs, math.Abs(x))
		}
		c := l.char
		for j := range c.filt.Rot {
			if !mathx.QuatFinite(c.filt.Rot[j]) || !mathx.Vec3Finite(c.filt.Pos[j]) || !mathx.Vec3Finite(c.filtG.Pos[j]) ||
				!mathx.Vec3Finite(c.rot[j].w) || !mathx.Vec3Finite(c.pos[j].w) {
				t.Fatalf("tick %d: character joint %d is not finite (settings %+v)", i, j, l.S)
			}
		}
		if !mathx.Finite(c.MeanDeg) || !mathx.Finite(c.MaxDeg) || !mathx.Finite(l.input) {
			t.Fatalf("tick %d: readouts not finite", i)
		}
	}
	t.Logf("%d ticks, %d discontinuities: every value finite; largest |CSV value| %.3g", ticks, l.cuts, maxAbs)
}

// cutFeed is spring.CutTracker's feeding rule written out from its
// documentation, so the test checks that the lab drives the trackers as
// the article does: position only after a cut, then without acceleration,
// then all three finite-difference targets.
type cutFeed struct {
	curr, vCurr float32
	clean       int
	started     bool
}

func (c *cutFeed) targets(next float32, cut bool, dt, maxVel, maxAcc float32) (clean int, vGoal, aGoal float32) {
	if cut || !c.started {
		c.clean = 0
	} else if c.clean < 2 {
		c.clean++
	}
	vGoal = spring.ClipTarget(spring.TrackingTargetVelocity(next, c.curr, dt), maxVel)
	aGoal = spring.ClipTarget(spring.TrackingTargetVelocity(vGoal, c.vCurr, dt), maxAcc)
	c.curr, c.vCurr, c.started = next, vGoal, true
	return c.clean, vGoal, aGoal
}

// TestTrackingCSVMatchesSpring replays the CSV's input column through the
// spring package's functions called directly: every variant's x and v
// must equal the lab's bit for bit, with known cuts and with clipping,
// under a jittered dt.
func TestTrackingCSVMatchesSpring(t *testing.T) {
	want := []string{"t_s", "input_m", "plain_x_m", "plain_v_m_per_s", "lerp_x_m", "lerp_v_m_per_s",
		"halflife_x_m", "halflife_v_m_per_s", "exact_x_m", "exact_v_m_per_s", "dt_s", "cut"}
	for _, tc := range []struct {
		name          string
		signal        int32
		known, clip   bool
		gainDt, xHalf float32
	}{
		{"switch, known cuts", SignalSwitch, true, false, 1.0 / 60, 1},
		{"jumps, unknown cuts", SignalJumps, false, false, 1.0 / 30, 0.5},
		{"jumps, clipped", SignalJumps, false, true, 1.0 / 120, 2},
	} {
		l := New()
		l.Configure(app.Config{Seed: 3})
		l.S.Signal, l.S.KnownCuts, l.S.Clip, l.S.GainDt, l.S.XHalflife = tc.signal, tc.known, tc.clip, tc.gainDt, tc.xHalf
		l.S.SwitchPeriod, l.S.JumpRate = 0.7, 2
		if got := l.CSVHeader(); !slices.Equal(got, want) {
			t.Fatalf("CSV header %v, want %v", got, want)
		}
		s := &l.S
		r := rand.New(rand.NewSource(11))
		var feeds [numVariants]cutFeed // zero, like the lab's CutTrackers
		plainX, plainV := l.input, float32(0)
		var x, vel [numVariants]float32
		for v := range x {
			x[v] = l.input
		}
		maxVel, maxAcc := s.clipLimits()
		n, cuts, worst := 3000, 0, 0.0
		for i := 0; i < n; i++ {
			dt := float32(1.0/60) * (0.2 + 1.6*r.Float32())
			l.Update(dt)
			f := apptest.ParseCSVRow(t, want, l.CSVRows(nil)[0])
			in, cut := float32(f[1]), f[11] == 1
			if float32(f[10]) != dt {
				t.Fatalf("%s: tick %d: dt_s %v, want %v", tc.name, i, f[10], dt)
			}
			if cut {
				cuts++
			}
			known := cut && tc.known
			plainX, plainV = spring.SimpleSpringDamperExact(plainX, plainV, in, s.PlainHalflife, dt)
			for v := VarLerp; v < numVariants; v++ {
				clean, vg, ag := feeds[v].targets(in, known, dt, maxVel, maxAcc)
				switch {
				case v == VarLerp && clean == 0:
					x[v], vel[v] = spring.TrackingSpringUpdateNoVelocityAcceleration(x[v], vel[v], in, s.XGain, dt)
				case v == VarLerp && clean == 1:
					x[v], vel[v] = spring.TrackingSpringUpdateNoAcceleration(x[v], vel[v], in, vg, s.XGain, s.VGain, dt)
				case v == VarLerp:
					x[v], vel[v] = spring.TrackingSpringUpdate(x[v], vel[v], in, vg, ag, s.XGain, s.VGain, s.AGain, dt)
				case v == VarHalflife && clean == 0:
					x[v], vel[v] = spring.TrackingSpringUpdateImprovedNoVelocityAcceleration(x[v], vel[v], in, s.XHalflife, dt)
				case v == VarHalflife && clean == 1:
					x[v], vel[v] = spring.TrackingSpringUpdateImprovedNoAcceleration(x[v], vel[v], in, vg, s.XHalflife, s.VHalflife, dt)
				case v == VarHalflife:
					x[v], vel[v] = spring.TrackingSpringUpdateImproved(x[v], vel[v], in, vg, ag, s.XHalflife, s.VHalflife, s.AHalflife, dt)
				case clean == 0:
					x[v], vel[v] = spring.TrackingSpringUpdateNoVelocityAccelerationExact(x[v], vel[v], in, s.XGain, dt, s.GainDt)
				case clean == 1:
					x[v], vel[v] = spring.TrackingSpringUpdateNoAccelerationExact(x[v], vel[v], in, vg, s.XGain, s.VGain, dt, s.GainDt)
				default:
					x[v], vel[v] = spring.TrackingSpringUpdateExact(x[v], vel[v], in, vg, ag, s.XGain, s.VGain, s.AGain, dt, s.GainDt)
				}
			}
			x[VarPlain], vel[VarPlain] = plainX, plainV
			for v := range numVariants {
				gx, gv := float32(f[2+2*v]), float32(f[3+2*v])
				if gx != x[v] || gv != vel[v] {
					t.Fatalf("%s: tick %d: %s (x, v) = (%v, %v) in the CSV, (%v, %v) from the spring package",
						tc.name, i, trackVariantIDs[v], gx, gv, x[v], vel[v])
				}
				worst = max(worst, math.Abs(float64(x[v])-float64(in)))
			}
		}
		if cuts < 5 {
			t.Fatalf("%s: only %d discontinuities in %d ticks; the test needs some", tc.name, cuts, n)
		}
		t.Logf("%s: %d ticks, %d cuts: all four variants equal the spring functions exactly (largest |x - input| %.3f m)", tc.name, n, cuts, worst)
	}
}

// runTrackingAt ticks a lab with one manual discontinuity at t = 1 s at a
// fixed dt up to 3 s, and returns each variant's x sampled every 1/30 s.
func runTrackingAt(dt float32) (x [numVariants][]float32) {
	l := New()
	l.S.SwitchPeriod = 0
	n := int(math.Round(3 / float64(dt)))
	every := int(math.Round(1.0 / 30 / float64(dt)))
	for i := 1; i <= n; i++ {
		if i == int(math.Round(1/float64(dt))) {
			l.Jump()
		}
		l.Update(dt)
		if i%every == 0 {
			for v := range numVariants {
				xv, _ := l.Output(v)
				x[v] = append(x[v], xv)
			}
		}
	}
	return x
}

// TestTrackingDtInvariance measures what the lab is for: ticked at 30 Hz
// and at 240 Hz through the same jump, the exact spring's outputs agree
// far better than the lerp-gain spring's (whose gains are per tick).
func TestTrackingDtInvariance(t *testing.T) {
	lo, hi := runTrackingAt(1.0/30), runTrackingAt(1.0/240)
	var diff [numVariants]float64
	for v := range numVariants {
		for k := range lo[v] {
			diff[v] = max(diff[v], math.Abs(float64(lo[v][k])-float64(hi[v][k])))
		}
	}
	t.Logf("largest |x(30 Hz) - x(240 Hz)| through a 1.1 m jump: plain %.4f m, lerp %.4f m, half-life %.4f m, exact %.4f m",
		diff[VarPlain], diff[VarLerp], diff[VarHalflife], diff[VarExact])
	if !(diff[VarExact] < diff[VarLerp]/4) {
		t.Errorf("exact spring differs by %.4f m between tick rates, lerp by %.4f m: want exact < lerp/4", diff[VarExact], diff[VarLerp])
	}
	if !(diff[VarHalflife] < diff[VarLerp]) {
		t.Errorf("half-life spring differs by %.4f m between tick rates, lerp by %.4f m: want it less dt-dependent", diff[VarHalflife], diff[VarLerp])
	}
}

// TestTrackingVecTrackIsScalar: a joint turning about one fixed axis is a
// scalar stream (its angle), so the lab's vector tracker on rotations must
// reproduce the scalar spring package trackers fed through a CutTracker —
// a check of the tangent-space construction.
func TestTrackingVecTrackIsScalar(t *testing.T) {
	s := DefaultSettings()
	axis := mgl32.Vec3{0.48, 0.6, 0.64}
	angle := func(tm float32) float32 {
		a := 0.8 * float32(math.Sin(float64(2.3*tm)))
		if math.Mod(float64(tm), 1) > 0.5 { // a cut every half second
			a += 0.9
		}
		return a
	}
	for kind := int32(VarLerp); kind < numVariants; kind++ {
		var vt vecTrack
		q, prev := mathx.QuatFromScaledAngleAxis(axis.Mul(angle(0))), mathx.QuatFromScaledAngleAxis(axis.Mul(angle(0)))
		filters := [numVariants]spring.TrackingFilter{
			VarLerp:     &spring.Tracker{X: angle(0), XGain: s.XGain, VGain: s.VGain, AGain: s.AGain},
			VarHalflife: &spring.HalflifeTracker{X: angle(0), XHalflife: s.XHalflife, VHalflife: s.VHalflife, AHalflife: s.AHalflife},
			VarExact:    &spring.ExactTracker{X: angle(0), XGain: s.XGain, VGain: s.VGain, AGain: s.AGain, GainDt: s.GainDt},
		}
		var feed spring.CutTracker
		var tm float32
		worst := 0.0
		for i := 0; i < 400; i++ {
			dt := float32(1.0/60) * (0.5 + float32(i%7)/6)
			cut := math.Floor(float64(2*(tm+dt))) != math.Floor(float64(2*tm)) || i == 0
			tm += dt
			next := mathx.QuatFromScaledAngleAxis(axis.Mul(angle(tm)))
			vGoal := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(next, prev))).Mul(1 / dt)
			e := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(next, q)))
			q = mathx.QuatNormalize(mathx.QuatMul(mathx.QuatFromScaledAngleAxis(vt.step(&s, kind, e, vGoal, cut, 0, 0, dt)), q))
			prev = next
			feed.Update(filters[kind], angle(tm), cut, dt)

			var want float32
			switch f := filters[kind].(type) {
			case *spring.Tracker:
				want = f.X
			case *spring.HalflifeTracker:
				want = f.X
			case *spring.ExactTracker:
				want = f.X
			}
			d := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(q, mathx.QuatFromScaledAngleAxis(axis.Mul(want))))).Len()
			worst = max(worst, float64(d))
		}
		if worst > 2e-4 {
			t.Errorf("%s: the rotation tracker strays %.2g rad from the scalar one", trackVariantIDs[kind], worst)
		}
		t.Logf("%s: rotation tracker within %.2g rad of the scalar tracker over 400 jittered ticks with cuts", trackVariantIDs[kind], worst)
	}
}

// TestTrackingCharacterCuts: with known cuts the filtered character
// turns far less in the tick of a cut than the raw one, and with no cuts
// it converges back onto the clip: exactly for the lerp and half-life
// springs at the tick their gains are for, and to its steady lag for the
// exact one (which the article notes does not track pixel-perfectly).
func TestTrackingCharacterCuts(t *testing.T) {
	for kind := int32(VarLerp); kind < numVariants; kind++ {
		l := New()
		l.S.CharVariant, l.S.CutEvery = kind, 0
		for i := 0; i < 3*60; i++ {
			l.Update(1.0 / 60)
		}
		c := l.char
		before := c.MaxDeg
		rawBefore, filtBefore := slices.Clone(c.raw.Rot), slices.Clone(c.filt.Rot)
		l.CutCharacter()
		l.Update(1.0 / 60)
		var rawJump, filtJump float32
		for j := 1; j < len(rawBefore); j++ {
			rawJump = max(rawJump, mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.raw.Rot[j], rawBefore[j]))).Len())
			filtJump = max(filtJump, mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.filt.Rot[j], filtBefore[j]))).Len())
		}
		peak := c.MaxDeg
		for i := 0; i < 5*60; i++ {
			l.Update(1.0 / 60)
			peak = max(peak, c.MaxDeg)
		}
		deg := func(r float32) float32 { return r * 180 / math.Pi }
		t.Logf("%s: largest offset from the clip before the cut %.3f deg; in the cut's tick the raw joints turn up to %.1f deg, the filtered ones %.2f deg; the offset peaks at %.1f deg and 5 s later is %.3f deg (mean %.4f)",
			trackVariantIDs[kind], before, deg(rawJump), deg(filtJump), peak, c.MaxDeg, c.MeanDeg)
		if !(filtJump < rawJump/5) {
			t.Errorf("%s: filtered joints jump %.1f deg at the cut, raw %.1f deg", trackVariantIDs[kind], deg(filtJump), deg(rawJump))
		}
		if !(c.MaxDeg < 2*before+0.05) {
			t.Errorf("%s: 5 s after the cut the filtered character is %.2f deg off the clip, %.2f deg before it", trackVariantIDs[kind], c.MaxDeg, before)
		}
	}
}

// TestTrackingLoadedCharacter: a character loaded from BVH (a synthetic
// LAFAN1 file: bones along X, six channels) is the one filtered across its
// clip's cuts: in the tick of a cut its filtered joints turn far less
// than the raw ones, the two stand apart, and everything stays finite.
func TestTrackingLoadedCharacter(t *testing.T) {
	ch := apptest.FixtureCharacter(t, fixture.LAFAN1())
	l := New()
	l.SetCharacter(ch)
	l.S.CutEvery = 0
	for i := 0; i < 60; i++ {
		l.Update(1.0 / 60)
	}
	c := l.char
	if c.skel.Len() != ch.Skel.Len() || c.top != ch.Head {
		t.Fatalf("the lab filters %d joints (top %d), the character has %d (head %d)", c.skel.Len(), c.top, ch.Skel.Len(), ch.Head)
	}
	rawBefore, filtBefore := slices.Clone(c.raw.Rot), slices.Clone(c.filt.Rot)
	l.CutCharacter()
	l.Update(1.0 / 60)
	var rawJump, filtJump float32
	for j := 1; j < len(rawBefore); j++ {
		rawJump = max(rawJump, mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.raw.Rot[j], rawBefore[j]))).Len())
		filtJump = max(filtJump, mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.filt.Rot[j], filtBefore[j]))).Len())
	}
	if !(rawJump > 0.05 && filtJump < rawJump/5) {
		t.Errorf("at the cut the raw joints turn %.3f rad, the filtered ones %.3f rad", rawJump, filtJump)
	}
	for i := 0; i < 120; i++ {
		l.Update(1.0 / 60)
		if !apptest.PoseFinite(&c.filtG) {
			t.Fatalf("tick %d: filtered pose not finite", i)
		}
	}
	if d := c.rawG.Pos[ch.Hips].Sub(c.filtG.Pos[ch.Hips]).Len(); d < 0.9 {
		t.Errorf("raw and filtered hips %.2f m apart", d)
	}
}

// TestTrackingCheckSettings: settings read from a file land where the
// panel's sliders can show them, through the one slider table: plain
// sliders clamp to their ends, the log gain sliders to gains in [0, 1]
// (a gain below the slider's 1e-4 end is kept, as the slider's 0 is a
// gain of 0), the Gain dt slider (in Hz) to ticks of 1/240 to 1/10 s, and
// the choices to their options; settings already inside stay bit for bit.
func TestTrackingCheckSettings(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	l := New()
	apptest.CheckSettings(t, &l.S, l.CheckSettings, []apptest.SettingCase[Settings]{
		apptest.Case("Swap every 9", func(s *Settings) { s.SwitchPeriod = 9 }, func(s *Settings) float32 { return s.SwitchPeriod }, 5),
		apptest.Case("Swap every NaN", func(s *Settings) { s.SwitchPeriod = nan }, func(s *Settings) float32 { return s.SwitchPeriod }, 0),
		apptest.Case("Max vel 0", func(s *Settings) { s.MaxVel = 0 }, func(s *Settings) float32 { return s.MaxVel }, 0.1),
		apptest.Case("Window 100", func(s *Settings) { s.Window = 100 }, func(s *Settings) float32 { return s.Window }, 20),
		apptest.Case("x gain 5", func(s *Settings) { s.XGain = 5 }, func(s *Settings) float32 { return s.XGain }, 1),
		apptest.Case("x gain +Inf", func(s *Settings) { s.XGain = inf }, func(s *Settings) float32 { return s.XGain }, 1),
		apptest.Case("v gain -1", func(s *Settings) { s.VGain = -1 }, func(s *Settings) float32 { return s.VGain }, 0),
		apptest.Case("v gain NaN", func(s *Settings) { s.VGain = nan }, func(s *Settings) float32 { return s.VGain }, 0),
		apptest.Case("v gain 0", func(s *Settings) { s.VGain = 0 }, func(s *Settings) float32 { return s.VGain }, 0),
		apptest.Case("x gain 5e-5", func(s *Settings) { s.XGain = 5e-5 }, func(s *Settings) float32 { return s.XGain }, 5e-5),
		apptest.Case("x gain 0.01", func(s *Settings) { s.XGain = 0.01 }, func(s *Settings) float32 { return s.XGain }, 0.01),
		apptest.Case("Gain dt 0", func(s *Settings) { s.GainDt = 0 }, func(s *Settings) float32 { return s.GainDt }, 1.0/240),
		apptest.Case("Gain dt 1", func(s *Settings) { s.GainDt = 1 }, func(s *Settings) float32 { return s.GainDt }, 0.1),
		apptest.Case("Gain dt 1/30", func(s *Settings) { s.GainDt = 1.0 / 30 }, func(s *Settings) float32 { return s.GainDt }, 1.0/30),
		apptest.Case("Signal 7", func(s *Settings) { s.Signal = 7 }, func(s *Settings) float32 { return float32(s.Signal) }, SignalDrawn),
		apptest.Case("CharVariant -3", func(s *Settings) { s.CharVariant = -3 }, func(s *Settings) float32 { return float32(s.CharVariant) }, VarPlain),
		apptest.Case("CharClip 99", func(s *Settings) { s.CharClip = 99 }, func(s *Settings) float32 { return float32(s.CharClip) }, float32(len(l.char.clips)-1)),
	})
}

// TestTrackingDefaultCharacterApart: the default character and its
// filtered twin stand 1 m apart, as they always have (the screenshots'
// layout); only a loaded human is spread by its arm span.
func TestTrackingDefaultCharacterApart(t *testing.T) {
	if c := New().char; c.apart != 1 {
		t.Errorf("default character: %.3f m apart, want 1", c.apart)
	}
}
