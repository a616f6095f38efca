package scalar

import (
	"image/color"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
	"kinelab/render"
)

// The growth demo goes from scalarFrom to scalarTo, rests, and starts again.
const (
	scalarFrom        = float32(0.1)
	scalarTo          = float32(10)
	scalarRest        = float32(1)   // s the grown objects rest at 10
	scalarAlphaPeriod = float32(6)   // s for the animated alpha to go 0 -> 1 -> 0
	scalarGoalEvery   = float32(2.5) // s between automatic spring goals
)

// Plots the lab can show beside the hierarchy plot, in the panel's order.
const (
	PlotGrowth = iota
	PlotLerp
	PlotBase2
	PlotScaleSpring
	PlotQuatSpring
)

var scalarPlotNames = []string{"Growth", "Lerp", "Base 2", "Scale spr.", "Quat spr."}

// Hierarchy sources of the parent's scale, in the panel's order.
const (
	SourceOscillate = iota
	SourceSpring
)

// Joints of the small hierarchy.
const (
	scalarRoot   = iota // on the ground, spins about y
	scalarScaler        // the parent whose scale changes
	scalarElbow         // child of the scaler, turns about z
	scalarTip           // child of the elbow
	scalarJoints
)

// The lab's object colours (plots and 3D share them; red and blue are kept
// for propagated and finite-difference velocities).
var (
	scalarNaiveColor   = render.PlotMean                            // orange
	scalarNaturalColor = render.TargetColor                         // green
	scalarLerpColor    = render.PlotMax                             // purple
	scalarEerpColor    = color.RGBA{R: 70, G: 200, B: 220, A: 255}  // cyan
	scalarBase2Color   = color.RGBA{R: 230, G: 210, B: 80, A: 255}  // yellow
	scalarScaleColor   = color.RGBA{R: 240, G: 120, B: 170, A: 255} // pink
	scalarQuatColor    = color.RGBA{R: 215, G: 140, B: 90, A: 255}  // copper
	scalarNoExpColor   = color.RGBA{R: 250, G: 150, B: 40, A: 255}  // "no expansion"
	scalarGoalColor    = color.RGBA{R: 235, G: 238, B: 245, A: 255} // goal wireframes
	scalarJointColor   = render.SkinColor                           // hierarchy boxes
)

// Where the demos stand on the ground (m), in two rows across the default
// view: the growth, the scale spring and the hierarchy in front; lerp and
// eerp, base 2 and the quaternion spring behind, in the gaps of the front
// row as the default camera sees them.
var (
	scalarNaivePos   = scalarPlace(-1.25, 0)
	scalarNaturalPos = scalarPlace(-0.45, 0)
	scalarScalePos   = scalarPlace(0.4, 0)
	scalarHierBase   = scalarPlace(1.25, 0)
	scalarLerpPos    = scalarPlace(-0.97, 1.8)
	scalarEerpPos    = scalarPlace(0.26, 1.8)
	scalarBase2Pos   = scalarPlace(1.53, 1.8)
	scalarQuatPos    = scalarPlace(2.75, 1.8).Add(mgl32.Vec3{0, 0.45, 0})
)

// scalarPlace is the ground point u metres to the right of the default
// camera's target and w metres further away from the camera.
func scalarPlace(u, w float32) mgl32.Vec3 {
	yaw := float64(app.DefaultCamera().Yaw)
	right := mgl32.Vec3{float32(math.Cos(yaw)), 0, -float32(math.Sin(yaw))}
	away := mgl32.Vec3{-float32(math.Sin(yaw)), 0, -float32(math.Cos(yaw))}
	return right.Mul(u).Add(away.Mul(w))
}

// Settings are the lab's sliders and switches.
type Settings struct {
	GrowTime  float32 // s from 0.1 to 10
	AnimAlpha bool    // alpha runs 0 -> 1 -> 0 by itself
	Alpha     float32 // lerp/eerp parameter in [0, 1]
	Base2Vel  float32 // doublings/s of the Base-2 object
	Halflife  float32 // s, scale and quaternion springs
	Uniform   bool    // random scale goals are uniform
	AutoGoal  bool    // new spring goals every scalarGoalEvery seconds
	Source    int32   // Source*: what drives the hierarchy's scale
	OscAmp    float32 // doublings, amplitude of the oscillating scale
	OscFreq   float32 // Hz
	RootSpin  float32 // rad/s about y of the hierarchy's root
	ElbowSpin float32 // rad/s about z of the elbow
	ShowNoExp bool    // also draw FK without the expansion term
	LineScale float32 // m of line per m/s
	Plot      int32   // Plot* shown beside the hierarchy plot
}

