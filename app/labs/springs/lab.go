package springs

import (
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
	"kinelab/render"
)

// Goal motions, in the order of the panel's choice.
const (
	GoalSteps = iota // jumps between +Amplitude and -Amplitude
	GoalRamps        // moves between them at constant speed
	GoalSine         // swings between them
)

// The springs, in plot, legend and CSV order.
const (
	SprDamper   = iota // damper_exact
	SprCritical        // critical_spring_damper_exact
	SprGeneral         // spring_damper_exact_stiffness_damping
	SprDecay           // decay_spring_damper_exact on the offset of each jump
	numSprings
)

var (
	springIDs = [numSprings]string{"damper", "critical", "spring", "decay"}
	// GoalColor is the goal's line and markers: the grey of the Tracking
	// lab's input signal.
	GoalColor = color.RGBA{R: 150, G: 156, B: 170, A: 255}
	// Colors are the springs' lines and balls.
	Colors = [numSprings]color.RGBA{
		{R: 240, G: 170, B: 60, A: 255},  // damper: orange
		{R: 80, G: 220, B: 140, A: 255},  // critical: green
		{R: 200, G: 110, B: 240, A: 255}, // spring: violet
		{R: 70, G: 200, B: 240, A: 255},  // decay: cyan
	}
)

// Settings are the lab's sliders and switches.
type Settings struct {
	Goal      int32   // Goal* motion
	Auto      bool    // step or ramp by itself every Period
	Period    float32 // s between automatic steps or ramps; the sine's period
	Amplitude float32 // m
	RampTime  float32 // s a ramp takes

	DamperHalflife   float32 // s
	CriticalHalflife float32 // s
	Frequency        float32 // Hz, the general spring's undamped frequency
	Ratio            float32 // its damping ratio: < 1 under-, 1 critically, > 1 over-damped
	GoalVel          bool    // give the critical and general springs the goal's velocity
	DecayHalflife    float32 // s

	Window   float32          // s of history in the plots
	Show     [numSprings]bool // springs drawn in the plots and the 3D view
	HoldPlot bool             // hold the plots' y ranges
}

// DefaultSettings is the lab as it opens: steps every 2 s, an
// under-damped general spring.
func DefaultSettings() Settings {
	return Settings{Goal: GoalSteps, Auto: true, Period: 2, Amplitude: 1, RampTime: 0.8,
		DamperHalflife: 0.2, CriticalHalflife: 0.2, Frequency: 1, Ratio: 0.25, DecayHalflife: 0.2,
		Window: 6, Show: [numSprings]bool{true, true, true, true}}
}

// Lab is the lab's state. Update drives it; drawing only reads it.
type Lab struct {
	app.Base
	S   Settings
	sec springPanels

	time             float64 // s of simulated time
	dt               float32 // s, the last tick
	goal, goalVel    float32 // m, m/s
	side             float32 // +1 or -1: the side the goal last went to
	since            float32 // s since the last automatic or asked-for move
	rampFrom, rampTo float32 // m
	rampT, rampDur   float32 // s
	ramping          bool
	mode             int32 // goal motion of the last update, to notice a change
	pendStep         bool
	pendRamp         bool
	Jumped           bool // the goal jumped, or its velocity changed at once, this tick
	draw             app.PlotDrag

	x, v           [numSprings]float32 // m, m/s
	decOff, decVel float32             // the decay spring's offset from the goal (m, m/s)

	pos, vel *render.Plot
}

// Entry is how the App lists the Springs lab: --lab springs.
func Entry() app.LabEntry {
	return app.LabEntry{Name: "springs", New: func() app.Lab { return New() }}
}

