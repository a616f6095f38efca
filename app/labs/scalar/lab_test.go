package scalar

import (
	"io"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
	"kinelab/internal/apptest"
)

// randomizeScalar moves one of the lab's controls, mostly to an end of
// its slider's range.
func randomizeScalar(r *rand.Rand, l *Lab) {
	end := func(lo, hi float32) float32 { return apptest.SliderEnd(r, lo, hi) }
	s := &l.S
	switch r.Intn(16) {
	case 0:
		s.GrowTime = end(0.5, 10)
	case 1:
		s.Alpha, s.AnimAlpha = end(0, 1), r.Intn(2) == 0
	case 2:
		s.Base2Vel = end(-4, 4)
	case 3:
		s.Halflife = end(0, 1)
	case 4:
		s.OscAmp = end(0, 3)
	case 5:
		s.OscFreq = end(0, 2)
	case 6:
		s.RootSpin = end(-3, 3)
	case 7:
		s.ElbowSpin = end(-3, 3)
	case 8:
		s.LineScale = end(0.02, 1)
	case 9:
		s.Source = int32(r.Intn(2))
	case 10:
		l.ScaleGoalBy(apptest.PickOne[float32](r, 4, 0.25))
	case 11:
		l.TurnGoal(apptest.PickOne[float32](r, math.Pi/2, math.Pi))
	case 12:
		l.RandomTurnGoal()
	case 13:
		s.Plot = int32(r.Intn(len(scalarPlotNames)))
	default:
		keys := l.Keys()
		keys[r.Intn(len(keys))].Action()
	}
}

// TestScalarStress runs the lab for thousands of updates with random dt
// (zero, tiny, up to 0.5 s) and random controls at their extremes:
// everything it computes stays finite and the scales stay positive.
func TestScalarStress(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	l := New()
	l.Configure(app.Config{Seed: 9})
	header := l.CSVHeader()
	var rows [][]string
	for i := 0; i < 6000; i++ {
		if r.Intn(4) == 0 {
			randomizeScalar(r, l)
		}
		dt := apptest.StressDtsToHalfSecond[r.Intn(len(apptest.StressDtsToHalfSecond))]
		if r.Intn(5) == 0 {
			dt = r.Float32() * 0.5
		}
		l.Update(dt)
		if rows = l.CSVRows(rows[:0]); len(rows) != 1 {
			t.Fatalf("update %d: %d CSV rows, want 1", i, len(rows))
		}
		v := apptest.ParseCSVRow(t, header, rows[0])
		for k, h := range header {
			if strings.Contains(h, "scale") && !strings.Contains(h, "/s") && !(v[k] > 0) {
				t.Fatalf("update %d (dt %g): %s = %g, want > 0", i, dt, h, v[k])
			}
		}
		for _, p := range []*animsys.Pose{&l.hier.local, &l.hier.global, &l.hier.prev, &l.hier.fd, &l.hier.noExp} {
			if !apptest.PoseFinite(p) {
				t.Fatalf("update %d (dt %g): a hierarchy pose is not finite", i, dt)
			}
		}
		if !mathx.QuatFinite(l.springs.QuatX) || !mathx.QuatFinite(l.springs.QuatGoal) || !mathx.Vec3Finite(l.springs.QuatV) {
			t.Fatalf("update %d (dt %g): quaternion spring not finite", i, dt)
		}
		if l.base2.Scale < scalarFrom*0.999 || l.base2.Scale > scalarTo*1.001 {
			t.Fatalf("update %d: base-2 scale %g left [0.1, 10]", i, l.base2.Scale)
		}
	}
}