// DefaultSettings is the lab as it opens.
func DefaultSettings() Settings {
	return Settings{GrowTime: 3, AnimAlpha: true, Alpha: 0.5, Base2Vel: 1, Halflife: 0.3,
		AutoGoal: true, Source: SourceOscillate, OscAmp: 1, OscFreq: 0.3,
		ElbowSpin: 0.8, ShowNoExp: true, LineScale: 0.4, Plot: PlotGrowth}
}

// Lab is the lab's state, by its parts: the settings, the four demos on
// the ground, the hierarchy, and the plots. Update ticks each part in
// turn; drawing only reads them.
type Lab struct {
	app.Base
	S    Settings
	time float64          // s of simulated time
	rng  mathx.Xorshift32 // random goals, reproducible per seed

	growth  growth    // 0.1 to 10 in S.GrowTime seconds, then a rest
	interp  interp    // lerp and eerp from 0.1 to 10 at alpha
	base2   base2     // a scale moved by S.Base2Vel (doublings/s)
	springs springs   // the scale and quaternion springs
	hier    hierarchy // the expansion term, red against blue

	plots    [5]*render.Plot // by Plot*: one a demo
	hierPlot *render.Plot
	sec      scalarPanels
}

// Entry is how the App lists the Scalar-velocity lab: --lab scalar, with
// its springs' --halflife (0 < H <= 5 s, 0 for the lab's default; the
// smallest accepted is a tiny positive Min because 0 means "not given").
func Entry() app.LabEntry {
	return app.LabEntry{
		Name:  "scalar",
		New:   func() app.Lab { return New() },
		Flags: []app.LabFlag{{Name: "halflife", Usage: "half-life in seconds of the Scalar lab's springs", Min: 1e-6, Max: 5}},
	}
}

// New builds the lab.
func New() *Lab {
	l := &Lab{S: DefaultSettings(), rng: mathx.Xorshift32{X: 0x2545f491},
		sec: scalarPanels{base2: true, hier: true}}
	l.hier = newHierarchy()
	mk := func(title, unit string) *render.Plot { return render.NewPlot(title, unit, 600) }
	l.plots[PlotGrowth] = mk("Growth: log2 scale", "log2")
	l.plots[PlotGrowth].AddSeries("naive", scalarNaiveColor)
	l.plots[PlotGrowth].AddSeries("natural", scalarNaturalColor)
	l.plots[PlotLerp] = mk("Lerp, eerp: log2 scale", "log2")
	l.plots[PlotLerp].AddSeries("lerp", scalarLerpColor)
	l.plots[PlotLerp].AddSeries("eerp", scalarEerpColor)
	l.plots[PlotBase2] = mk("Base 2: log2 scale", "log2")
	l.plots[PlotBase2].AddSeries("scale", scalarBase2Color)
	l.plots[PlotScaleSpring] = mk("Scale spring: log2 y scale", "log2")
	l.plots[PlotScaleSpring].AddSeries("spring", scalarScaleColor)
	l.plots[PlotScaleSpring].AddSeries("goal", scalarGoalColor)
	l.plots[PlotQuatSpring] = mk("Quat spring: angle to goal", "rad")
	l.plots[PlotQuatSpring].AddSeries("angle", scalarQuatColor)
	l.hierPlot = render.NewPlot("Tip speed", "m/s", 600)
	l.hierPlot.AddSeries("FK", render.Propagated)
	l.hierPlot.AddSeries("fin. diff.", render.FiniteDiff)
	l.hierPlot.AddSeries("no exp.", scalarNoExpColor)
	l.hierPlot.SetLineWidth(0, 6) // red under blue: a red border shows where they agree
	l.reset()
	return l
}

// reset puts every demo at its start (settings are kept).
func (l *Lab) reset() {
	l.growth.restart()
	l.interp.t = 0
	l.base2.restart()
	l.springs.reset()
	h := &l.hier
	h.phase, h.rootYaw, h.elbowAngle = 0, 0, 0
	l.interp.update(0, &l.S)
	l.evaluateHierarchy()
	h.prev.CopyFrom(&h.global)
}

// Name implements app.Lab.
func (l *Lab) Name() string { return "scalar" }

// Title implements app.Lab.
func (l *Lab) Title() string { return "Scalar velocity" }

// Focus implements app.Lab: the middle of the objects.
func (l *Lab) Focus() mgl32.Vec3 { return scalarPlace(-0.6, 0.6).Add(mgl32.Vec3{0, -0.15, 0}) }

// Configure implements app.Lab: --seed seeds the random spring goals and
// --halflife, when given, sets the springs' half-life.
func (l *Lab) Configure(c app.Config) {
	l.rng.X = c.Seed*2654435761 + 0x2545f491
	if l.rng.X == 0 { // a zero state would draw zeros forever
		l.rng.X = 0x2545f491
	}
	if v, ok := c.LabFlag("halflife"); ok {
		l.S.Halflife = float32(v)
	}
}

