package springs

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/internal/apptest"
)

// randomizeSprings moves one setting to one of its extremes.
func randomizeSprings(r *rand.Rand, l *Lab) {
	s := &l.S
	switch r.Intn(12) {
	case 0:
		s.Goal = int32(r.Intn(3))
	case 1:
		s.Auto = !s.Auto
	case 2:
		s.Period, s.Amplitude = apptest.PickOne[float32](r, 0, 0.2, 2, 5), apptest.PickOne[float32](r, 0, 0.1, 1, 2)
	case 3:
		s.RampTime = apptest.PickOne[float32](r, 0, 0.05, 3)
	case 4:
		s.DamperHalflife, s.CriticalHalflife = apptest.PickOne[float32](r, 0, 1e-9, 0.2, 1), apptest.PickOne[float32](r, 0, 1e-9, 0.2, 1)
	case 5:
		s.Frequency = apptest.PickOne[float32](r, 0, 1e-6, 1, 4, 100)
	case 6:
		s.Ratio = apptest.PickOne[float32](r, 0, 0.25, 0.999, 1, 1.001, 3)
	case 7:
		s.GoalVel = !s.GoalVel
	case 8:
		s.DecayHalflife = apptest.PickOne[float32](r, 0, 1e-9, 0.2, 1)
	case 9:
		if r.Intn(2) == 0 {
			l.Step()
		} else {
			l.Ramp()
		}
	case 10: // a mouse drag in the top plot
		l.draw.Down = r.Intn(2) == 0
		l.draw.Pressed = l.draw.Down
		l.draw.Value = apptest.PickOne[float32](r, -2, 0, 2, 1e3)
	case 11:
		s.Window, s.HoldPlot = apptest.PickOne[float32](r, 1, 6, 20), r.Intn(2) == 0
		s.Show[r.Intn(numSprings)] = r.Intn(2) == 0
	}
}

// TestSpringsStress ticks the lab headless with settings jumping to their
// extremes and dt from 0 to 2 s: every state and CSV value stays finite.
func TestSpringsStress(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	l := New()
	header := l.CSVHeader()
	var rows [][]string
	var maxAbs float64
	jumps := 0
	const ticks = 20000
	for i := 0; i < ticks; i++ {
		if r.Intn(8) == 0 {
			randomizeSprings(r, l)
		}
		dt := apptest.PickOne(r, apptest.StressDts...)
		if r.Intn(2) == 0 {
			dt = r.Float32() * 0.5
		}
		l.Update(dt)
		if l.Jumped {
			jumps++
		}
		if rows = l.CSVRows(rows[:0]); len(rows) != 1 {
			t.Fatalf("tick %d: %d CSV rows, want one per update", i, len(rows))
		}
		for _, x := range apptest.ParseCSVRow(t, header, rows[0]) {
			maxAbs = max(maxAbs, math.Abs(x))
		}
		if !mathx.Finite(l.decOff) || !mathx.Finite(l.decVel) {
			t.Fatalf("tick %d: decay offset not finite", i)
		}
	}
	t.Logf("%d ticks, %d goal jumps: every value finite; largest |CSV value| %.3g", ticks, jumps, maxAbs)
}

// TestSpringsCSVMatchesSpring replays the CSV's goal columns through the
// spring package's functions called directly: every spring's x and v must
// equal the lab's bit for bit, in each goal motion and damping regime,
// under a jittered dt.
func TestSpringsCSVMatchesSpring(t *testing.T) {
	want := []string{"t_s", "goal_m", "goal_v_m_per_s", "damper_x_m", "damper_v_m_per_s", "critical_x_m", "critical_v_m_per_s",
		"spring_x_m", "spring_v_m_per_s", "decay_x_m", "decay_v_m_per_s", "dt_s", "jump"}
	for _, tc := range []struct {
		goal    int32
		ratio   float32
		goalVel bool
	}{
		{GoalSteps, 0.25, false}, {GoalRamps, 1, true}, {GoalSine, 2, true}, {GoalRamps, 0, false},
	} {
		l := New()
		l.S.Goal, l.S.Ratio, l.S.GoalVel, l.S.Period = tc.goal, tc.ratio, tc.goalVel, 1.3
		if got := l.CSVHeader(); !slices.Equal(got, want) {
			t.Fatalf("CSV header %v, want %v", got, want)
		}
		s := &l.S
		stiffness := spring.FrequencyToStiffness(s.Frequency)
		damping := s.Ratio * 2 * float32(math.Sqrt(float64(stiffness)))
		var x, v [numSprings]float32
		for i := range x {
			x[i] = l.goal
		}
		var off, offVel float32
		r := rand.New(rand.NewSource(int64(tc.goal)))
		jumps := 0
		for i := 0; i < 3000; i++ {
			dt := float32(1.0/60) * (0.2 + 1.6*r.Float32())
			l.Update(dt)
			f := apptest.ParseCSVRow(t, want, l.CSVRows(nil)[0])
			g, gv, jump := float32(f[1]), float32(f[2]), f[12] == 1
			q := float32(0)
			if tc.goalVel {
				q = gv
			}
			x0 := x[SprDamper]
			x[SprDamper] = spring.DamperExact(x0, g, s.DamperHalflife, dt)
			v[SprDamper] = float32((float64(x[SprDamper]) - float64(x0)) / float64(dt))
			x[SprCritical], v[SprCritical] = spring.CriticalSpringDamperExact(x[SprCritical], v[SprCritical], g, q, s.CriticalHalflife, dt)
			x[SprGeneral], v[SprGeneral] = spring.SpringDamperExact(x[SprGeneral], v[SprGeneral], g, q, stiffness, damping, dt)
			if jump {
				jumps++
				off, offVel = x[SprDecay]-g, v[SprDecay]-gv
			}
			off, offVel = spring.DecaySpringDamperExact(off, offVel, s.DecayHalflife, dt)
			x[SprDecay], v[SprDecay] = g+off, gv+offVel
			for k := range numSprings {
				if float32(f[3+2*k]) != x[k] || float32(f[4+2*k]) != v[k] {
					t.Fatalf("goal %d ratio %v: tick %d: %s (x, v) = (%v, %v) in the CSV, (%v, %v) from the spring package",
						tc.goal, tc.ratio, i, springIDs[k], f[3+2*k], f[4+2*k], x[k], v[k])
				}
			}
		}
		if tc.goal != GoalSine && jumps < 10 {
			t.Fatalf("goal %d: only %d jumps", tc.goal, jumps)
		}
		t.Logf("goal motion %d, damping ratio %v: 3000 jittered ticks, %d goal events, all four springs equal the spring functions exactly", tc.goal, tc.ratio, jumps)
	}
}