// TestScalarCSVMatchesSpring replays the lab's signals with the spring
// package's functions called directly and compares them with its CSV rows.
func TestScalarCSVMatchesSpring(t *testing.T) {
	l := New()
	l.S.AutoGoal, l.S.AnimAlpha, l.S.Alpha, l.S.Base2Vel = false, false, 0.3, 1.5
	l.ScaleGoalBy(4)
	l.TurnGoal(2)
	header := l.CSVHeader()
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
		if h != "alpha" && !strings.Contains(h, "scale") && !strings.Contains(h, "_") {
			t.Errorf("column %q names no unit", h)
		}
	}
	for _, h := range []string{"t_s", "naive_scale", "natural_scale", "naive_vel_scale/s", "natural_vel_1/s",
		"base2_vel_dbl/s", "base2_vel_1/s", "doublelife_s", "halflife_s", "spring_vel_x_dbl/s",
		"quat_angle_to_goal_rad", "tip_red_x_m/s", "tip_blue_x_m/s", "tip_noexp_x_m/s"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("header %q lacks column %q", header, h)
		}
	}

	const dt = float32(1.0 / 60)
	naive, natural, base2 := scalarFrom, scalarFrom, float32(1)
	sx, sv, sg := mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}, l.springs.SclGoal
	qx, qv, qg := mathx.QuatIdentity(), mgl32.Vec3{}, l.springs.QuatGoal
	nv := spring.ScaleDifferentiateVelocityNaive(10, 0.1, l.S.GrowTime)
	tv := spring.ScaleDifferentiateVelocityNatural(10, 0.1, l.S.GrowTime)
	var rows [][]string
	worst := 0.0
	for i := 0; i < 150; i++ { // 2.5 s: within the 3 s growth
		l.Update(dt)
		naive = spring.ScaleIntegrateVelocityNaive(nv, naive, dt)
		natural = spring.ScaleIntegrateVelocityNatural(tv, natural, dt)
		base2 = spring.ScaleIntegrateVelocity(1.5, base2, dt)
		for base2 > 10 {
			base2 /= 100
		}
		sx, sv = spring.ScaleSpringDamperExact(sx, sv, sg, l.S.Halflife, dt)
		qx, qv = spring.QuatSpringDamperExact(qx, qv, qg, l.S.Halflife, dt)
		qx = mathx.QuatNormalize(qx)
		rows = l.CSVRows(rows[:0])
		v := apptest.ParseCSVRow(t, header, rows[0])
		want := map[string]float32{
			"naive_scale": naive, "natural_scale": natural, "naive_vel_scale/s": nv, "natural_vel_1/s": tv,
			"alpha": 0.3, "lerp_scale": mathx.Lerp(0.1, 10, 0.3), "eerp_scale": spring.EerpPow(0.1, 10, 0.3),
			"base2_vel_dbl/s": 1.5, "base2_vel_1/s": 1.5 * mathx.Ln2, "base2_scale": base2,
			"doublelife_s": spring.ScalarVelocityToDoublelife(1.5), "halflife_s": spring.ScalarVelocityToHalflife(1.5),
			"spring_scale_x": sx[0], "spring_scale_y": sx[1], "spring_vel_z_dbl/s": sv[2], "spring_goal_y": sg[1],
			"quat_ang_x_rad/s": qv[0], "quat_ang_y_rad/s": qv[1],
			"quat_angle_to_goal_rad": mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(qx, qg))).Len(),
		}
		for name, w := range want {
			got := v[col[name]]
			d := math.Abs(got-float64(w)) / math.Max(1, math.Abs(float64(w)))
			worst = math.Max(worst, d)
			if d > 2e-5 {
				t.Fatalf("update %d: %s = %g, want %g", i, name, got, w)
			}
		}
		// The hierarchy's columns: FK of the lab's local pose, called here.
		g := animsys.NewPose(scalarJoints)
		animsys.FK(&g, &l.hier.local, l.hier.skel.Parents)
		if red := g.Vel[scalarTip]; math.Abs(v[col["tip_red_y_m/s"]]-float64(red[1])) > 1e-5 {
			t.Fatalf("update %d: tip_red_y %g, FK gives %g", i, v[col["tip_red_y_m/s"]], red[1])
		}
	}
	t.Logf("CSV vs spring functions called directly: worst relative difference %.2g over 150 updates", worst)
	if math.Abs(float64(naive)-(0.1+2.5*9.9/3)) > 1e-3 {
		t.Errorf("naive growth at 2.5 s: %g, want %g", naive, 0.1+2.5*9.9/3)
	}
	if want := 0.1 * math.Pow(100, 2.5/3); math.Abs(float64(natural)-want) > 1e-3*want {
		t.Errorf("natural growth at 2.5 s: %g, want %g", natural, want)
	}
}

// TestScalarGrowthLandsOnTenAtAnyDt: both growths reach 10 at the end of
// the growth whatever the tick rate (each integrates a constant velocity
// exactly, and the steps land on the end of the growth).
func TestScalarGrowthLandsOnTenAtAnyDt(t *testing.T) {
	for _, dt := range []float32{1.0 / 240, 1.0 / 60, 0.07, 0.5} {
		l := New()
		for l.time < float64(l.S.GrowTime)-1e-4 {
			l.Update(dt)
		}
		l.Update(float32(float64(l.S.GrowTime)-l.time) + 1e-5)
		if math.Abs(float64(l.growth.Naive)-10) > 2e-3 || math.Abs(float64(l.growth.Natural)-10) > 2e-3 {
			t.Errorf("dt %g: at the end of the growth naive %g, natural %g; want 10", dt, l.growth.Naive, l.growth.Natural)
		}
	}
}