// New makes the lab with its defaults, at rest on the goal.
func New() *Lab {
	l := &Lab{S: DefaultSettings(), sec: springPanels{goal: true, springs: true},
		dt: 1.0 / 60, side: -1, mode: GoalSteps}
	l.goal = -l.S.Amplitude
	for i := range l.x {
		l.x[i] = l.goal
	}
	l.pos = render.NewPlot("x", "m", 2048)
	l.vel = render.NewPlot("v", "m/s", 2048)
	for _, p := range []*render.Plot{l.pos, l.vel} {
		p.AddSeries("goal", GoalColor)
		p.SetLineWidth(0, 3)
		for i, id := range springIDs {
			p.AddSeries(id, Colors[i])
		}
		// After a step from rest the decay spring is the critical spring
		// (same half-life): drawn wide under it, critical shows as an edge.
		p.SetLineWidth(1+SprCritical, 5)
	}
	return l
}

// Name implements app.Lab.
func (l *Lab) Name() string { return "springs" }

// Title implements app.Lab.
func (l *Lab) Title() string {
	if r := springRegime(l.S.Ratio); r != "critical" {
		return "Springs - " + r + "-damped"
	}
	return "Springs - critically damped"
}

// Focus implements app.Lab: the middle of the rails, left of the plots.
func (l *Lab) Focus() mgl32.Vec3 { return app.FocusBesidePlots(mgl32.Vec3{0, 0.95, 0}) }

// Step makes the goal jump to the other side now.
func (l *Lab) Step() { l.S.Goal, l.pendStep = GoalSteps, true }

// Ramp makes the goal ramp to the other side now.
func (l *Lab) Ramp() { l.S.Goal, l.pendRamp = GoalRamps, true }

// springRegime names the general spring's damping regime for ratio.
func springRegime(ratio float32) string {
	switch {
	case ratio < 0.995:
		return "under"
	case ratio <= 1.005:
		return "critical"
	default:
		return "over"
	}
}

// stiffnessDamping is the general spring's stiffness (1/s²) from its
// frequency and its damping (1/s) from the ratio, the article's
// damping_ratio_to_damping: ratio·2·sqrt(stiffness).
func (s *Settings) stiffnessDamping() (stiffness, damping float32) {
	stiffness = spring.FrequencyToStiffness(max(s.Frequency, 0))
	return stiffness, max(s.Ratio, 0) * 2 * mathx.Sqrt(stiffness)
}

// Update implements app.Lab: one tick of dt seconds. dt = 0 changes nothing.
func (l *Lab) Update(dt float32) {
	if !(dt > 0) || math.IsInf(float64(dt), 0) {
		return
	}
	s := &l.S
	l.time += float64(dt)
	l.dt = dt
	l.Jumped = l.moveGoal(dt)
	if l.Jumped {
		l.pos.Mark(l.time)
		l.vel.Mark(l.time)
	}
	g, q := l.goal, float32(0)
	if s.GoalVel {
		q = l.goalVel
	}

	// The damper has no velocity state: its velocity is the tick's mean.
	x0 := l.x[SprDamper]
	l.x[SprDamper] = spring.DamperExact(x0, g, s.DamperHalflife, dt)
	l.v[SprDamper] = mathx.Float32Sat((float64(l.x[SprDamper]) - float64(x0)) / float64(dt))

	l.x[SprCritical], l.v[SprCritical] = spring.CriticalSpringDamperExact(l.x[SprCritical], l.v[SprCritical], g, q, s.CriticalHalflife, dt)

	stiffness, damping := s.stiffnessDamping()
	l.x[SprGeneral], l.v[SprGeneral] = spring.SpringDamperExact(l.x[SprGeneral], l.v[SprGeneral], g, q, stiffness, damping, dt)

	// The decay spring is an inertializer: at a jump the output's offset
	// from the new goal (and the velocity's) is taken over, then decays.
	if l.Jumped {
		l.decOff = mathx.Float32Sat(float64(l.x[SprDecay]) - float64(g))
		l.decVel = mathx.Float32Sat(float64(l.v[SprDecay]) - float64(l.goalVel))
	}
	l.decOff, l.decVel = spring.DecaySpringDamperExact(l.decOff, l.decVel, s.DecayHalflife, dt)
	l.x[SprDecay] = mathx.Float32Sat(float64(g) + float64(l.decOff))
	l.v[SprDecay] = mathx.Float32Sat(float64(l.goalVel) + float64(l.decVel))

	l.push()
}

