package cost

import (
	"image/color"
	"math"
	"slices"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
	"kinelab/assets"
	"kinelab/ui"
)

// costGridN is the number of grid points per axis of the maps and of the
// --csv grid (odd, so x = 0 and v = 0 are on it).
const costGridN = 101

// costCurveN is the number of samples of the picked offset's curve.
const costCurveN = 241

// The maps, in screen order.
const (
	MapExact = iota
	MapSAD
	MapError
	costMaps
)

// Rankings of the transition finder, in the panel's order.
const (
	RankExact = iota
	RankSAD
	RankFeature
)

var costRankNames = []string{"Exact", "SAD", "Feature"}

// costRanked is how many targets the finder lists.
const costRanked = 5

// costMaxJoints is the most joints the finder compares: the feet and the
// hands (the usual motion-matching features).
const costMaxJoints = 4

// costMaxCandidates caps the finder's targets: longer clips (loaded BVH)
// are sampled every few frames so ranking stays well under a millisecond
// per update.
const costMaxCandidates = 2400

// Settings are the lab's sliders and switches.
type Settings struct {
	Halflife    float32 // s, of the inertializer's critical spring
	XRange      float32 // m, the maps span x in [-XRange, XRange]
	VRange      float32 // m/s, and v in [-VRange, VRange]
	VelWeight   float32 // s, weight of |v| in the SAD cost
	PickX       float32 // m, the picked offset
	PickV       float32 // m/s
	RankBy      int32   // Rank*
	SkipPlaying bool    // the finder skips the playing clip's own frames
	Auto        bool    // play the best target every AutoEvery seconds
	AutoEvery   float32 // s
}

// DefaultSettings is the lab as it opens: the article's half-life and
// SAD weight.
func DefaultSettings() Settings {
	return Settings{Halflife: 0.15, XRange: 0.5, VRange: 10, VelWeight: 0.5,
		PickX: 0.3, PickV: -8, RankBy: RankExact, SkipPlaying: true, Auto: true, AutoEvery: 2}
}

// costExamples are the offsets the "pick" key steps through (m, m/s): no
// crossing; a crossing the approximation underestimates; near the floor of
// the exact cost's valley at the default half-life (v = -1.6·x·y), where
// the velocity offset carries the position offset away with the least
// area; a crossing the other way; and a large velocity with a small
// position offset, where the feature errs most.
var costExamples = [][2]float32{{0.3, 0}, {0.3, -8}, {0.25, -3.7}, {-0.2, 7}, {0.05, -9}}

// costGridKey is what the maps depend on.
type costGridKey struct{ halflife, xr, vr, w float32 }

// costRankKey is what the finder's list depends on besides the pose.
type costRankKey struct {
	halflife, w float32
	by          int32
	skip        bool
	cur         int
}

// costCandidate is one frame of a clip as a transition target: its time
// (s) into the clip's loop and its feature joints' positions (m) and
// velocities (m/s) in character space.
type costCandidate struct {
	clip     int
	t        float32
	pos, vel [costMaxJoints]mgl32.Vec3
}

// Lab is the lab's state, by its parts: the view (its camera and what
// it frames, the joint picked), the settings, the heat maps and the
// picked offset's curve (caches of the settings), the transition finder,
// and the playback of the character. Update drives it; drawing only
// reads it.
type Lab struct {
	app.Base
	view costView
	S    Settings

	heatMaps
	pickedOffset
	finder

	// Playback: the playing clip, and the inertialized transition into it.
	cur                     int
	tCur                    float32            // s into clip cur's loop
	trans                   animsys.Transition // critical-spring inertialization, or a cut long past
	samp, out               animsys.Pose
	global, ghost           animsys.Pose // FK of the output and of the raw target
	characters              int          // characters set so far (playLater)
	sinceAuto               float32
	Target                  int     // candidate of the last transition, -1 if none
	Predicted, PredictedSAD float32 // its exact (m·s) and SAD (m) cost when chosen
	Measured                float32 // m·s, ∫|output - target| dt of its feature joints so far

	tex *costTextures
	sec costPanels
}