// NaiveVel is the naive scalar velocity of the growth (scale units/s):
// constant, so the object gains the same size every second.
func (l *Lab) NaiveVel() float32 { return naiveVel(l.S.GrowTime) }

// NaturalVel is the natural scalar velocity of the growth (1/s): constant,
// so the object gains the same ratio every second.
func (l *Lab) NaturalVel() float32 { return naturalVel(l.S.GrowTime) }

// Update implements app.Lab: it advances every demo, then the hierarchy,
// and plots them; dt = 0 changes nothing.
func (l *Lab) Update(dt float32) {
	if !(dt > 0) {
		return
	}
	l.time += float64(dt)
	for range l.growth.update(dt, l.S.GrowTime) {
		l.plots[PlotGrowth].Mark(l.time)
	}
	l.interp.update(dt, &l.S)
	if l.base2.update(l.S.Base2Vel, dt, l.time) {
		l.plots[PlotBase2].Mark(l.time)
	}
	l.updateSprings(dt)

	h := &l.hier
	h.prev.CopyFrom(&h.global)
	if h.switched(l.S.Source) {
		l.hierPlot.Mark(l.time)
	}
	h.turn(dt, &l.S)
	l.evaluateHierarchy()
	h.measure(dt)
	l.push()
}

// wrapAngle keeps an angle (rad) in [-pi, pi].
func wrapAngle(a float32) float32 {
	if !mathx.Finite(a) {
		return 0
	}
	return float32(math.Remainder(float64(a), 2*math.Pi))
}

// Doublelife is the Base-2 object's doublelife (s), 1/velocity: negative
// when it shrinks, ±MaxFloat32 at rest.
func (l *Lab) Doublelife() float32 { return spring.ScalarVelocityToDoublelife(l.S.Base2Vel) }

// Halflife is the Base-2 object's half-life (s), -1/velocity.
func (l *Lab) Halflife() float32 { return spring.ScalarVelocityToHalflife(l.S.Base2Vel) }

// updateSprings moves both springs toward their goals, and picks new goals
// every scalarGoalEvery seconds when AutoGoal is on.
func (l *Lab) updateSprings(dt float32) {
	l.springs.goalT += dt
	if l.S.AutoGoal && l.springs.goalT >= scalarGoalEvery {
		l.NextGoals()
	}
	l.springs.update(l.S.Halflife, dt)
}

// NextGoals steps both springs' goals along a fixed tour (grow x4, shrink
// /4, stretch, back to 1) with random turns, or random scales when the
// tour is done.
func (l *Lab) NextGoals() {
	if g, ok := l.springs.tourGoal(); ok && !l.S.Uniform {
		l.springs.SclGoal = g
	} else {
		l.RandomScaleGoal()
	}
	l.springs.goalStep++
	l.RandomTurnGoal()
}

// ScaleGoalBy multiplies the scale spring's goal by k (clamped to
// [1/8, 8] per axis).
func (l *Lab) ScaleGoalBy(k float32) {
	l.springs.scaleGoalBy(k)
	l.goalChanged(PlotScaleSpring)
}

// RandomScaleGoal picks a goal with log2 in [-2, 2] (uniform if S.Uniform).
func (l *Lab) RandomScaleGoal() {
	l.springs.randomScaleGoal(&l.rng, l.S.Uniform)
	l.goalChanged(PlotScaleSpring)
}

// TurnGoal turns the quaternion spring's goal by angle (rad) about y.
func (l *Lab) TurnGoal(angle float32) {
	l.springs.turnGoal(angle)
	l.goalChanged(PlotQuatSpring)
}

// RandomTurnGoal picks a random goal rotation 0.5 to 3 rad away.
func (l *Lab) RandomTurnGoal() {
	l.springs.randomTurnGoal(&l.rng)
	l.goalChanged(PlotQuatSpring)
}

// goalChanged restarts the automatic-goal timer and marks plot p.
func (l *Lab) goalChanged(p int) {
	l.springs.goalT = 0
	l.plots[p].Mark(l.time)
}

// QuatAngle is the quaternion spring's angle to its goal (rad).
func (l *Lab) QuatAngle() float32 { return l.springs.quatAngle() }

// ParentScale is the hierarchy scaler's local scale and its natural scalar
// velocity (1/s): log2 s = A sin(phase) when oscillating, or the scale
// spring's state with its base-2 velocity times ln 2.
func (l *Lab) ParentScale() (scl, svl mgl32.Vec3) {
	if l.S.Source == SourceSpring {
		return l.springs.SclX, l.springs.SclV.Mul(mathx.Ln2)
	}
	s, c := math.Sincos(float64(l.hier.phase))
	a, w := float64(l.S.OscAmp), 2*math.Pi*float64(l.S.OscFreq)
	k := float32(math.Exp2(a * s))
	v := float32(a * w * c * math.Ln2) // d/dt ln(2^(A sin wt)) = ln2 A w cos wt
	return mgl32.Vec3{k, k, k}, mgl32.Vec3{v, v, v}
}

