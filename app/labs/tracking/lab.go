package tracking

import (
	"fmt"
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/character"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
	"kinelab/assets"
	"kinelab/render"
)

// Input signals, in the order of the panel's choice.
const (
	SignalSwitch = iota // two smooth signals, swapped every SwitchPeriod
	SignalJumps         // a smooth signal plus an offset that jumps at random
	SignalDrawn         // Ctrl+drag in the top plot
)

// Tracking variants, in plot, legend and CSV order.
const (
	VarPlain    = iota // critical spring towards the input, at rest
	VarLerp            // tracking_spring_update (per-tick gains)
	VarHalflife        // tracking_spring_update_improved
	VarExact           // tracking_spring_update_exact
	numVariants
)

var (
	trackVariantIDs    = [numVariants]string{"plain", "lerp", "halflife", "exact"} // CSV
	trackVariantLabels = [numVariants]string{"plain", "lerp", "half-life", "exact"}
	// InputColor is the input signal and the raw character.
	InputColor = color.RGBA{R: 150, G: 156, B: 170, A: 255}
	// Colors are the variants' plot lines and filtered characters.
	Colors = [numVariants]color.RGBA{
		{R: 240, G: 170, B: 60, A: 255},  // plain: orange
		{R: 200, G: 110, B: 240, A: 255}, // lerp: violet
		{R: 80, G: 220, B: 140, A: 255},  // half-life: green
		{R: 70, G: 200, B: 240, A: 255},  // exact: cyan
	}
)

// Settings are the lab's sliders and switches.
type Settings struct {
	Signal       int32   // Signal* input
	SwitchPeriod float32 // s between swaps of the two signals; 0: only on demand
	JumpRate     float32 // random jumps per second (Poisson)
	JumpSize     float32 // m, largest jump offset

	PlainHalflife                   float32 // s, the stiff plain spring
	XGain, VGain, AGain             float32 // per-tick gains of the lerp and exact springs
	GainDt                          float32 // s, the tick the exact spring's gains are for
	XHalflife, VHalflife, AHalflife float32 // s, the half-life spring

	KnownCuts      bool    // tell the trackers where the input jumps
	Clip           bool    // clip velocity and acceleration targets
	MaxVel, MaxAcc float32 // m/s, m/s²

	Character   bool    // show the character filtered across cuts
	CharVariant int32   // Var* filter applied to the character
	CharClip    int32   // clip the character plays
	CutEvery    float32 // s between cuts in the character's clip; 0: only on demand
	CutSkip     float32 // s of clip time each cut skips

	Window   float32           // s of history in the plots
	Show     [numVariants]bool // variants drawn in the plots
	HoldPlot bool              // hold the plots' y ranges
}

// DefaultSettings is the lab as it opens: the article's gains (x 0.01,
// v 0.2, a 1 at 60 Hz) and half-lives (x 1, v 0.05, a 0), the default
// character on the clip it opens on (walk).
func DefaultSettings() Settings {
	return Settings{Signal: SignalSwitch, SwitchPeriod: 2, JumpRate: 0.6, JumpSize: 0.8,
		PlainHalflife: 0.05, XGain: 0.01, VGain: 0.2, AGain: 1, GainDt: 1.0 / 60,
		XHalflife: 1, VHalflife: 0.05, AHalflife: 0,
		KnownCuts: true, MaxVel: 3, MaxAcc: 20,
		Character: true, CharVariant: VarExact, CharClip: int32(assets.Character().Start), CutEvery: 1.5, CutSkip: 0.35,
		Window: 6, Show: [numVariants]bool{true, true, true, true}}
}

// Lab is the lab's state. Update drives it; drawing only reads it.
type Lab struct {
	app.Base
	camera app.OrbitCamera // framing the character (app.CameraFor)
	joint  int             // joint of the raw character picked with a click, 0 for none
	S      Settings
	sec    trackPanels

	time   float64          // s of simulated time
	dt     float32          // s, the last tick
	rng    mathx.Xorshift32 // the jumps, reproducible per seed
	input  float32          // m, the signal's newest sample
	cut    bool             // the newest sample follows a discontinuity
	cuts   int              // discontinuities so far
	which  int              // SignalSwitch: which of the two signals plays
	since  float32          // s since the last swap (SignalSwitch)
	offset float32          // m, the jumping offset (SignalJumps)
	signal int32            // mode of the last update, to notice a change
	pend   bool             // a discontinuity was asked for
	draw   app.PlotDrag

	// The variants: the plain spring's state, and a filter with the
	// CutTracker feeding it for each tracking spring.
	plainX, plainV float32
	lerp           spring.Tracker
	half           spring.HalflifeTracker
	exact          spring.ExactTracker
	feed           [numVariants]spring.CutTracker

	char       *trackChar
	plot, errs *render.Plot
}

