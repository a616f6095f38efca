package scalar

import (
	"image/color"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
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

// Lab is the lab's state. Update drives it; drawing only reads it.
type Lab struct {
	app.Base
	S    Settings
	time float64          // s of simulated time
	rng  mathx.Xorshift32 // random goals, reproducible per seed

	// Growth from 0.1 to 10 in S.GrowTime seconds, then a rest.
	growT          float32 // s into the current growth
	Naive, Natural float32 // the two scales

	// Lerp and eerp from 0.1 to 10 at Alpha.
	alphaT      float32 // s into the alpha cycle
	Alpha       float32
	Lerp, Eerp  float32
	Base2       float32 // scale moved by S.Base2Vel (doublings/s)
	base2Octave int     // floor(log2(Base2)) after the last update
	crossed     bool    // Base2 crossed a power of 2 since the last wrap
	lastCross   float64 // s, when it did
	DoubledIn   float32 // s between the last two crossings (0: none yet)

	// Scale spring (base-2 scalar velocity, per axis) and quaternion
	// spring (angular velocity, rad/s, world frame) with their goals.
	SclX, SclV, SclGoal mgl32.Vec3
	QuatX, QuatGoal     mgl32.Quat
	QuatV               mgl32.Vec3
	goalT               float32 // s since the last goal change
	goalStep            int

	// The hierarchy: its local pose, FK with velocities (red), the finite
	// difference of the global pose (blue) and FK with the parent's scalar
	// velocity zeroed, which drops the expansion term (orange).
	skel                       animsys.Skeleton
	phase, rootYaw, elbowAngle float32 // rad: oscillation phase, root and elbow angles
	local, global, prev        animsys.Pose
	fd, noExpLocal, noExp      animsys.Pose
	lastSource                 int32   // S.Source at the last update, to mark switches
	Mean, Max                  float32 // |red - blue| over joints (m/s)

	plots    [5]*render.Plot
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
	l.skel = animsys.Skeleton{
		Names:   []string{"root", "scaler", "elbow", "tip"},
		Parents: []int{-1, scalarRoot, scalarScaler, scalarElbow},
		Offsets: []mgl32.Vec3{{}, {0, 0.15, 0}, {0, 0.5, 0}, {0.4, 0.2, 0}},
	}
	for _, p := range []*animsys.Pose{&l.local, &l.global, &l.prev, &l.fd, &l.noExpLocal, &l.noExp} {
		*p = animsys.NewPose(scalarJoints)
	}
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
	l.growT, l.Naive, l.Natural = 0, scalarFrom, scalarFrom
	l.alphaT = 0
	l.restartBase2()
	l.SclX, l.SclV, l.SclGoal = mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}
	l.QuatX, l.QuatV, l.QuatGoal = mathx.QuatIdentity(), mgl32.Vec3{}, mathx.QuatIdentity()
	l.goalT, l.goalStep = 0, 0
	l.phase, l.rootYaw, l.elbowAngle = 0, 0, 0
	l.updateAlpha(0)
	l.evaluateHierarchy()
	l.prev.CopyFrom(&l.global)
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
func (l *Lab) NaiveVel() float32 {
	return spring.ScaleDifferentiateVelocityNaive(scalarTo, scalarFrom, l.S.GrowTime)
}

// NaturalVel is the natural scalar velocity of the growth (1/s): constant,
// so the object gains the same ratio every second.
func (l *Lab) NaturalVel() float32 {
	return spring.ScaleDifferentiateVelocityNatural(scalarTo, scalarFrom, l.S.GrowTime)
}

// Update implements app.Lab: it advances every demo; dt = 0 changes
// nothing.
func (l *Lab) Update(dt float32) {
	if !(dt > 0) {
		return
	}
	l.time += float64(dt)
	l.updateGrowth(dt)
	l.updateAlpha(dt)
	l.updateBase2(dt)
	l.updateSprings(dt)

	l.prev.CopyFrom(&l.global)
	if l.S.Source != l.lastSource {
		// The parent's scale jumps to the other source's: the finite
		// difference spikes once, FK does not.
		l.lastSource = l.S.Source
		l.hierPlot.Mark(l.time)
	}
	l.phase = wrapAngle(l.phase + 2*math.Pi*l.S.OscFreq*dt)
	l.rootYaw = wrapAngle(l.rootYaw + l.S.RootSpin*dt)
	l.elbowAngle = wrapAngle(l.elbowAngle + l.S.ElbowSpin*dt)
	l.evaluateHierarchy()
	l.measure(dt)
	l.push()
}

// wrapAngle keeps an angle (rad) in [-pi, pi].
func wrapAngle(a float32) float32 {
	if !mathx.Finite(a) {
		return 0
	}
	return float32(math.Remainder(float64(a), 2*math.Pi))
}

// updateGrowth integrates both growths over dt, stepping exactly onto the
// end of the growth and of the rest so both land on 10 at the same time.
func (l *Lab) updateGrowth(dt float32) {
	for i := 0; dt > 0 && i < 8; i++ {
		T := l.S.GrowTime
		if l.growT >= T {
			step := min(dt, T+scalarRest-l.growT)
			l.growT += step
			dt -= step
			if l.growT >= T+scalarRest {
				l.growT, l.Naive, l.Natural = 0, scalarFrom, scalarFrom
				l.plots[PlotGrowth].Mark(l.time)
			}
			continue
		}
		step := min(dt, T-l.growT)
		l.Naive = spring.ScaleIntegrateVelocityNaive(l.NaiveVel(), l.Naive, step)
		l.Natural = spring.ScaleIntegrateVelocityNatural(l.NaturalVel(), l.Natural, step)
		l.growT += step
		dt -= step
	}
}

// updateAlpha moves alpha (when animated) and interpolates 0.1 -> 10.
func (l *Lab) updateAlpha(dt float32) {
	if l.S.AnimAlpha {
		l.alphaT = float32(math.Mod(float64(l.alphaT+dt), float64(scalarAlphaPeriod)))
		l.S.Alpha = 0.5 - 0.5*float32(math.Cos(2*math.Pi*float64(l.alphaT/scalarAlphaPeriod)))
	}
	l.Alpha = mathx.Clamp(l.S.Alpha, 0, 1)
	l.Lerp = mathx.Lerp(scalarFrom, scalarTo, l.Alpha)
	l.Eerp = spring.EerpPow(scalarFrom, scalarTo, l.Alpha)
}

// updateBase2 integrates the base-2 scalar velocity; the scale wraps by a
// factor of 100 to stay within [0.1, 10], and each crossing of a power of 2
// times the measured doubling (or halving).
func (l *Lab) updateBase2(dt float32) {
	l.Base2 = spring.ScaleIntegrateVelocity(l.S.Base2Vel, l.Base2, dt)
	wrapped := false
	for i := 0; i < 64 && l.Base2 > scalarTo; i++ {
		l.Base2, wrapped = l.Base2/100, true
	}
	for i := 0; i < 64 && l.Base2 < scalarFrom; i++ {
		l.Base2, wrapped = l.Base2*100, true
	}
	oct := int(math.Floor(math.Log2(float64(l.Base2))))
	switch {
	case wrapped:
		l.crossed = false
		l.plots[PlotBase2].Mark(l.time)
	case oct != l.base2Octave:
		if l.crossed {
			l.DoubledIn = float32(l.time - l.lastCross)
		}
		l.crossed, l.lastCross = true, l.time
	}
	l.base2Octave = oct
}

func (l *Lab) restartBase2() {
	l.Base2, l.base2Octave, l.crossed, l.DoubledIn = 1, 0, false, 0
}

// Doublelife is the Base-2 object's doublelife (s), 1/velocity: negative
// when it shrinks, ±MaxFloat32 at rest.
func (l *Lab) Doublelife() float32 { return spring.ScalarVelocityToDoublelife(l.S.Base2Vel) }

// Halflife is the Base-2 object's half-life (s), -1/velocity.
func (l *Lab) Halflife() float32 { return spring.ScalarVelocityToHalflife(l.S.Base2Vel) }

// updateSprings moves both springs toward their goals, and picks new goals
// every scalarGoalEvery seconds when AutoGoal is on.
func (l *Lab) updateSprings(dt float32) {
	l.goalT += dt
	if l.S.AutoGoal && l.goalT >= scalarGoalEvery {
		l.NextGoals()
	}
	l.SclX, l.SclV = spring.ScaleSpringDamperExact(l.SclX, l.SclV, l.SclGoal, l.S.Halflife, dt)
	l.QuatX, l.QuatV = spring.QuatSpringDamperExact(l.QuatX, l.QuatV, l.QuatGoal, l.S.Halflife, dt)
	l.QuatX = mathx.QuatNormalize(l.QuatX)
}

// NextGoals steps both springs' goals along a fixed tour (grow x4, shrink
// /4, stretch, back to 1) with random turns, or random scales when the
// tour is done.
func (l *Lab) NextGoals() {
	tour := []mgl32.Vec3{{4, 4, 4}, {0.25, 0.25, 0.25}, {2, 0.5, 1}, {1, 1, 1}}
	if l.goalStep < len(tour) && !l.S.Uniform {
		l.SclGoal = tour[l.goalStep]
	} else {
		l.RandomScaleGoal()
	}
	l.goalStep++
	l.RandomTurnGoal()
}

// ScaleGoalBy multiplies the scale spring's goal by k (clamped to
// [1/8, 8] per axis).
func (l *Lab) ScaleGoalBy(k float32) {
	for i := range 3 {
		l.SclGoal[i] = mathx.Clamp(l.SclGoal[i]*k, 1.0/8, 8)
	}
	l.goalChanged(PlotScaleSpring)
}

// RandomScaleGoal picks a goal with log2 in [-2, 2] (uniform if S.Uniform).
func (l *Lab) RandomScaleGoal() {
	for i := range 3 {
		l.SclGoal[i] = float32(math.Exp2(float64(4*l.rng.Float() - 2)))
	}
	if l.S.Uniform {
		l.SclGoal = mgl32.Vec3{l.SclGoal[0], l.SclGoal[0], l.SclGoal[0]}
	}
	l.goalChanged(PlotScaleSpring)
}

// TurnGoal turns the quaternion spring's goal by angle (rad) about y.
func (l *Lab) TurnGoal(angle float32) {
	l.QuatGoal = mathx.QuatNormalize(mathx.QuatMul(mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, angle, 0}), l.QuatGoal))
	l.goalChanged(PlotQuatSpring)
}