// costView is the lab's view of the character: its camera (framing the
// character, app.CameraFor), what Focus frames (the character's hips, the
// middle of its body from them along the ground in the root's frame, and
// its height, m), and the joint picked with a click (0 for none).
type costView struct {
	camera app.OrbitCamera
	hips   int
	middle mgl32.Vec3
	height float32
	joint  int
}

// heatMaps are the maps: row-major grids, row 0 at v = +VRange, column 0
// at x = -XRange; colours for the textures, and each map's maximum.
type heatMaps struct {
	gridKey     costGridKey
	grid        [costMaps][]float32
	approx      []float32
	pixels      [costMaps][]color.RGBA
	MaxVal      [costMaps]float32
	gridVersion int
	csvDone     bool
}

// pickedOffset is the picked offset's curve over [0, CurveT] and its
// costs.
type pickedOffset struct {
	curveKey                       [3]float32
	Curve                          []float32 // m, offset at t = k·CurveT/(costCurveN-1)
	CurveT                         float32   // s
	Crossing                       float32   // s, -1 if it never crosses zero
	PickExact, PickApprox, PickSAD float32
}

// Entry is how the App lists the Transition-cost lab: --lab cost, with the
// --halflife of its grid and finder (0 < H <= 5 s, 0 for the lab's
// default; the smallest accepted is a tiny positive Min because 0 means
// "not given"). Its CSV is the grid, written on the first update, so a
// --csv run needs no --frames.
func Entry() app.LabEntry {
	return app.LabEntry{
		Name:      "cost",
		New:       func() app.Lab { return New() },
		Flags:     []app.LabFlag{{Name: "halflife", Usage: "half-life in seconds of the Transition-cost lab's grid and transition finder", Min: 1e-6, Max: 5}},
		CSVFrames: 1,
	}
}

// New builds the lab on the default character and its clips.
func New() *Lab {
	l := &Lab{S: DefaultSettings(), sec: costPanels{maps: true, pick: true, finder: true}}
	for i := range l.grid {
		l.grid[i] = make([]float32, costGridN*costGridN)
		l.pixels[i] = make([]color.RGBA, costGridN*costGridN)
	}
	l.approx = make([]float32, costGridN*costGridN)
	l.Curve = make([]float32, costCurveN)
	l.SetCharacter(assets.Character())
	l.refresh()
	return l
}

// Camera implements app.Lab: the default camera, framing the character.
func (l *Lab) Camera() app.OrbitCamera { return l.view.camera }

// Name implements app.Lab.
func (l *Lab) Name() string { return "cost" }

// Title implements app.Lab.
func (l *Lab) Title() string { return "Transition cost - " + l.clips[l.cur].Name }

// Focus implements app.Lab: the point that puts the middle of the
// character's body at the middle of its spot on the screen (costSpot:
// between the panels, the heat maps and the plots) in the lab's camera.
// The middle is the hips moved to the middle of the body's box
// (character.Middle, turned as the root is) at half the figure's height,
// so a figure whose hips are not its middle (an animal's pelvis at its
// back end) is framed whole. With no screen (headless) it is up and to
// the right of the middle by a human's offsets, scaled to the character.
func (l *Lab) Focus() mgl32.Vec3 {
	cam := l.view.camera
	if !(cam.Distance > 0) {
		cam = app.DefaultCamera()
	}
	fwd := cam.Target.Sub(cam.Eye()).Normalize()
	right := fwd.Cross(mgl32.Vec3{0, 1, 0}).Normalize()
	up := right.Cross(fwd)
	k := cam.Scale
	if !(k > 0) {
		k = 1
	}
	mid := mgl32.Vec3{0, 0.9 * k, 0} // no character yet: a human's
	if v := &l.view; v.hips > 0 && v.hips < len(l.global.Pos) {
		h := l.global.Pos[v.hips].Add(mathx.QuatMulVec3(l.global.Rot[0], v.middle))
		mid = mgl32.Vec3{h[0], v.height / 2, h[2]}
	}
	f := mid.Add(right.Mul(0.6 * k)).Add(up.Mul(0.72 * k))
	if w, h := ui.Width(), ui.Height(); w > 0 && h > 0 {
		// A point off the screen's middle by (dx, dy) screen heights at
		// the target's depth is that many times the view's height there
		// (span) off the target along right and down.
		s := costSpot(w, h)
		dx, dy := (s.X+s.Width/2-w/2)/h, (s.Y+s.Height/2-h/2)/h
		span := 2 * cam.Distance * float32(math.Tan(float64(cam.FovY)*math.Pi/360))
		f = mid.Sub(right.Mul(dx * span)).Add(up.Mul(dy * span))
	}
	if !mathx.Finite(f[0]) || !mathx.Finite(f[1]) || !mathx.Finite(f[2]) {
		return mgl32.Vec3{0, 0.9, 0}
	}
	return f
}