// scalarTipAt evaluates the hierarchy of a copy of l's angles advanced by
// h seconds at the current rates (oscillation source) and returns the
// global positions.
func scalarPositionsAt(l *Lab, h float32) []mgl32.Vec3 {
	m := New()
	m.S = l.S
	m.hier.phase = l.hier.phase + 2*math.Pi*l.S.OscFreq*h
	m.hier.rootYaw = l.hier.rootYaw + l.S.RootSpin*h
	m.hier.elbowAngle = l.hier.elbowAngle + l.S.ElbowSpin*h
	m.evaluateHierarchy()
	return append([]mgl32.Vec3(nil), m.hier.global.Pos...)
}

// TestScalarHierarchyExpansion: the velocities FK propagates through the
// scaling parent match a fine central difference of the joints' positions,
// FK without the parent's scalar velocity (no expansion term) does not,
// and the one-frame finite difference (blue) is close at 60 Hz.
func TestScalarHierarchyExpansion(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	const h = 1e-3
	worst, expansion := 0.0, 0.0
	for trial := 0; trial < 40; trial++ {
		l := New()
		l.S.OscAmp = 0.3 + 2.5*r.Float32()
		l.S.OscFreq = 0.1 + 1.5*r.Float32()
		l.S.RootSpin = 4*r.Float32() - 2
		l.S.ElbowSpin = 4*r.Float32() - 2
		for n := r.Intn(200); n >= 0; n-- {
			l.Update(1.0 / 60)
		}
		p0, p1 := scalarPositionsAt(l, -h), scalarPositionsAt(l, h)
		for j := scalarScaler; j < scalarJoints; j++ {
			cd := p1[j].Sub(p0[j]).Mul(1 / (2 * h))
			red := l.hier.global.Vel[j]
			d := float64(red.Sub(cd).Len())
			worst = math.Max(worst, d/math.Max(1, float64(cd.Len())))
			if d > 2e-3*math.Max(1, float64(cd.Len())) {
				t.Fatalf("trial %d joint %s: FK velocity %v, central difference %v", trial, l.hier.skel.Names[j], red, cd)
			}
			expansion = math.Max(expansion, float64(red.Sub(l.hier.noExp.Vel[j]).Len()))
		}
	}
	t.Logf("propagated vs central difference (h = %g s): worst relative error %.2g; largest expansion term %.3f m/s", h, worst, expansion)
	if expansion < 0.3 {
		t.Errorf("the expansion term never exceeded %.3f m/s: the parent's scale does not reach the children", expansion)
	}

	// Spring source: the scale spring's base-2 velocity times ln 2 is the
	// natural scalar velocity FK takes; check it against the change of ln
	// scale over a tiny step.
	l := New()
	l.S.Source = SourceSpring
	l.ScaleGoalBy(4)
	for i := 0; i < 10; i++ {
		l.Update(1.0 / 60)
	}
	s0, v0 := l.ParentScale()
	x1, _ := spring.ScaleSpringDamperExact(l.springs.SclX, l.springs.SclV, l.springs.SclGoal, l.S.Halflife, h)
	fd := math.Log(float64(x1[1])/float64(s0[1])) / h
	if math.Abs(fd-float64(v0[1])) > 2e-3*math.Abs(fd) {
		t.Errorf("spring source: natural scalar velocity %g, d ln s/dt %g", v0[1], fd)
	}

	// Blue vs red at 60 Hz over a few seconds.
	l = New()
	var mx float32
	for i := 0; i < 300; i++ {
		l.Update(1.0 / 60)
		mx = max(mx, l.hier.Max)
	}
	t.Logf("one-frame finite difference vs FK at 60 Hz: max |red - blue| %.4f m/s", mx)
	if mx > 0.1 {
		t.Errorf("finite difference differs from FK by up to %.4f m/s at 60 Hz", mx)
	}
}

// TestScalarBase2Readouts: the measured doubling time matches the
// doublelife to within a tick.
func TestScalarBase2Readouts(t *testing.T) {
	l := New()
	l.S.Base2Vel = 2
	for i := 0; i < 600; i++ {
		l.Update(1.0 / 240)
	}
	if d := l.Doublelife(); d != 0.5 || l.Halflife() != -0.5 {
		t.Errorf("doublelife %g, half-life %g; want 0.5, -0.5", d, l.Halflife())
	}
	if math.Abs(float64(l.base2.DoubledIn)-0.5) > 1.0/240+1e-4 {
		t.Errorf("measured doubling time %g s, want 0.5 s", l.base2.DoubledIn)
	}
	l.S.Base2Vel = 0
	if s := scalarLifeText(l.Doublelife()); s != "never" {
		t.Errorf("doublelife at rest reads %q", s)
	}
}