// RandomTurnGoal picks a random goal rotation 0.5 to 3 rad away.
func (l *Lab) RandomTurnGoal() {
	axis := mathx.Vec3Normalize(mgl32.Vec3{l.rng.Float()*2 - 1, l.rng.Float()*2 - 1 + 0.5, l.rng.Float()*2 - 1})
	turn := mathx.QuatFromScaledAngleAxis(axis.Mul(0.5 + 2.5*l.rng.Float()))
	l.QuatGoal = mathx.QuatNormalize(mathx.QuatMul(turn, l.QuatGoal))
	l.goalChanged(PlotQuatSpring)
}

// goalChanged restarts the automatic-goal timer and marks plot p.
func (l *Lab) goalChanged(p int) {
	l.goalT = 0
	l.plots[p].Mark(l.time)
}

// QuatAngle is the quaternion spring's angle to its goal (rad).
func (l *Lab) QuatAngle() float32 {
	return mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(l.QuatX, l.QuatGoal))).Len()
}

// ParentScale is the hierarchy scaler's local scale and its natural scalar
// velocity (1/s): log2 s = A sin(phase) when oscillating, or the scale
// spring's state with its base-2 velocity times ln 2.
func (l *Lab) ParentScale() (scl, svl mgl32.Vec3) {
	if l.S.Source == SourceSpring {
		return l.SclX, l.SclV.Mul(mathx.Ln2)
	}
	s, c := math.Sincos(float64(l.phase))
	a, w := float64(l.S.OscAmp), 2*math.Pi*float64(l.S.OscFreq)
	k := float32(math.Exp2(a * s))
	v := float32(a * w * c * math.Ln2) // d/dt ln(2^(A sin wt)) = ln2 A w cos wt
	return mgl32.Vec3{k, k, k}, mgl32.Vec3{v, v, v}
}