// stepResponse runs one step of the goal from -1 to +1 at rate hz and
// returns the general spring's and the others' positions every 1/30 s
// for 3 s.
func stepResponse(ratio float32, hz int) (x [numSprings][]float32) {
	l := New()
	l.S.Auto, l.S.Ratio = false, ratio
	l.Step() // -1 -> +1
	every := hz / 30
	for i := 1; i <= 3*hz; i++ {
		l.Update(1 / float32(hz))
		if i%every == 0 {
			for k := range numSprings {
				x[k] = append(x[k], l.x[k])
			}
		}
	}
	return x
}

// TestSpringsRegimesAndDtInvariance: after a step the general spring
// overshoots as theory says in each regime (exp(-pi z / sqrt(1 - z^2))
// under-damped, none at or above critical), and every spring's response
// to a held goal is the same ticked at 30 or 240 Hz.
func TestSpringsRegimesAndDtInvariance(t *testing.T) {
	for _, ratio := range []float32{0.25, 0.5, 1, 2} {
		x := stepResponse(ratio, 240)[SprGeneral]
		peak := slices.Max(x)
		over := float64(peak-1) / 2 // fraction of the 2 m step
		want := 0.0
		if ratio < 1 {
			z := float64(ratio)
			want = math.Exp(-math.Pi * z / math.Sqrt(1-z*z))
		}
		t.Logf("damping ratio %.2f (%s): overshoot %.2f%% of the step, theory %.2f%%", ratio, springRegime(ratio), 100*over, 100*want)
		if math.Abs(over-want) > 0.01 {
			t.Errorf("damping ratio %v: overshoot %.4f, want %.4f", ratio, over, want)
		}
	}
	lo, hi := stepResponse(0.25, 30), stepResponse(0.25, 240)
	for k := range numSprings {
		worst := 0.0
		for i := range lo[k] {
			worst = max(worst, math.Abs(float64(lo[k][i])-float64(hi[k][i])))
		}
		t.Logf("%s: largest |x(30 Hz) - x(240 Hz)| after a step %.2g m", springIDs[k], worst)
		if worst > 1e-4 {
			t.Errorf("%s: not dt-invariant for a held goal: 30 Hz and 240 Hz differ by %.3g m", springIDs[k], worst)
		}
	}
}

// TestSpringsCheckSettings: settings read from a file land where the
// panel's sliders can show them, through the one slider table (the
// damping ratio's captioned slider too), and the goal motion within its
// options; settings already inside stay bit for bit.
func TestSpringsCheckSettings(t *testing.T) {
	nan := float32(math.NaN())
	l := New()
	apptest.CheckSettings(t, &l.S, l.CheckSettings, []apptest.SettingCase[Settings]{
		apptest.Case("Period 0", func(s *Settings) { s.Period = 0 }, func(s *Settings) float32 { return s.Period }, 0.2),
		apptest.Case("Amplitude 9", func(s *Settings) { s.Amplitude = 9 }, func(s *Settings) float32 { return s.Amplitude }, 2),
		apptest.Case("Ramp time NaN", func(s *Settings) { s.RampTime = nan }, func(s *Settings) float32 { return s.RampTime }, 0.05),
		apptest.Case("Damping 7", func(s *Settings) { s.Ratio = 7 }, func(s *Settings) float32 { return s.Ratio }, 3),
		apptest.Case("Damping -1", func(s *Settings) { s.Ratio = -1 }, func(s *Settings) float32 { return s.Ratio }, 0),
		apptest.Case("Damping 1.5", func(s *Settings) { s.Ratio = 1.5 }, func(s *Settings) float32 { return s.Ratio }, 1.5),
		apptest.Case("Decay h-l 2", func(s *Settings) { s.DecayHalflife = 2 }, func(s *Settings) float32 { return s.DecayHalflife }, 1),
		apptest.Case("Window 0", func(s *Settings) { s.Window = 0 }, func(s *Settings) float32 { return s.Window }, 1),
		apptest.Case("Goal 5", func(s *Settings) { s.Goal = 5 }, func(s *Settings) float32 { return float32(s.Goal) }, GoalSine),
	})
}
