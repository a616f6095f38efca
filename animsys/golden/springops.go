package golden

import (
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// The springs of "Perfect Tracking with Springs", "Scalar Velocity" and
// "Inertialization Transition Cost", and the helpers they lean on
// (docs/spring-math.md).

const (
	trackingArticle = "perfect-tracking-with-springs"
	scalarArticle   = "scalar-velocity"
	costArticle     = "inertialization-transition-cost"
	springMath      = "spring-math (the helpers the articles call)"
)

// DamperIn is a value, its goal, a half-life and a step (s).
type DamperIn struct {
	X        float32 `json:"x"`
	G        float32 `json:"g"`
	Halflife float32 `json:"halflife"`
	Dt       float32 `json:"dt"`
}

// X is one value.
type X struct {
	X float32 `json:"x"`
}

// XV is a position and velocity.
type XV struct {
	X float32 `json:"x"`
	V float32 `json:"v"`
}

// SpringIn is a spring's state, its goal position and velocity, its
// parameters and a step (s). Stiffness (1/s^2) and damping (1/s) for
// spring_damper_exact, a half-life (s) for the critical springs.
type SpringIn struct {
	X         float32 `json:"x"`
	V         float32 `json:"v"`
	G         float32 `json:"g"`
	Q         float32 `json:"q"`
	Stiffness float32 `json:"stiffness"`
	Damping   float32 `json:"damping"`
	Halflife  float32 `json:"halflife"`
	Dt        float32 `json:"dt"`
}

// DecayWeightsIn is a half-life and a time since the start (s).
type DecayWeightsIn struct {
	Halflife float32 `json:"halflife"`
	T        float32 `json:"t"`
}

// QuatSpringIn is a rotation, its angular velocity (rad/s), its goal, a
// half-life and a step (s).
type QuatSpringIn struct {
	X        Q4      `json:"x"`
	V        V3      `json:"v"`
	G        Q4      `json:"g"`
	Halflife float32 `json:"halflife"`
	Dt       float32 `json:"dt"`
}

// QuatSpringOut is the new rotation and angular velocity.
type QuatSpringOut struct {
	X Q4 `json:"x"`
	V V3 `json:"v"`
}

// ScaleSpringIn is a scale, its base-2 scalar velocity (doublings/s), its
// goal, a half-life and a step (s).
type ScaleSpringIn struct {
	X        V3      `json:"x"`
	V        V3      `json:"v"`
	G        V3      `json:"g"`
	Halflife float32 `json:"halflife"`
	Dt       float32 `json:"dt"`
}

// ScaleSpringOut is the new scale and scalar velocity.
type ScaleSpringOut struct {
	X V3 `json:"x"`
	V V3 `json:"v"`
}

// ConversionsIn holds one value of each kind to convert.
type ConversionsIn struct {
	Halflife  float32 `json:"halflife"`
	Damping   float32 `json:"damping"`
	Frequency float32 `json:"frequency"`
	Stiffness float32 `json:"stiffness"`
}

// ConversionsOut is halflife_to_damping(halflife),
// damping_to_halflife(damping), frequency_to_stiffness(frequency),
// stiffness_to_frequency(stiffness).
type ConversionsOut struct {
	Damping   float32 `json:"damping"`
	Halflife  float32 `json:"halflife"`
	Stiffness float32 `json:"stiffness"`
	Frequency float32 `json:"frequency"`
}

// TrackIn is a tracking spring's state, the tracked signal's position,
// velocity and acceleration for the step, the gains (per tick in [0, 1];
// half-lives in s for the improved updates, which read x_gain, v_gain and
// a_gain as x_halflife, v_halflife and a_halflife), the step (s) and, for
// the exact updates, the step the gains are for.
type TrackIn struct {
	X      float32 `json:"x"`
	V      float32 `json:"v"`
	XGoal  float32 `json:"x_goal"`
	VGoal  float32 `json:"v_goal"`
	AGoal  float32 `json:"a_goal"`
	XGain  float32 `json:"x_gain"`
	VGain  float32 `json:"v_gain"`
	AGain  float32 `json:"a_gain"`
	Dt     float32 `json:"dt"`
	GainDt float32 `json:"gain_dt"`
}

// TargetsIn is three samples dt apart and a clipping limit.
type TargetsIn struct {
	XNext float32 `json:"x_next"`
	XCurr float32 `json:"x_curr"`
	XPrev float32 `json:"x_prev"`
	Dt    float32 `json:"dt"`
	Limit float32 `json:"limit"`
}

// TargetsOut is tracking_target_velocity(x_next, x_curr, dt),
// tracking_target_acceleration(x_next, x_curr, x_prev, dt) and the
// velocity clipped to +-limit.
type TargetsOut struct {
	Vel        float32 `json:"vel"`
	Acc        float32 `json:"acc"`
	VelClipped float32 `json:"vel_clipped"`
}

// GainsIn is the exact tracking spring's gains and their step.
type GainsIn struct {
	XGain  float32 `json:"x_gain"`
	VGain  float32 `json:"v_gain"`
	GainDt float32 `json:"gain_dt"`
}

// StiffnessDamping is a spring's stiffness (1/s^2) and damping (1/s).
type StiffnessDamping struct {
	Stiffness float32 `json:"stiffness"`
	Damping   float32 `json:"damping"`
}

// SequenceIn is a sampled signal with known cuts tracked sample by sample
// (spring.CutTracker): filter "lerp" (gains), "halflife" (half-lives in
// the gain fields) or "exact" (gains at gain_dt); max_vel and max_acc clip
// the targets (0: no clipping).
type SequenceIn struct {
	Filter  string    `json:"filter"`
	XGain   float32   `json:"x_gain"`
	VGain   float32   `json:"v_gain"`
	AGain   float32   `json:"a_gain"`
	GainDt  float32   `json:"gain_dt"`
	MaxVel  float32   `json:"max_vel"`
	MaxAcc  float32   `json:"max_acc"`
	Dt      float32   `json:"dt"`
	Samples []float32 `json:"samples"`
	Cuts    []bool    `json:"cuts"`
}

// Sequence is the spring's position and velocity after each sample.
type Sequence struct {
	X []float32 `json:"x"`
	V []float32 `json:"v"`
}

// ScaleVelIn is two scales dt apart, and a velocity to integrate.
type ScaleVelIn struct {
	Curr float32 `json:"curr"`
	Next float32 `json:"next"`
	Vel  float32 `json:"vel"`
	Dt   float32 `json:"dt"`
}

// ScaleVelOut is the velocity from curr to next — naive (units/s), natural
// (1/s) and base 2 (doublings/s) — and curr moved by vel over dt, read each
// way.
type ScaleVelOut struct {
	NaiveVel    float32 `json:"naive_vel"`
	NaturalVel  float32 `json:"natural_vel"`
	Base2Vel    float32 `json:"base2_vel"`
	NaiveNext   float32 `json:"naive_next"`
	NaturalNext float32 `json:"natural_next"`
	Base2Next   float32 `json:"base2_next"`
}

// EerpIn is two positive values and a weight.
type EerpIn struct {
	X float32 `json:"x"`
	Y float32 `json:"y"`
	A float32 `json:"a"`
}

// EerpOut is eerpf, eerpf_alt and eerpf_alt2, and lerpf for contrast.
type EerpOut struct {
	Pow   float32 `json:"pow"`
	Ratio float32 `json:"ratio"`
	Log   float32 `json:"log"`
	Lerp  float32 `json:"lerp"`
}

// LifeIn is a base-2 scalar velocity (doublings/s), a doublelife and a
// half-life (s).
type LifeIn struct {
	Vel        float32 `json:"vel"`
	Doublelife float32 `json:"doublelife"`
	Halflife   float32 `json:"halflife"`
}

// LifeOut converts each: the doublelife and half-life of vel, the
// velocities of the doublelife and of the half-life.
type LifeOut struct {
	Doublelife     float32 `json:"doublelife"`
	Halflife       float32 `json:"halflife"`
	VelDoublelife  float32 `json:"vel_of_doublelife"`
	VelOfHalflife  float32 `json:"vel_of_halflife"`
	DamperHalflife float32 `json:"damper_exact_1s"` // damper_exact(1, 0, halflife, 1): 2^(-1/halflife)
}

// CostIn is an offset (units) and its velocity (units/s) at a transition
// and the decay's half-life (s).
type CostIn struct {
	X        float32 `json:"x"`
	V        float32 `json:"v"`
	Halflife float32 `json:"halflife"`
}

// CostOut is decay_spring_damper_intersection (-1: no crossing),
// decay_spring_damper_displacement (units s), the approximation
// |(2 x y + v)/y^2|, the summed absolute differences |x| + 0.5 |v|, and
// the feature 2 pos/y + vel/y^2 of (x, v).
type CostOut struct {
	Crossing float32 `json:"crossing"`
	Cost     float32 `json:"cost"`
	Approx   float32 `json:"approx"`
	Baseline float32 `json:"baseline"`
	Feature  float32 `json:"feature"`
}

var dampers = []Case[DamperIn, X]{
	{Name: "one 60 Hz tick", Inputs: DamperIn{1, 0, 0.2, 1.0 / 60}},
	{Name: "towards a goal above", Inputs: DamperIn{-3, 2, 0.5, 0.1}},
	{Name: "a long step", Inputs: DamperIn{-3, 2, 0.5, 5}},
	{Name: "exactly one half-life", Inputs: DamperIn{4, 0, 0.3, 0.3}},
	{Name: "half-life 0: snaps to the goal", Inputs: DamperIn{1, 0.25, 0, 1.0 / 60}},
	{Name: "dt 0: unchanged", Inputs: DamperIn{1, 0.25, 0.2, 0}},
	{Name: "half-life 0 and dt 0: snaps", Inputs: DamperIn{1, 0.25, 0, 0}},
}

var springs = []Case[SpringIn, XV]{
	{Name: "under-damped", Inputs: SpringIn{X: 1, V: 0, G: 0, Q: 0, Stiffness: 100, Damping: 4, Dt: 0.1}},
	{Name: "critically damped (damping^2 = 4 stiffness)", Inputs: SpringIn{X: 1, V: -2, G: 0.5, Q: 0, Stiffness: 25, Damping: 10, Dt: 0.1}},
	{Name: "just over critical", Inputs: SpringIn{X: 1, V: -2, G: 0.5, Q: 0, Stiffness: 25, Damping: 10.001, Dt: 0.1}},
	{Name: "over-damped", Inputs: SpringIn{X: 1, V: 3, G: -1, Q: 0, Stiffness: 10, Damping: 20, Dt: 0.2}},
	{Name: "over-damped, a long step", Inputs: SpringIn{X: 1, V: 3, G: -1, Q: 0, Stiffness: 10, Damping: 20, Dt: 10}},
	{Name: "goal velocity", Inputs: SpringIn{X: 0, V: 0, G: 1, Q: 2, Stiffness: 36, Damping: 12.48, Dt: 1.0 / 60}},
	{Name: "undamped", Inputs: SpringIn{X: 1, V: 0, G: 0, Q: 0, Stiffness: 40, Damping: 0, Dt: 0.3}},
	{Name: "no stiffness: a velocity damper drifting at q", Inputs: SpringIn{X: 1, V: 4, G: 0, Q: 1, Stiffness: 0, Damping: 3, Dt: 0.5}},
	{Name: "no stiffness, no damping: free motion", Inputs: SpringIn{X: 1, V: 4, G: 0, Q: 1, Stiffness: 0, Damping: 0, Dt: 0.5}},
	{Name: "dt 0: unchanged", Inputs: SpringIn{X: 1, V: 4, G: 0, Q: 1, Stiffness: 100, Damping: 4, Dt: 0}},
}

var criticalSprings = []Case[SpringIn, XV]{
	{Name: "one 60 Hz tick", Inputs: SpringIn{X: 1, V: 0, G: 0, Halflife: 0.2, Dt: 1.0 / 60}},
	{Name: "moving away from the goal", Inputs: SpringIn{X: -1, V: -5, G: 0.5, Halflife: 0.3, Dt: 0.25}},
	{Name: "goal velocity", Inputs: SpringIn{X: 0, V: 0, G: 1, Q: 2, Halflife: 0.3, Dt: 0.25}},
	{Name: "a long step", Inputs: SpringIn{X: -1, V: -5, G: 0.5, Halflife: 0.3, Dt: 8}},
	{Name: "half-life 0: snaps to (g, 0)", Inputs: SpringIn{X: -1, V: -5, G: 0.5, Halflife: 0, Dt: 1.0 / 60}},
	{Name: "dt 0: unchanged", Inputs: SpringIn{X: -1, V: -5, G: 0.5, Halflife: 0.3, Dt: 0}},
}

var decayTimes = []Case[DecayWeightsIn, DecayWeightsOut]{
	{Name: "t 0", Inputs: DecayWeightsIn{0.15, 0}},
	{Name: "one tick", Inputs: DecayWeightsIn{0.15, 1.0 / 60}},
	{Name: "one half-life", Inputs: DecayWeightsIn{0.15, 0.15}},
	{Name: "long after", Inputs: DecayWeightsIn{0.15, 3}},
	{Name: "half-life 0: all weights 0", Inputs: DecayWeightsIn{0, 0.1}},
	{Name: "half-life 0 at t 0: all weights 0", Inputs: DecayWeightsIn{0, 0}},
}

// trackingCases are single updates at the article's gains (0.01, 0.2, 1
// at 60 Hz), stiffer gains, at other steps, and dt 0.
func trackingCases(halflife bool) []Case[TrackIn, XV] {
	g := [3]float32{0.01, 0.2, 1}
	stiff := [3]float32{0.3, 0.5, 0.8}
	if halflife {
		g, stiff = [3]float32{1, 0.05, 0}, [3]float32{0.1, 0.02, 0.01}
	}
	mk := func(name string, gains [3]float32, dt, gainDt float32) Case[TrackIn, XV] {
		return Case[TrackIn, XV]{Name: name, Inputs: TrackIn{X: 0.4, V: 1.5, XGoal: 0.5, VGoal: 2, AGoal: -3,
			XGain: gains[0], VGain: gains[1], AGain: gains[2], Dt: dt, GainDt: gainDt}}
	}
	return []Case[TrackIn, XV]{
		mk("the article's gains at 60 Hz", g, 1.0/60, 1.0/60),
		mk("the article's gains at 30 Hz", g, 1.0/30, 1.0/60),
		mk("the article's gains at 240 Hz", g, 1.0/240, 1.0/60),
		mk("stiffer gains", stiff, 1.0/60, 1.0/60),
		mk("dt 0: unchanged", g, 0, 1.0/60),
	}
}

// sequenceSignal is a 90-sample signal at 60 Hz: a sine with a cut (a jump
// of 2) before sample 40 and another before 70.
func sequenceSignal() ([]float32, []bool) {
	var xs []float32
	var cuts []bool
	for i := 0; i < 90; i++ {
		t := float64(i) / 60
		x := math.Sin(2 * math.Pi * 0.7 * t)
		if i >= 40 {
			x += 2
		}
		if i >= 70 {
			x -= 3
		}
		xs = append(xs, float32(x))
		cuts = append(cuts, i == 40 || i == 70)
	}
	return xs, cuts
}

func springOps() []Op {
	track := func(name, fn, goName, notes string, halflife bool, f func(in *TrackIn) (float32, float32)) Op {
		return &op[TrackIn, XV]{
			meta: Meta{Op: name, Article: trackingArticle, Section: "Perfect Tracking with Springs", Function: fn, Animsys: goName, Notes: notes},
			cases: func() []Case[TrackIn, XV] {
				cs := trackingCases(halflife)
				if !strings.Contains(name, "exact") {
					for i := range cs {
						cs[i].Inputs.GainDt = 0 // unused
					}
				}
				return cs
			},
			eval: func(in *TrackIn) XV { x, v := f(in); return XV{x, v} },
		}
	}
	lerp := "Gains are per tick in [0, 1]: the update is not dt-invariant (the 30 and 240 Hz cases show it). gain_dt is unused (0)."
	improved := "x_gain, v_gain, a_gain hold the half-lives (s) of damper_exact on the position, velocity and acceleration terms (the article's 1.0, 0.05, 0). gain_dt is unused (0)."
	exact := "The spring-damper the lerp gains ticked every gain_dt seconds amount to (stiffness x_gain/gain_dt^2, damping (1 - t0)/gain_dt, t0 = (1 - v_gain)(1 - x_gain)), solved exactly over dt (spring_damper_exact.json) with the targets held."
	return []Op{
		&op[DamperIn, X]{
			meta: Meta{Op: "damper_exact", Article: springMath, Section: "Half-life and damping", Function: "damper_exact", Animsys: "spring.DamperExact",
				Notes: "lerp(x, g, 1 - exp(-ln2 dt/halflife)): exactly dt-invariant. A half-life of 0 snaps to g, checked before dt: even at dt 0."},
			cases: func() []Case[DamperIn, X] { return dampers },
			eval:  func(in *DamperIn) X { return X{spring.DamperExact(in.X, in.G, in.Halflife, in.Dt)} },
		},
		&op[SpringIn, XV]{
			meta: Meta{Op: "spring_damper_exact", Article: springMath, Section: "The general spring-damper", Function: "spring_damper_exact_stiffness_damping",
				Animsys: "spring.SpringDamperExact",
				Notes:   "x'' = stiffness (g - x) + damping (q - v), solved exactly over dt in its three regimes (computed in float64). Stiffness below 1e-8 is a pure velocity damper. halflife is unused (0)."},
			cases: func() []Case[SpringIn, XV] { return springs },
			eval: func(in *SpringIn) XV {
				x, v := spring.SpringDamperExact(in.X, in.V, in.G, in.Q, in.Stiffness, in.Damping, in.Dt)
				return XV{x, v}
			},
		},
		&op[SpringIn, XV]{
			meta: Meta{Op: "critical_spring_damper_exact", Article: springMath, Section: "The critical spring with a half-life", Function: "critical_spring_damper_exact",
				Animsys: "spring.CriticalSpringDamperExact",
				Notes:   "The critical spring with damping halflife_to_damping(halflife) = 4 ln2/halflife, y = damping/2, goal g and goal velocity q (it settles at g + 2q/y). A half-life of 0 snaps to (g, 0). stiffness and damping are unused (0)."},
			cases: func() []Case[SpringIn, XV] { return criticalSprings },
			eval: func(in *SpringIn) XV {
				x, v := spring.CriticalSpringDamperExact(in.X, in.V, in.G, in.Q, in.Halflife, in.Dt)
				return XV{x, v}
			},
		},
		&op[SpringIn, XV]{
			meta: Meta{Op: "simple_spring_damper_exact", Article: springMath, Section: "The critical spring with a half-life", Function: "simple_spring_damper_exact",
				Animsys: "spring.SimpleSpringDamperExact", Notes: "critical_spring_damper_exact with q = 0 (q, stiffness and damping unused)."},
			cases: func() []Case[SpringIn, XV] {
				var cs []Case[SpringIn, XV]
				for _, c := range criticalSprings {
					if c.Inputs.Q == 0 {
						cs = append(cs, c)
					}
				}
				return cs
			},
			eval: func(in *SpringIn) XV {
				x, v := spring.SimpleSpringDamperExact(in.X, in.V, in.G, in.Halflife, in.Dt)
				return XV{x, v}
			},
		},
		&op[SpringIn, XV]{
			meta: Meta{Op: "decay_spring_damper_exact", Article: costArticle, Section: "(the inertializer's decay)", Function: "decay_spring_damper_exact",
				Animsys: "spring.DecaySpringDamperExact", Notes: "The critical spring carrying an offset (x, v) to zero (g, q, stiffness, damping unused). A half-life of 0 snaps to (0, 0)."},
			cases: func() []Case[SpringIn, XV] {
				var cs []Case[SpringIn, XV]
				for _, c := range criticalSprings {
					if c.Inputs.Q == 0 {
						c.Inputs.G = 0
						cs = append(cs, c)
					}
				}
				return cs
			},
			eval: func(in *SpringIn) XV {
				x, v := spring.DecaySpringDamperExact(in.X, in.V, in.Halflife, in.Dt)
				return XV{x, v}
			},
		},
		&op[DecayWeightsIn, DecayWeightsOut]{
			meta: Meta{Op: "critical_decay_weights", Article: springMath, Section: "The critical spring with a half-life", Function: "(decay_spring_damper_exact as weights)",
				Animsys: "spring.CriticalDecayWeights",
				Notes:   "y = 2 ln2/halflife: w0 = e^(-yt)(1 + yt), w1 = e^(-yt) t (s), w2 = -e^(-yt) y^2 t (1/s^2), w3 = e^(-yt)(1 - yt): x(t) = w0 x0 + w1 v0, v(t) = w2 x0 + w3 v0. A half-life of 0 gives all zeros."},
			cases: func() []Case[DecayWeightsIn, DecayWeightsOut] { return decayTimes },
			eval: func(in *DecayWeightsIn) DecayWeightsOut {
				a, b, c, d := spring.CriticalDecayWeights(in.Halflife, in.T)
				return DecayWeightsOut{a, b, c, d}
			},
		},
		&op[QuatSpringIn, QuatSpringOut]{
			meta: Meta{Op: "quat_spring_damper_exact", Article: scalarArticle, Section: "Scale Springs", Function: "simple_spring_damper_exact_quat",
				Animsys: "spring.QuatSpringDamperExact",
				Notes:   "The critical spring on the offset quat_to_scaled_angle_axis(quat_abs(x * inv(g))) (rad; v in rad/s in the frame the quaternions are in), result exp(offset) g. A half-life of 0 snaps to (g, 0); dt 0 leaves (x, v)."},
			cases: func() []Case[QuatSpringIn, QuatSpringOut] {
				axis := mgl32.Vec3{0.48, 0.6, -0.64}.Normalize()
				g := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.2, -0.4, 0.1})
				rot := func(deg float32) Q4 {
					return q4(mathx.QuatMul(mathx.QuatFromScaledAngleAxis(axis.Mul(deg*math.Pi/180)), g))
				}
				mk := func(name string, deg float32, v V3, h, dt float32) Case[QuatSpringIn, QuatSpringOut] {
					return Case[QuatSpringIn, QuatSpringOut]{Name: name, Inputs: QuatSpringIn{rot(deg), v, q4(g), h, dt}}
				}
				return []Case[QuatSpringIn, QuatSpringOut]{
					mk("40 degrees off, at rest", 40, V3{}, 0.2, 1.0/60),
					mk("40 degrees off, turning across", 40, V3{1, -2, 0.5}, 0.2, 0.1),
					mk("179.5 degrees off", 179.5, V3{0.3, 0, 0}, 0.2, 0.1),
					mk("half-life 0: snaps to (g, 0)", 40, V3{1, -2, 0.5}, 0, 1.0/60),
					mk("dt 0: unchanged", 40, V3{1, -2, 0.5}, 0.2, 0),
				}
			},
			eval: func(in *QuatSpringIn) QuatSpringOut {
				x, v := spring.QuatSpringDamperExact(quat(in.X), vec(in.V), quat(in.G), in.Halflife, in.Dt)
				return QuatSpringOut{q4(x), v3(v)}
			},
		},
		&op[ScaleSpringIn, ScaleSpringOut]{
			meta: Meta{Op: "scale_spring_damper_exact", Article: scalarArticle, Section: "Scale Springs", Function: "simple_spring_damper_exact_scale",
				Animsys: "spring.ScaleSpringDamperExact",
				Notes:   "Per axis, the critical spring on log2(x/g), result exp2(offset) g: v is a base-2 scalar velocity, doublings per second (poses use natural-log scalar velocities: multiply by ln2). A half-life of 0 snaps to (g, 0)."},
			cases: func() []Case[ScaleSpringIn, ScaleSpringOut] {
				return []Case[ScaleSpringIn, ScaleSpringOut]{
					{Name: "growing towards the goal", Inputs: ScaleSpringIn{V3{0.1, 1, 4}, V3{1, 0, -0.5}, V3{1, 2, 0.5}, 0.3, 0.1}},
					{Name: "zero scale velocity", Inputs: ScaleSpringIn{V3{0.1, 1, 4}, V3{}, V3{1, 2, 0.5}, 0.3, 1.0 / 60}},
					{Name: "at the goal, at rest: stays", Inputs: ScaleSpringIn{V3{1, 2, 0.5}, V3{}, V3{1, 2, 0.5}, 0.3, 0.1}},
					{Name: "half-life 0: snaps to (g, 0)", Inputs: ScaleSpringIn{V3{0.1, 1, 4}, V3{1, 0, -0.5}, V3{1, 2, 0.5}, 0, 0.1}},
					{Name: "dt 0: unchanged", Inputs: ScaleSpringIn{V3{0.1, 1, 4}, V3{1, 0, -0.5}, V3{1, 2, 0.5}, 0.3, 0}},
				}
			},
			eval: func(in *ScaleSpringIn) ScaleSpringOut {
				x, v := spring.ScaleSpringDamperExact(vec(in.X), vec(in.V), vec(in.G), in.Halflife, in.Dt)
				return ScaleSpringOut{v3(x), v3(v)}
			},
		},
		&op[ConversionsIn, ConversionsOut]{
			meta: Meta{Op: "spring_conversions", Article: springMath, Section: "Half-life and damping", Function: "halflife_to_damping, damping_to_halflife, frequency_to_stiffness, stiffness_to_frequency",
				Animsys: "spring.HalflifeToDamping, spring.DampingToHalflife, spring.FrequencyToStiffness, spring.StiffnessToFrequency",
				Notes:   "damping = 4 ln2/halflife (1/s), halflife = 4 ln2/damping (s), stiffness = (2 pi frequency)^2 (1/s^2), frequency = sqrt(stiffness)/(2 pi) (Hz). Half-lives and dampings below 1e-8 are read as 1e-8."},
			cases: func() []Case[ConversionsIn, ConversionsOut] {
				return []Case[ConversionsIn, ConversionsOut]{
					{Name: "typical", Inputs: ConversionsIn{0.2, 13.86, 2, 157.9}},
					{Name: "zero half-life and damping", Inputs: ConversionsIn{0, 0, 0, 0}},
				}
			},
			eval: func(in *ConversionsIn) ConversionsOut {
				return ConversionsOut{spring.HalflifeToDamping(in.Halflife), spring.DampingToHalflife(in.Damping),
					spring.FrequencyToStiffness(in.Frequency), spring.StiffnessToFrequency(in.Stiffness)}
			},
		},
		track("tracking_spring_update", "tracking_spring_update", "spring.TrackingSpringUpdate", lerp, false, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdate(in.X, in.V, in.XGoal, in.VGoal, in.AGoal, in.XGain, in.VGain, in.AGain, in.Dt)
		}),
		track("tracking_spring_update_no_acceleration", "tracking_spring_update_no_acceleration", "spring.TrackingSpringUpdateNoAcceleration", lerp+" a_goal and a_gain are unused.", false, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdateNoAcceleration(in.X, in.V, in.XGoal, in.VGoal, in.XGain, in.VGain, in.Dt)
		}),
		track("tracking_spring_update_no_velocity_acceleration", "tracking_spring_update_no_velocity_acceleration", "spring.TrackingSpringUpdateNoVelocityAcceleration", lerp+" Only x_goal and x_gain are used.", false, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdateNoVelocityAcceleration(in.X, in.V, in.XGoal, in.XGain, in.Dt)
		}),
		track("tracking_spring_update_improved", "tracking_spring_update_improved", "spring.TrackingSpringUpdateImproved", improved, true, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdateImproved(in.X, in.V, in.XGoal, in.VGoal, in.AGoal, in.XGain, in.VGain, in.AGain, in.Dt)
		}),
		track("tracking_spring_update_improved_no_acceleration", "(tracking_spring_update_improved without acceleration)", "spring.TrackingSpringUpdateImprovedNoAcceleration", improved, true, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdateImprovedNoAcceleration(in.X, in.V, in.XGoal, in.VGoal, in.XGain, in.VGain, in.Dt)
		}),
		track("tracking_spring_update_improved_no_velocity_acceleration", "(tracking_spring_update_improved, position only)", "spring.TrackingSpringUpdateImprovedNoVelocityAcceleration", improved, true, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdateImprovedNoVelocityAcceleration(in.X, in.V, in.XGoal, in.XGain, in.Dt)
		}),
		track("tracking_spring_update_exact", "tracking_spring_update_exact", "spring.TrackingSpringUpdateExact", exact, false, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdateExact(in.X, in.V, in.XGoal, in.VGoal, in.AGoal, in.XGain, in.VGain, in.AGain, in.Dt, in.GainDt)
		}),
		track("tracking_spring_update_no_acceleration_exact", "tracking_spring_update_no_acceleration_exact", "spring.TrackingSpringUpdateNoAccelerationExact", exact, false, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdateNoAccelerationExact(in.X, in.V, in.XGoal, in.VGoal, in.XGain, in.VGain, in.Dt, in.GainDt)
		}),
		track("tracking_spring_update_no_velocity_acceleration_exact", "tracking_spring_update_no_velocity_acceleration_exact", "spring.TrackingSpringUpdateNoVelocityAccelerationExact", exact, false, func(in *TrackIn) (float32, float32) {
			return spring.TrackingSpringUpdateNoVelocityAccelerationExact(in.X, in.V, in.XGoal, in.XGain, in.Dt, in.GainDt)
		}),
		&op[TargetsIn, TargetsOut]{
			meta: Meta{Op: "tracking_targets", Article: trackingArticle, Section: "Perfect Tracking with Springs", Function: "tracking_target_velocity, tracking_target_acceleration (and clipping)",
				Animsys: "spring.TrackingTargetVelocity, spring.TrackingTargetAcceleration, spring.ClipTarget",
				Notes:   "vel = (x_next - x_curr)/dt, acc = ((x_next - x_curr)/dt - (x_curr - x_prev)/dt)/dt, vel_clipped = clamp(vel, -limit, limit) (limit 0: no clipping). dt 0 gives 0."},
			cases: func() []Case[TargetsIn, TargetsOut] {
				return []Case[TargetsIn, TargetsOut]{
					{Name: "smooth", Inputs: TargetsIn{0.52, 0.5, 0.47, 1.0 / 60, 10}},
					{Name: "a jump, clipped", Inputs: TargetsIn{2.5, 0.5, 0.47, 1.0 / 60, 10}},
					{Name: "no clipping", Inputs: TargetsIn{2.5, 0.5, 0.47, 1.0 / 60, 0}},
					{Name: "dt 0", Inputs: TargetsIn{2.5, 0.5, 0.47, 0, 10}},
				}
			},
			eval: func(in *TargetsIn) TargetsOut {
				v := spring.TrackingTargetVelocity(in.XNext, in.XCurr, in.Dt)
				return TargetsOut{v, spring.TrackingTargetAcceleration(in.XNext, in.XCurr, in.XPrev, in.Dt), spring.ClipTarget(v, in.Limit)}
			},
		},
		&op[GainsIn, StiffnessDamping]{
			meta: Meta{Op: "tracking_spring_exact_stiffness_damping", Article: trackingArticle, Section: "Appendix: Exact Tracking Spring", Function: "(the stiffness and damping of tracking_spring_update_exact)",
				Animsys: "spring.TrackingSpringExactStiffnessDamping", Notes: "stiffness = x_gain/gain_dt^2, damping = (1 - (1 - v_gain)(1 - x_gain))/gain_dt."},
			cases: func() []Case[GainsIn, StiffnessDamping] {
				return []Case[GainsIn, StiffnessDamping]{
					{Name: "the article's gains at 60 Hz (36, 12.48)", Inputs: GainsIn{0.01, 0.2, 1.0 / 60}},
					{Name: "stiffer", Inputs: GainsIn{0.3, 0.5, 1.0 / 60}},
				}
			},
			eval: func(in *GainsIn) StiffnessDamping {
				s, d := spring.TrackingSpringExactStiffnessDamping(in.XGain, in.VGain, in.GainDt)
				return StiffnessDamping{s, d}
			},
		},
		&op[SequenceIn, Sequence]{
			meta: Meta{Op: "tracking_sequence", Article: trackingArticle, Section: "Perfect Tracking with Springs", Function: "the tracking springs over a stream with discontinuities",
				Animsys: "spring.CutTracker with spring.Tracker, HalflifeTracker or ExactTracker",
				Notes: "The spring starts at (0, 0) and takes the samples one by one, dt apart: the targets are the newest sample, the finite-difference velocity to it " +
					"and that velocity's change since the last sample (clipped to max_vel and max_acc when not 0). The first sample, and a sample after a cut (cuts[i]: " +
					"a discontinuity between samples i-1 and i), get the position-only update, the next one position and velocity, then all three again. " +
					"Tolerance: 90 steps, each dividing a position difference by dt, accumulate rounding: abs is 1e-3.",
				Tolerance: Tolerance{Abs: 1e-3, Rel: 1e-4}},
			cases: func() []Case[SequenceIn, Sequence] {
				xs, cuts := sequenceSignal()
				none := make([]bool, len(cuts))
				return []Case[SequenceIn, Sequence]{
					{Name: "lerp gains, cuts known", Inputs: SequenceIn{Filter: "lerp", XGain: 0.01, VGain: 0.2, AGain: 1, Dt: 1.0 / 60, Samples: xs, Cuts: cuts}},
					{Name: "half-lives, cuts known", Inputs: SequenceIn{Filter: "halflife", XGain: 1, VGain: 0.05, AGain: 0, Dt: 1.0 / 60, Samples: xs, Cuts: cuts}},
					{Name: "exact at 60 Hz gains, ticked at 30 Hz, cuts known", Inputs: SequenceIn{Filter: "exact", XGain: 0.01, VGain: 0.2, AGain: 1, GainDt: 1.0 / 60, Dt: 1.0 / 30, Samples: xs, Cuts: cuts}},
					{Name: "lerp gains, cuts unknown, targets clipped", Inputs: SequenceIn{Filter: "lerp", XGain: 0.01, VGain: 0.2, AGain: 1, MaxVel: 10, MaxAcc: 100, Dt: 1.0 / 60, Samples: xs, Cuts: none}},
				}
			},
			eval: func(in *SequenceIn) Sequence {
				var f spring.TrackingFilter
				var state func() (float32, float32)
				switch in.Filter {
				case "halflife":
					t := &spring.HalflifeTracker{XHalflife: in.XGain, VHalflife: in.VGain, AHalflife: in.AGain}
					f, state = t, func() (float32, float32) { return t.X, t.V }
				case "exact":
					t := &spring.ExactTracker{XGain: in.XGain, VGain: in.VGain, AGain: in.AGain, GainDt: in.GainDt}
					f, state = t, func() (float32, float32) { return t.X, t.V }
				default:
					t := &spring.Tracker{XGain: in.XGain, VGain: in.VGain, AGain: in.AGain}
					f, state = t, func() (float32, float32) { return t.X, t.V }
				}
				c := spring.CutTracker{MaxVel: in.MaxVel, MaxAcc: in.MaxAcc}
				var out Sequence
				for i, x := range in.Samples {
					c.Update(f, x, in.Cuts[i], in.Dt)
					px, pv := state()
					out.X, out.V = append(out.X, px), append(out.V, pv)
				}
				return out
			},
		},
		&op[ScaleVelIn, ScaleVelOut]{
			meta: Meta{Op: "scalar_velocity", Article: scalarArticle, Section: "Scalar Velocity, Log Base", Function: "scale_differentiate_velocity(_naive, _natural), scale_integrate_velocity(_naive, _natural)",
				Animsys: "spring.ScaleDifferentiateVelocity*, spring.ScaleIntegrateVelocity*",
				Notes:   "naive: (next - curr)/dt and curr + vel dt; natural: log(next/curr)/dt and exp(vel dt) curr; base 2: log2(next/curr)/dt and exp2(vel dt) curr (doublings per second). dt 0 gives velocity 0 and leaves the scale."},
			cases: func() []Case[ScaleVelIn, ScaleVelOut] {
				return []Case[ScaleVelIn, ScaleVelOut]{
					{Name: "0.1 to 10 over 3 s (the article's growth)", Inputs: ScaleVelIn{0.1, 10, 1.5, 3}},
					{Name: "one tick, shrinking", Inputs: ScaleVelIn{2, 1.9, -0.5, 1.0 / 60}},
					{Name: "no change: zero velocity", Inputs: ScaleVelIn{1.5, 1.5, 0, 1.0 / 60}},
					{Name: "dt 0", Inputs: ScaleVelIn{2, 3, 1, 0}},
				}
			},
			eval: func(in *ScaleVelIn) ScaleVelOut {
				return ScaleVelOut{
					spring.ScaleDifferentiateVelocityNaive(in.Next, in.Curr, in.Dt), spring.ScaleDifferentiateVelocityNatural(in.Next, in.Curr, in.Dt),
					spring.ScaleDifferentiateVelocity(in.Next, in.Curr, in.Dt), spring.ScaleIntegrateVelocityNaive(in.Vel, in.Curr, in.Dt),
					spring.ScaleIntegrateVelocityNatural(in.Vel, in.Curr, in.Dt), spring.ScaleIntegrateVelocity(in.Vel, in.Curr, in.Dt),
				}
			},
		},
		&op[EerpIn, EerpOut]{
			meta: Meta{Op: "eerp", Article: scalarArticle, Section: "Lerp and Eerp", Function: "eerpf, eerpf_alt, eerpf_alt2 (and lerpf)",
				Animsys: "spring.EerpPow, spring.EerpRatio, spring.EerpLog, mathx.Lerp", Notes: "x^(1-a) y^a = x (y/x)^a = exp(lerp(log x, log y, a)); x and y positive."},
			cases: func() []Case[EerpIn, EerpOut] {
				return []Case[EerpIn, EerpOut]{
					{Name: "halfway from 0.1 to 10", Inputs: EerpIn{0.1, 10, 0.5}},
					{Name: "a quarter", Inputs: EerpIn{2, 0.5, 0.25}},
					{Name: "ends", Inputs: EerpIn{2, 0.5, 1}},
					{Name: "beyond", Inputs: EerpIn{2, 0.5, 1.5}},
				}
			},
			eval: func(in *EerpIn) EerpOut {
				return EerpOut{spring.EerpPow(in.X, in.Y, in.A), spring.EerpRatio(in.X, in.Y, in.A), spring.EerpLog(in.X, in.Y, in.A), mathx.Lerp(in.X, in.Y, in.A)}
			},
		},
		&op[LifeIn, LifeOut]{
			meta: Meta{Op: "doublelife", Article: scalarArticle, Section: "The Doublelife", Function: "(doublelife and half-life of a base-2 scalar velocity)",
				Animsys: "spring.ScalarVelocityToDoublelife, ScalarVelocityToHalflife, DoublelifeToScalarVelocity, HalflifeToScalarVelocity, DamperExact",
				Notes:   "doublelife = 1/vel, halflife = -1/vel (s); the inverses 1/doublelife and -1/halflife; damper_exact(1, 0, halflife, 1 s) = 2^(-1/halflife), the damper's scalar velocity being -1/halflife. Zero saturates at +-3.4e38."},
			cases: func() []Case[LifeIn, LifeOut] {
				return []Case[LifeIn, LifeOut]{
					{Name: "3 doublings a second", Inputs: LifeIn{3, 0.5, 0.25}},
					{Name: "halving", Inputs: LifeIn{-2, 2, 1}},
				}
			},
			eval: func(in *LifeIn) LifeOut {
				return LifeOut{spring.ScalarVelocityToDoublelife(in.Vel), spring.ScalarVelocityToHalflife(in.Vel),
					spring.DoublelifeToScalarVelocity(in.Doublelife), spring.HalflifeToScalarVelocity(in.Halflife), spring.DamperExact(1, 0, in.Halflife, 1)}
			},
		},
		&op[CostIn, CostOut]{
			meta: Meta{Op: "transition_cost", Article: costArticle, Section: "Inertialization Transition Cost", Function: "decay_spring_damper_intersection, decay_spring_damper_displacement (and the approximation, the baseline and the feature)",
				Animsys: "spring.DecayZeroCrossing, spring.TransitionCost, spring.TransitionCostApprox, spring.TransitionCostBaseline(x, v, 1, 0.5), spring.TransitionCostFeature(x, v)",
				Notes:   "y = 2 ln2/halflife. crossing = -x/(v + x y) when positive, else -1. cost integrates |offset| of the decaying offset (units s), split at the crossing. approx = |(2 x y + v)/y^2|, baseline = |x| + 0.5|v|, feature = 2 x/y + v/y^2. A half-life of 0 costs 0 and never crosses."},
			cases: func() []Case[CostIn, CostOut] {
				return []Case[CostIn, CostOut]{
					{Name: "same signs: no crossing", Inputs: CostIn{0.3, 1, 0.15}},
					{Name: "a velocity back through zero: crossing", Inputs: CostIn{0.3, -4, 0.15}},
					{Name: "the valley: approx under-estimates", Inputs: CostIn{0.3, -2.5, 0.15}},
					{Name: "negative offset", Inputs: CostIn{-0.5, 0.2, 0.3}},
					{Name: "zero offset", Inputs: CostIn{0, 0, 0.15}},
					{Name: "half-life 0", Inputs: CostIn{0.3, -4, 0}},
				}
			},
			eval: func(in *CostIn) CostOut {
				return CostOut{spring.DecayZeroCrossing(in.X, in.V, in.Halflife), spring.TransitionCost(in.X, in.V, in.Halflife),
					spring.TransitionCostApprox(in.X, in.V, in.Halflife), spring.TransitionCostBaseline(in.X, in.V, 1, 0.5),
					spring.TransitionCostFeature(in.X, in.V, in.Halflife)}
			},
		},
	}
}