// setLocal writes the hierarchy's local pose for the current angles.
func (l *Lab) setLocal() {
	for i, o := range l.skel.Offsets {
		l.local.SetKform(i, animsys.KformIdentity())
		l.local.Pos[i] = o
	}
	l.local.Pos[scalarRoot] = scalarHierBase
	l.local.Rot[scalarRoot] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, l.rootYaw, 0})
	l.local.Ang[scalarRoot] = mgl32.Vec3{0, l.S.RootSpin, 0}
	l.local.Scl[scalarScaler], l.local.Svl[scalarScaler] = l.ParentScale()
	l.local.Rot[scalarElbow] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 0, l.elbowAngle})
	l.local.Ang[scalarElbow] = mgl32.Vec3{0, 0, l.S.ElbowSpin}
}

// evaluateHierarchy runs FK with velocities (red) and FK with every scalar
// velocity zeroed (orange: no expansion term).
func (l *Lab) evaluateHierarchy() {
	l.setLocal()
	animsys.FK(&l.global, &l.local, l.skel.Parents)
	l.noExpLocal.CopyFrom(&l.local)
	for i := range l.noExpLocal.Svl {
		l.noExpLocal.Svl[i] = mgl32.Vec3{}
	}
	animsys.FK(&l.noExp, &l.noExpLocal, l.skel.Parents)
}