// TestScalarHalflifeFlag: --halflife, declared in the lab's entry and
// checked by ParseFlags (0 < H <= 5, 0 for the lab's default), reaches the
// lab's springs.
func TestScalarHalflifeFlag(t *testing.T) {
	labs := []app.LabEntry{Entry()}
	c, err := app.ParseFlags([]string{"--lab", "scalar", "--halflife", "0.25"}, io.Discard, labs)
	if h, ok := c.LabFlag("halflife"); err != nil || !ok || h != 0.25 {
		t.Fatalf("--halflife 0.25: %+v, %v", c, err)
	}
	s := New()
	s.Configure(c)
	if s.S.Halflife != 0.25 {
		t.Errorf("scalar lab's springs' half-life %g, want 0.25", s.S.Halflife)
	}
	for _, tc := range []struct {
		arg string
		ok  bool
	}{{"5", true}, {"1e-6", true}, {"0", true}, {"5.01", false}, {"-1", false}} {
		c, err := app.ParseFlags([]string{"--lab", "scalar", "--halflife", tc.arg}, io.Discard, labs)
		if (err == nil) != tc.ok {
			t.Errorf("--halflife %s: error %v, want accepted %v", tc.arg, err, tc.ok)
			continue
		}
		if tc.arg == "0" {
			s := New()
			s.Configure(c)
			if s.S.Halflife != DefaultSettings().Halflife {
				t.Errorf("--halflife 0: half-life %g, want the default %g", s.S.Halflife, DefaultSettings().Halflife)
			}
		}
	}
}

// TestScalarCheckSettings: settings read from a file land within the
// panel's sliders (through the one slider table) and the choices within
// their options; settings already inside stay bit for bit.
func TestScalarCheckSettings(t *testing.T) {
	nan := float32(math.NaN())
	l := New()
	apptest.CheckSettings(t, &l.S, l.CheckSettings, []apptest.SettingCase[Settings]{
		apptest.Case("Duration 0", func(s *Settings) { s.GrowTime = 0 }, func(s *Settings) float32 { return s.GrowTime }, 0.5),
		apptest.Case("Alpha NaN", func(s *Settings) { s.Alpha = nan }, func(s *Settings) float32 { return s.Alpha }, 0),
		apptest.Case("Velocity -9", func(s *Settings) { s.Base2Vel = -9 }, func(s *Settings) float32 { return s.Base2Vel }, -4),
		apptest.Case("Half-life 3", func(s *Settings) { s.Halflife = 3 }, func(s *Settings) float32 { return s.Halflife }, 1),
		apptest.Case("Amplitude 4", func(s *Settings) { s.OscAmp = 4 }, func(s *Settings) float32 { return s.OscAmp }, 3),
		apptest.Case("Frequency -1", func(s *Settings) { s.OscFreq = -1 }, func(s *Settings) float32 { return s.OscFreq }, 0),
		apptest.Case("Root spin 5", func(s *Settings) { s.RootSpin = 5 }, func(s *Settings) float32 { return s.RootSpin }, 3),
		apptest.Case("Elbow spin -5", func(s *Settings) { s.ElbowSpin = -5 }, func(s *Settings) float32 { return s.ElbowSpin }, -3),
		apptest.Case("Lines 0", func(s *Settings) { s.LineScale = 0 }, func(s *Settings) float32 { return s.LineScale }, 0.02),
		apptest.Case("Lines 0.5", func(s *Settings) { s.LineScale = 0.5 }, func(s *Settings) float32 { return s.LineScale }, 0.5),
		apptest.Case("Plot 9", func(s *Settings) { s.Plot = 9 }, func(s *Settings) float32 { return float32(s.Plot) }, PlotQuatSpring),
		apptest.Case("Source -1", func(s *Settings) { s.Source = -1 }, func(s *Settings) float32 { return float32(s.Source) }, SourceOscillate),
	})
}

// TestScalarGoalButtons: the goal buttons' actions, in the order a panel
// asks them: a goal scaled x4 then /4 then x4 is x4, turned exactly a
// quarter turn, and a paused frame (Update(0)) moves nothing.
func TestScalarGoalButtons(t *testing.T) {
	l := New()
	l.S.AutoGoal = false
	l.Update(1.0 / 60)
	goal, q, now := l.springs.SclGoal, l.springs.QuatGoal, l.time
	l.ScaleGoalBy(4)
	l.TurnGoal(math.Pi / 2)
	l.ScaleGoalBy(0.25)
	l.ScaleGoalBy(4)
	l.Update(0)
	if l.time != now {
		t.Fatalf("a paused frame moved the time from %v to %v", now, l.time)
	}
	if want := goal.Mul(4); l.springs.SclGoal != want {
		t.Errorf("scale goal %v after x4, /4, x4; want %v", l.springs.SclGoal, want)
	}
	if a := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(l.springs.QuatGoal, q))).Len(); math.Abs(float64(a)-math.Pi/2) > 1e-5 {
		t.Errorf("quat goal turned %g rad, want pi/2", a)
	}
}