// evaluateHierarchy writes the hierarchy's local pose for its angles and
// the parent's scale, and runs its FKs.
func (l *Lab) evaluateHierarchy() {
	scl, svl := l.ParentScale()
	l.hier.setLocal(scl, svl, &l.S)
	l.hier.evaluate()
}

// push records this update in every plot.
func (l *Lab) push() {
	lg := func(x float32) float32 { return float32(math.Log2(float64(x))) }
	p, sp, h := l.plots, &l.springs, &l.hier
	p[PlotGrowth].Push(l.time, lg(l.growth.Naive), lg(l.growth.Natural))
	p[PlotLerp].Push(l.time, lg(l.interp.Lerp), lg(l.interp.Eerp))
	p[PlotBase2].Push(l.time, lg(l.base2.Scale))
	p[PlotScaleSpring].Push(l.time, lg(sp.SclX[1]), lg(sp.SclGoal[1]))
	p[PlotQuatSpring].Push(l.time, l.QuatAngle())
	t := scalarTip
	l.hierPlot.Push(l.time, h.global.Vel[t].Len(), h.fd.Vel[t].Len(), h.noExp.Vel[t].Len())
}

// Restart starts the growth, alpha and base-2 demos again.
func (l *Lab) Restart() {
	l.growth.restart()
	l.interp.t = 0
	l.base2.restart()
	for _, p := range l.plots {
		p.Clear()
	}
}

// CSVHeader implements app.Lab. Scales and alpha are ratios (no unit);
// "dbl/s" is doublings per second (base 2), "1/s" natural-log scalar
// velocity (e-foldings per second).
func (l *Lab) CSVHeader() []string {
	h := []string{"t_s",
		"naive_scale", "natural_scale", "naive_vel_scale/s", "natural_vel_1/s",
		"alpha", "lerp_scale", "eerp_scale",
		"base2_vel_dbl/s", "base2_vel_1/s", "base2_scale", "doublelife_s", "halflife_s",
		"spring_halflife_s"}
	for _, n := range []string{"spring_scale_%", "spring_vel_%_dbl/s", "spring_goal_%"} {
		h = append(h, scalarAxes(n)...)
	}
	h = append(h, "quat_angle_to_goal_rad")
	h = append(h, scalarAxes("quat_ang_%_rad/s")...)
	h = append(h, "parent_scale_y", "parent_vel_y_1/s")
	for _, n := range []string{"tip_red_%_m/s", "tip_blue_%_m/s", "tip_noexp_%_m/s"} {
		h = append(h, scalarAxes(n)...)
	}
	return append(h, "mean_diff_m/s", "max_diff_m/s")
}

// scalarAxes expands the % in name to x, y and z.
func scalarAxes(name string) []string {
	return []string{strings.Replace(name, "%", "x", 1), strings.Replace(name, "%", "y", 1), strings.Replace(name, "%", "z", 1)}
}

// CSVRows implements app.Lab: one row per update.
func (l *Lab) CSVRows(rows [][]string) [][]string {
	f := app.CSVFloat
	v3 := func(v mgl32.Vec3) []string { return []string{f(v[0]), f(v[1]), f(v[2])} }
	g, e, sp, h := &l.growth, &l.interp, &l.springs, &l.hier
	row := make([]string, 0, 40) // the header's columns
	row = append(row, app.CSVTime(l.time),
		f(g.Naive), f(g.Natural), f(l.NaiveVel()), f(l.NaturalVel()),
		f(e.Alpha), f(e.Lerp), f(e.Eerp),
		f(l.S.Base2Vel), f(l.S.Base2Vel*mathx.Ln2), f(l.base2.Scale), f(l.Doublelife()), f(l.Halflife()),
		f(l.S.Halflife))
	row = append(row, v3(sp.SclX)...)
	row = append(row, v3(sp.SclV)...)
	row = append(row, v3(sp.SclGoal)...)
	row = append(row, f(l.QuatAngle()))
	row = append(row, v3(sp.QuatV)...)
	s, sv := l.ParentScale()
	row = append(row, f(s[1]), f(sv[1]))
	row = append(row, v3(h.global.Vel[scalarTip])...)
	row = append(row, v3(h.fd.Vel[scalarTip])...)
	row = append(row, v3(h.noExp.Vel[scalarTip])...)
	return append(rows, append(row, f(h.Mean), f(h.Max)))
}