// measure takes the finite difference (blue) against the last update, dt
// seconds ago, and the difference to the propagated velocities.
func (l *Lab) measure(dt float32) {
	animsys.FiniteDiff(&l.fd, &l.global, &l.prev, dt)
	var sum, mx float32
	for i := 1; i < scalarJoints; i++ {
		d := l.global.Vel[i].Sub(l.fd.Vel[i]).Len()
		sum += d
		mx = max(mx, d)
	}
	l.Mean, l.Max = sum/float32(scalarJoints-1), mx
}

// push records this update in every plot.
func (l *Lab) push() {
	lg := func(x float32) float32 { return float32(math.Log2(float64(x))) }
	p := l.plots
	p[PlotGrowth].Push(l.time, lg(l.Naive), lg(l.Natural))
	p[PlotLerp].Push(l.time, lg(l.Lerp), lg(l.Eerp))
	p[PlotBase2].Push(l.time, lg(l.Base2))
	p[PlotScaleSpring].Push(l.time, lg(l.SclX[1]), lg(l.SclGoal[1]))
	p[PlotQuatSpring].Push(l.time, l.QuatAngle())
	t := scalarTip
	l.hierPlot.Push(l.time, l.global.Vel[t].Len(), l.fd.Vel[t].Len(), l.noExp.Vel[t].Len())
}

// Restart starts the growth, alpha and base-2 demos again.
func (l *Lab) Restart() {
	l.growT, l.Naive, l.Natural = 0, scalarFrom, scalarFrom
	l.alphaT = 0
	l.restartBase2()
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
	row := make([]string, 0, 40) // the header's columns
	row = append(row, app.CSVTime(l.time),
		f(l.Naive), f(l.Natural), f(l.NaiveVel()), f(l.NaturalVel()),
		f(l.Alpha), f(l.Lerp), f(l.Eerp),
		f(l.S.Base2Vel), f(l.S.Base2Vel*mathx.Ln2), f(l.Base2), f(l.Doublelife()), f(l.Halflife()),
		f(l.S.Halflife))
	row = append(row, v3(l.SclX)...)
	row = append(row, v3(l.SclV)...)
	row = append(row, v3(l.SclGoal)...)
	row = append(row, f(l.QuatAngle()))
	row = append(row, v3(l.QuatV)...)
	s, sv := l.ParentScale()
	row = append(row, f(s[1]), f(sv[1]))
	row = append(row, v3(l.global.Vel[scalarTip])...)
	row = append(row, v3(l.fd.Vel[scalarTip])...)
	row = append(row, v3(l.noExp.Vel[scalarTip])...)
	return append(rows, append(row, f(l.Mean), f(l.Max)))
}