// SetCharacter implements app.Lab: the character filtered
// across cuts becomes ch (loaded BVH files), playing its clips from the
// one it opens on.
func (l *Lab) SetCharacter(ch *character.Character) {
	l.char = newTrackChar(ch)
	l.S.CharClip = int32(ch.Start)
	l.camera = app.CameraFor(ch)
	// Two figures that are no human (an animal seen from its front-left)
	// side by side span apart + width: farther back when that is more
	// than the default pair's 1.5 m at the view's scale.
	if !ch.Figure.Human {
		l.camera.Distance *= max(1, (l.char.apart+l.char.width)/(1.5*l.scale()))
	}
}

// scale is the character's view scale (app.ViewScale): 1 for a human.
func (l *Lab) scale() float32 {
	if !(l.camera.Scale > 0) {
		return 1
	}
	return l.camera.Scale
}

// Camera implements app.Lab: the default camera, framing the character.
func (l *Lab) Camera() app.OrbitCamera { return l.camera }

// Entry is how the App lists the Tracking lab: --lab tracking.
func Entry() app.LabEntry {
	return app.LabEntry{Name: "tracking", New: func() app.Lab { return New() }}
}

// New makes the lab with its defaults, seed 1.
func New() *Lab {
	l := &Lab{S: DefaultSettings(), sec: trackPanels{input: true, springs: true}, dt: 1.0 / 60,
		char: newTrackChar(assets.Character()), camera: app.DefaultCamera(), signal: SignalSwitch}
	l.Configure(app.Config{Seed: 1})
	l.plot = render.NewPlot(dtTitle(l.dt), "m", 2048)
	l.plot.AddSeries("input", InputColor)
	l.plot.SetLineWidth(0, 6)
	l.errs = render.NewPlot("x - input", "m", 2048)
	for v := range numVariants {
		l.plot.AddSeries(trackVariantLabels[v], Colors[v])
		l.errs.AddSeries(trackVariantLabels[v], Colors[v])
	}
	// The lerp spring is drawn wide under the others: at the tick its
	// gains are for, the exact one covers it but for a violet edge.
	l.plot.SetLineWidth(1+VarLerp, 5)
	l.errs.SetLineWidth(VarLerp, 5)
	l.input = l.sample(0)
	l.plainX, l.lerp.X, l.half.X, l.exact.X = l.input, l.input, l.input, l.input
	return l
}

// Name implements app.Lab.
func (l *Lab) Name() string { return "tracking" }

// Title implements app.Lab.
func (l *Lab) Title() string {
	return "Tracking - " + [...]string{"two signals", "random jumps", "drawn signal"}[l.S.Signal]
}

// Configure implements app.Lab: --seed seeds the random jumps.
func (l *Lab) Configure(c app.Config) { l.rng = mathx.NewXorshift32(c.Seed) }

// Jump asks for a discontinuity now: the signals swap, or the offset jumps.
func (l *Lab) Jump() { l.pend = true }

// CutCharacter asks for a cut in the character's clip now.
func (l *Lab) CutCharacter() { l.char.pend = true }

// Update implements app.Lab: one tick of dt seconds. dt = 0 changes nothing.
func (l *Lab) Update(dt float32) {
	if !(dt > 0) || math.IsInf(float64(dt), 0) {
		return
	}
	s := &l.S
	l.time += float64(dt)
	l.dt = dt
	l.input, l.cut = l.next(dt)
	if l.cut {
		l.cuts++
		l.plot.Mark(l.time)
		l.errs.Mark(l.time)
	}

	// The stiff plain spring: a critical spring chasing the input at rest.
	l.plainX, l.plainV = spring.SimpleSpringDamperExact(l.plainX, l.plainV, l.input, s.PlainHalflife, dt)

	// The tracking springs, fed through a CutTracker each.
	l.lerp.XGain, l.lerp.VGain, l.lerp.AGain = s.XGain, s.VGain, s.AGain
	l.half.XHalflife, l.half.VHalflife, l.half.AHalflife = s.XHalflife, s.VHalflife, s.AHalflife
	l.exact.XGain, l.exact.VGain, l.exact.AGain, l.exact.GainDt = s.XGain, s.VGain, s.AGain, s.GainDt
	maxVel, maxAcc := s.clipLimits()
	known := l.cut && s.KnownCuts
	filters := [numVariants]spring.TrackingFilter{VarLerp: &l.lerp, VarHalflife: &l.half, VarExact: &l.exact}
	for v, f := range filters {
		if f == nil {
			continue
		}
		l.feed[v].MaxVel, l.feed[v].MaxAcc = maxVel, maxAcc
		l.feed[v].Update(f, l.input, known, dt)
	}

	l.char.update(s, dt)
	l.push()
}

// clipLimits are the CutTracker limits: none unless clipping is on.
func (s *Settings) clipLimits() (maxVel, maxAcc float32) {
	if !s.Clip {
		return 0, 0
	}
	// A limit of 0 would mean "no clipping": keep a tiny one instead.
	return max(s.MaxVel, 1e-6), max(s.MaxAcc, 1e-6)
}