// costSpot is where the character stands on a w x h screen (units): right
// of the panels, left of the finder's table and the plot, under the heat
// maps.
func costSpot(w, h float32) rl.Rectangle {
	area, plot, lay := app.LabArea(w, h), app.LabPlot(w, h), costMapLayout(w, h)
	return rl.Rectangle{X: area.X, Y: lay.bottom, Width: plot.X - area.X, Height: area.Y + area.Height - lay.bottom}
}

// Configure implements app.Lab: --halflife, when given, sets the
// half-life of the maps, the curve and the finder.
func (l *Lab) Configure(c app.Config) {
	if v, ok := c.LabFlag("halflife"); ok {
		l.S.Halflife = float32(v)
		l.refresh()
	}
}

// Update implements app.Lab: it refreshes what the settings changed (all
// that dt = 0 does), then plays on.
func (l *Lab) Update(dt float32) {
	l.refresh()
	if !(dt > 0) {
		return
	}
	_, loop := l.clips[l.cur].Loop()
	l.tCur = costWrap(l.tCur+dt, loop)
	l.trans.Advance(dt)
	l.evaluate(dt)
	l.rank()
	l.sinceAuto += dt
	if l.S.Auto && l.sinceAuto >= l.S.AutoEvery && l.Ranked[0] >= 0 {
		l.Play(l.Ranked[0])
	}
}

// refresh rebuilds the maps, the picked curve and the finder's list when
// what they depend on changed. The keys call it too, so they act while
// paused.
func (l *Lab) refresh() {
	s := &l.S
	s.PickX = mathx.Clamp(s.PickX, -s.XRange, s.XRange)
	s.PickV = mathx.Clamp(s.PickV, -s.VRange, s.VRange)
	if k := (costGridKey{s.Halflife, s.XRange, s.VRange, s.VelWeight}); k != l.gridKey || l.gridVersion == 0 {
		l.gridKey = k
		l.buildGrid()
	}
	if k := [3]float32{s.Halflife, s.PickX, s.PickV}; k != l.curveKey || l.CurveT == 0 {
		l.curveKey = k
		l.buildCurve()
	}
	if k := (costRankKey{s.Halflife, s.VelWeight, s.RankBy, s.SkipPlaying, l.cur}); k != l.rankKey {
		l.rank()
	}
}

// GridX is the position offset (m) of grid column c.
func (l *Lab) GridX(c int) float32 {
	return l.S.XRange * (2*float32(c)/(costGridN-1) - 1)
}

// GridV is the velocity offset (m/s) of grid row r (row 0 at the top).
func (l *Lab) GridV(r int) float32 {
	return l.S.VRange * (1 - 2*float32(r)/(costGridN-1))
}