// moveGoal moves the goal over dt and reports whether it jumped or changed
// velocity at once (what the decay spring smooths out).
func (l *Lab) moveGoal(dt float32) (jump bool) {
	s := &l.S
	if s.Goal != l.mode {
		l.mode, l.ramping, l.since, jump = s.Goal, false, 0, true
	}
	step, ramp := l.pendStep, l.pendRamp
	l.pendStep, l.pendRamp = false, false
	if l.draw.Down && mathx.Finite(l.draw.Value) { // the mouse holds the goal
		jump = jump || l.draw.Pressed
		l.draw.Pressed = false
		l.goalVel = spring.TrackingTargetVelocity(l.draw.Value, l.goal, dt)
		l.goal, l.ramping, l.since = l.draw.Value, false, 0
		return jump
	}
	l.since += dt
	amp := max(s.Amplitude, 0)
	switch s.Goal {
	case GoalSine:
		w := 2 * math.Pi / float64(max(s.Period, 0.05))
		l.goal = amp * float32(math.Sin(w*l.time))
		l.goalVel = amp * float32(w*math.Cos(w*l.time))
		return jump
	case GoalSteps:
		step = step || s.Auto && l.since >= s.Period
	case GoalRamps:
		ramp = ramp || s.Auto && l.since >= s.Period
	}
	if step {
		l.side = -l.side
		l.goal, l.goalVel, l.ramping, l.since, jump = l.side*amp, 0, false, 0, true
	}
	if ramp {
		l.side = -l.side
		l.rampFrom, l.rampTo, l.rampT, l.rampDur = l.goal, l.side*amp, 0, max(s.RampTime, 1e-3)
		l.ramping, l.since, jump = true, 0, true
	}
	if !l.ramping {
		if l.goalVel != 0 {
			l.goalVel, jump = 0, true
		}
		return jump
	}
	l.rampT += dt
	f := min(1, l.rampT/l.rampDur)
	l.goal = l.rampFrom + (l.rampTo-l.rampFrom)*f
	l.goalVel = (l.rampTo - l.rampFrom) / l.rampDur
	if f >= 1 {
		l.goalVel, l.ramping, jump = 0, false, true
	}
	return jump
}

// push records this tick in the plots.
func (l *Lab) push() {
	for i := range numSprings {
		l.pos.SetVisible(i+1, l.S.Show[i])
		l.vel.SetVisible(i+1, l.S.Show[i])
	}
	l.pos.Window, l.vel.Window = float64(l.S.Window), float64(l.S.Window)
	l.pos.Hold, l.vel.Hold = l.S.HoldPlot || l.draw.Down, l.S.HoldPlot
	l.pos.Push(l.time, l.goal, l.x[0], l.x[1], l.x[2], l.x[3])
	l.vel.Push(l.time, l.goalVel, l.v[0], l.v[1], l.v[2], l.v[3])
}

// Spring returns spring i's position (m) and velocity (m/s).
func (l *Lab) Spring(i int) (x, v float32) { return l.x[i], l.v[i] }

// CSVHeader implements app.Lab: time, the goal, then each spring's position
// and velocity (the damper's is its mean over the tick), then the tick's dt
// and whether the goal jumped on it.
func (l *Lab) CSVHeader() []string {
	h := []string{"t_s", "goal_m", "goal_v_m_per_s"}
	for _, id := range springIDs {
		h = append(h, id+"_x_m", id+"_v_m_per_s")
	}
	return append(h, "dt_s", "jump")
}

// CSVRows implements app.Lab: one row per update.
func (l *Lab) CSVRows(rows [][]string) [][]string {
	row := make([]string, 0, 5+2*numSprings)
	row = append(row, app.CSVTime(l.time), app.CSVFloat(l.goal), app.CSVFloat(l.goalVel))
	for i := range numSprings {
		row = append(row, app.CSVFloat(l.x[i]), app.CSVFloat(l.v[i]))
	}
	return append(rows, append(row, app.CSVFloat(l.dt), app.CSVBool(l.Jumped)))
}