// Output returns variant v's position (m) and velocity (m/s).
func (l *Lab) Output(v int) (x, vel float32) {
	switch v {
	case VarLerp:
		return l.lerp.X, l.lerp.V
	case VarHalflife:
		return l.half.X, l.half.V
	case VarExact:
		return l.exact.X, l.exact.V
	default:
		return l.plainX, l.plainV
	}
}

// push records this tick in the plots.
func (l *Lab) push() {
	var x, e [numVariants]float32
	for v := range numVariants {
		x[v], _ = l.Output(v)
		e[v] = mathx.Float32Sat(float64(x[v]) - float64(l.input))
		l.plot.SetVisible(v+1, l.S.Show[v])
		l.errs.SetVisible(v, l.S.Show[v])
	}
	l.plot.Title = dtTitle(l.dt) // here, not in Draw2D: drawing only reads
	l.plot.Window, l.errs.Window = float64(l.S.Window), float64(l.S.Window)
	l.plot.Hold, l.errs.Hold = l.S.HoldPlot || l.draw.Down, l.S.HoldPlot
	l.plot.Push(l.time, l.input, x[0], x[1], x[2], x[3])
	l.errs.Push(l.time, e[0], e[1], e[2], e[3])
}

// dtTitle is the top plot's title: the tick the springs last ran at.
func dtTitle(dt float32) string { return fmt.Sprintf("dt %.1f ms", dt*1000) }

// next is the input's sample dt seconds after the last one, and whether
// a discontinuity lies between them.
func (l *Lab) next(dt float32) (x float32, cut bool) {
	s := &l.S
	pend := l.pend
	l.pend = false
	x = l.input
	switch s.Signal {
	case SignalSwitch:
		l.since += dt
		if pend || (s.SwitchPeriod > 0 && l.since >= s.SwitchPeriod) {
			l.which, l.since, cut = 1-l.which, 0, true
		}
		x = l.sample(l.time)
	case SignalJumps:
		// A Poisson process: a jump in this tick with probability 1 - e^(-rate dt).
		p := 1 - math.Exp(-float64(max(s.JumpRate, 0))*float64(dt))
		if pend || float64(l.rng.Float()) < p {
			l.offset, cut = (2*l.rng.Float()-1)*s.JumpSize, true
		}
		x = l.sample(l.time)
	case SignalDrawn:
		if l.draw.Down && mathx.Finite(l.draw.Value) {
			cut = l.draw.Pressed && math.Abs(float64(l.draw.Value-l.input)) > 1e-3
			x = l.draw.Value
		}
		l.draw.Pressed = false
	}
	if s.Signal != l.signal { // a new signal starts where it is, not where the old one was
		l.signal = s.Signal
		cut = cut || math.Abs(float64(x-l.input)) > 1e-6
	}
	return x, cut
}

// sample is the smooth part of the input signal at time t (s), in m.
func (l *Lab) sample(t float64) float32 {
	sin := func(w, p float64) float64 { return math.Sin(w*t + p) }
	switch l.S.Signal {
	case SignalJumps:
		return float32(0.4*sin(1.9, 0)+0.2*sin(4.7, 1)) + l.offset
	default:
		if l.which == 0 {
			return float32(-0.5 + 0.35*sin(2.1, 0) + 0.15*sin(5.3, 1))
		}
		return float32(0.6 + 0.3*sin(1.3, 2) + 0.12*sin(6.1, 0))
	}
}

// CSVHeader implements app.Lab: time, the input, then position and
// velocity of each variant, then the tick's dt and whether the input
// jumped on it.
func (l *Lab) CSVHeader() []string {
	h := []string{"t_s", "input_m"}
	for _, id := range trackVariantIDs {
		h = append(h, id+"_x_m", id+"_v_m_per_s")
	}
	return append(h, "dt_s", "cut")
}

// CSVRows implements app.Lab: one row per update.
func (l *Lab) CSVRows(rows [][]string) [][]string {
	row := make([]string, 0, 4+2*numVariants)
	row = append(row, app.CSVTime(l.time), app.CSVFloat(l.input))
	for v := range numVariants {
		x, vel := l.Output(v)
		row = append(row, app.CSVFloat(x), app.CSVFloat(vel))
	}
	return append(rows, append(row, app.CSVFloat(l.dt), app.CSVBool(l.cut)))
}

// Focus implements app.Lab: between the two characters, shifted so that with
// the default camera they stand left of the plots.
func (l *Lab) Focus() mgl32.Vec3 {
	// The shift beside the plots is for the default camera's distance:
	// in proportion to this camera's.
	shift := app.FocusBesidePlots(mgl32.Vec3{}).Mul(l.camera.Distance / app.DefaultCamera().Distance)
	return mgl32.Vec3{0, 0.9 * l.scale(), 0}.Add(shift)
}