// buildGrid evaluates the three costs over the grid and colours the maps,
// each scaled to its own maximum.
func (l *Lab) buildGrid() {
	h, w := l.S.Halflife, l.S.VelWeight
	exact, sad, errs := l.grid[MapExact], l.grid[MapSAD], l.grid[MapError]
	for r := 0; r < costGridN; r++ {
		v := l.GridV(r)
		for c := 0; c < costGridN; c++ {
			x, i := l.GridX(c), r*costGridN+c
			exact[i] = spring.TransitionCost(x, v, h)
			l.approx[i] = spring.TransitionCostApprox(x, v, h)
			sad[i] = spring.TransitionCostBaseline(x, v, 1, w)
			errs[i] = exact[i] - l.approx[i]
		}
	}
	for m := range l.grid {
		mx := float32(0)
		for _, x := range l.grid[m] {
			mx = max(mx, x)
		}
		l.MaxVal[m] = mx
		for i, x := range l.grid[m] {
			l.pixels[m][i] = costColor(x / max(mx, 1e-30))
		}
	}
	l.gridVersion++
}

// buildCurve samples the picked offset decaying over about eight
// half-lives (longer if it crosses zero late) and its costs.
func (l *Lab) buildCurve() {
	x, v, h := l.S.PickX, l.S.PickV, l.S.Halflife
	l.Crossing = spring.DecayZeroCrossing(x, v, h)
	l.CurveT = mathx.Clamp(8*h, 0.1, 10)
	if l.Crossing > 0 {
		l.CurveT = mathx.Clamp(max(l.CurveT, 3*l.Crossing), 0.1, 10)
	}
	for k := range l.Curve {
		t := l.CurveT * float32(k) / (costCurveN - 1)
		if k == 0 {
			l.Curve[k] = x
			continue
		}
		l.Curve[k], _ = spring.DecaySpringDamperExact(x, v, h, t)
	}
	if h < mathx.Eps {
		l.Curve[0] = 0 // a zero half-life snaps the offset away at once
	}
	l.PickExact = spring.TransitionCost(x, v, h)
	l.PickApprox = spring.TransitionCostApprox(x, v, h)
	l.PickSAD = spring.TransitionCostBaseline(x, v, 1, l.S.VelWeight)
}

// Pick sets the picked offset (m, m/s), clamped to the maps' ranges.
func (l *Lab) Pick(x, v float32) {
	l.S.PickX, l.S.PickV = x, v
	l.refresh()
}

// NextExample picks the next of the example offsets, scaling the ranges
// up if it lies outside them.
func (l *Lab) NextExample() {
	i := 0
	for k, e := range costExamples {
		if e[0] == l.S.PickX && e[1] == l.S.PickV {
			i = (k + 1) % len(costExamples)
		}
	}
	e := costExamples[i]
	l.S.XRange = max(l.S.XRange, float32(math.Abs(float64(e[0]))))
	l.S.VRange = max(l.S.VRange, float32(math.Abs(float64(e[1]))))
	l.Pick(e[0], e[1])
}

// ScaleHalflife multiplies the half-life by k, within the slider's range.
func (l *Lab) ScaleHalflife(k float32) {
	r := l.sliders().Of(&l.S.Halflife)
	l.S.Halflife = mathx.Clamp(l.S.Halflife*k, r.Lo, r.Hi)
	l.refresh()
}

// CSVHeader implements app.Lab: the grid's columns.
func (l *Lab) CSVHeader() []string {
	return []string{"x_m", "v_m/s", "exact_m*s", "approx_m*s", "sad_m"}
}

// CSVRows implements app.Lab: the whole grid (v ascending, x
// ascending within) on the first update, nothing after: --csv writes the
// maps of the half-life set by --halflife (default 0.15 s).
func (l *Lab) CSVRows(rows [][]string) [][]string {
	if l.csvDone {
		return nil
	}
	l.csvDone = true
	l.refresh()
	rows = slices.Grow(rows, costGridN*costGridN)
	for r := costGridN - 1; r >= 0; r-- {
		for c := 0; c < costGridN; c++ {
			i := r*costGridN + c
			rows = append(rows, []string{app.CSVFloat(l.GridX(c)), app.CSVFloat(l.GridV(r)),
				app.CSVFloat(l.grid[MapExact][i]), app.CSVFloat(l.approx[i]), app.CSVFloat(l.grid[MapSAD][i])})
		}
	}
	return rows
}

func costAbs(x float32) float32 { return float32(math.Abs(float64(x))) }
