package app

import (
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// The Transition-cost lab (inertialization-transition-cost article): heat
// maps over (position offset x, velocity offset v) of the exact
// inertialized displacement ∫|offset(t)| dt, the summed absolute
// difference |x| + w|v| that motion matching usually uses, and the error
// of the approximate feature |(2xy + v)/y²|; one picked (x, v) with its
// decaying offset, shaded area and zero crossing; and, beyond the
// article, a transition finder ranking every frame of the default clips
// as a target from the playing pose by those costs, playing the
// inertialized transition to the chosen one.
//
// Units: x in m, v in m/s, the exact and approximate costs in m·s, the SAD
// cost in m (its velocity weight w is in s), half-lives in s.

// costGridN is the number of grid points per axis of the maps and of the
// --csv grid (odd, so x = 0 and v = 0 are on it).
const costGridN = 101

// costCurveN is the number of samples of the picked offset's curve.
const costCurveN = 241

// The maps, in screen order.
const (
	CostMapExact = iota
	CostMapSAD
	CostMapError
	costMaps
)

// Rankings of the transition finder, in the panel's order.
const (
	CostRankExact = iota
	CostRankSAD
	CostRankFeature
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

// CostSettings are the lab's sliders and switches.
type CostSettings struct {
	Halflife    float32 // s, of the inertializer's critical spring
	XRange      float32 // m, the maps span x in [-XRange, XRange]
	VRange      float32 // m/s, and v in [-VRange, VRange]
	VelWeight   float32 // s, weight of |v| in the SAD cost
	PickX       float32 // m, the picked offset
	PickV       float32 // m/s
	RankBy      int32   // CostRank*
	SkipPlaying bool    // the finder skips the playing clip's own frames
	Auto        bool    // play the best target every AutoEvery seconds
	AutoEvery   float32 // s
}

// DefaultCostSettings is the lab as it opens: the article's half-life and
// SAD weight.
func DefaultCostSettings() CostSettings {
	return CostSettings{Halflife: 0.15, XRange: 0.5, VRange: 10, VelWeight: 0.5,
		PickX: 0.3, PickV: -8, RankBy: CostRankExact, SkipPlaying: true, Auto: true, AutoEvery: 2}
}

// costExamples are the offsets the "pick" key steps through (m, m/s): no
// crossing, a crossing the approximation underestimates, the valley where
// a velocity offset cancels a position offset, and the mirror image.
var costExamples = [][2]float32{{0.3, 0}, {0.3, -8}, {0.25, -4.6}, {-0.2, 7}, {0.05, -9}}

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

// CostLab is the lab's state. Update drives it; drawing only reads it.
type CostLab struct {
	S    CostSettings
	time float64

	// The maps: row-major grids, row 0 at v = +VRange, column 0 at
	// x = -XRange; colours for the textures, and each map's maximum.
	gridKey     costGridKey
	rankKey     costRankKey
	grid        [costMaps][]float32
	approx      []float32
	pixels      [costMaps][]color.RGBA
	MaxVal      [costMaps]float32
	gridVersion int
	csvDone     bool

	// The picked offset: its curve over [0, CurveT] and its costs.
	curveKey                       [3]float32
	Curve                          []float32 // m, offset at t = k·CurveT/(costCurveN-1)
	CurveT                         float32   // s
	Crossing                       float32   // s, -1 if it never crosses zero
	PickExact, PickApprox, PickSAD float32

	// The transition finder: every clip frame as a candidate target, the
	// costs from the playing pose, and the best costRanked by S.RankBy.
	skel                         animsys.Skeleton
	clips                        []animsys.Clip
	joints                       []int // the compared joints (at most costMaxJoints)
	cands                        []costCandidate
	costExact, costSAD, costFeat []float32
	Ranked                       [costRanked]int // candidate indices, -1 if none

	// Playback: the playing clip, and the inertialized transition into it.
	cur                     int
	tCur                    float32 // s into clip cur's loop
	inert                   bool
	transTime               float32 // s since the transition
	offset, samp, out       animsys.Pose
	global, ghost           animsys.Pose // FK of the output and of the raw target
	autoT                   float32
	Target                  int     // candidate of the last transition, -1 if none
	Predicted, PredictedSAD float32 // its exact (m·s) and SAD (m) cost when chosen
	Measured                float32 // m·s, ∫|output - target| dt of its feature joints so far

	tex *costTextures
	sec costPanels
}

// NewCostLab builds the lab on the default character and its clips.
func NewCostLab() *CostLab {
	l := &CostLab{S: DefaultCostSettings(), sec: costPanels{maps: true, pick: true, finder: true}}
	for i := range l.grid {
		l.grid[i] = make([]float32, costGridN*costGridN)
		l.pixels[i] = make([]color.RGBA, costGridN*costGridN)
	}
	l.approx = make([]float32, costGridN*costGridN)
	l.Curve = make([]float32, costCurveN)
	l.SetCharacter(DefaultCharacter())
	l.refresh()
	return l
}

// SetCharacter implements characterLab: the finder ranks the frames of
// ch's clips, comparing its feet and hands (found by name, else its IK
// chains' ends and head), and the lab plays its second clip (walk, on the
// default character).
func (l *CostLab) SetCharacter(ch *Character) {
	l.skel, l.clips = ch.Skel, ch.Clips
	l.joints = costFeatureJoints(ch)
	n := l.skel.Len()
	for _, p := range []*animsys.Pose{&l.offset, &l.samp, &l.out, &l.global, &l.ghost} {
		*p = animsys.NewPose(n)
	}
	l.cur, l.tCur = min(1, len(l.clips)-1), 0
	l.inert, l.Target, l.autoT = false, -1, 0
	l.buildCandidates()
	l.costExact = make([]float32, len(l.cands))
	l.costSAD = make([]float32, len(l.cands))
	l.costFeat = make([]float32, len(l.cands))
	l.evaluate(0)
	l.rank()
}

// costFeatureJoints picks the joints the finder compares: the left and
// right feet and hands by name, or else the character's IK chain ends and
// head, or else its first joints below the root.
func costFeatureJoints(ch *Character) []int {
	var out []int
	add := func(j int) {
		if j > 0 && len(out) < costMaxJoints && !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	for _, side := range []string{"left", "right"} {
		for _, part := range []string{"foot", "hand"} {
			for j, nm := range ch.Skel.Names {
				l := strings.ToLower(nm)
				if j > 0 && strings.Contains(l, part) && !strings.Contains(l, "_end") && isSide(nm, side) {
					add(j)
					break
				}
			}
		}
	}
	if len(out) < 2 {
		add(ch.Leg.End)
		add(ch.Arm.End)
		add(ch.Head)
	}
	for j := 1; len(out) == 0 && j < min(ch.Skel.Len(), costMaxJoints+1); j++ {
		add(j)
	}
	return out
}

// buildCandidates samples the frames in every clip's loop (every few
// frames if there are more than costMaxCandidates) in character space:
// the root removed, FK with velocities.
func (l *CostLab) buildCandidates() {
	l.cands = l.cands[:0]
	total := 0
	for c := range l.clips {
		_, n := l.clips[c].Loop()
		total += int(n/l.clips[c].FrameTime + 0.5)
	}
	stride := max(1, (total+costMaxCandidates-1)/costMaxCandidates)
	for c := range l.clips {
		clip := &l.clips[c]
		_, n := clip.Loop()
		frames := int(n/clip.FrameTime + 0.5)
		for f := 0; f < frames; f += stride {
			t := float32(f) * clip.FrameTime
			l.sample(&l.samp, c, t)
			animsys.FK(&l.global, &l.samp, l.skel.Parents)
			k := costCandidate{clip: c, t: t}
			for j, jt := range l.joints {
				k.pos[j], k.vel[j] = l.global.Pos[jt], l.global.Vel[jt]
			}
			l.cands = append(l.cands, k)
		}
	}
}

// Name implements Lab.
func (l *CostLab) Name() string { return "cost" }

// Title implements Lab.
func (l *CostLab) Title() string { return "Transition cost - " + l.clips[l.cur].Name }

// Focus implements Lab: a point up and to the right of the character, so
// that the default camera shows it below-left of the screen's centre,
// between the heat maps and the plots.
func (l *CostLab) Focus() mgl32.Vec3 {
	cam := DefaultCamera()
	fwd := cam.Target.Sub(cam.Eye()).Normalize()
	right := fwd.Cross(mgl32.Vec3{0, 1, 0}).Normalize()
	up := right.Cross(fwd)
	return mgl32.Vec3{0, 0.9, 0}.Add(right.Mul(0.6)).Add(up.Mul(0.72))
}

// Configure implements configLab: --halflife, when given, sets the
// half-life of the maps, the curve and the finder.
func (l *CostLab) Configure(c Config) {
	if c.Halflife > 0 {
		l.S.Halflife = c.Halflife
		l.refresh()
	}
}

// Update implements Lab. dt = 0 only refreshes what the settings changed.
func (l *CostLab) Update(dt float32) {
	l.refresh()
	if !(dt > 0) {
		return
	}
	l.time += float64(dt)
	_, loop := l.clips[l.cur].Loop()
	l.tCur = costWrap(l.tCur+dt, loop)
	l.transTime += dt
	l.evaluate(dt)
	l.rank()
	l.autoT += dt
	if l.S.Auto && l.autoT >= l.S.AutoEvery && l.Ranked[0] >= 0 {
		l.Play(l.Ranked[0])
	}
}

// refresh rebuilds the maps and the picked curve when what they depend on
// changed. The panel and the keys call it too, so they act while paused.
func (l *CostLab) refresh() {
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
func (l *CostLab) GridX(c int) float32 {
	return l.S.XRange * (2*float32(c)/(costGridN-1) - 1)
}

// GridV is the velocity offset (m/s) of grid row r (row 0 at the top).
func (l *CostLab) GridV(r int) float32 {
	return l.S.VRange * (1 - 2*float32(r)/(costGridN-1))
}

// buildGrid evaluates the three costs over the grid and colours the maps,
// each scaled to its own maximum.
func (l *CostLab) buildGrid() {
	h, w := l.S.Halflife, l.S.VelWeight
	exact, sad, errs := l.grid[CostMapExact], l.grid[CostMapSAD], l.grid[CostMapError]
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
func (l *CostLab) buildCurve() {
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
func (l *CostLab) Pick(x, v float32) {
	l.S.PickX, l.S.PickV = x, v
	l.refresh()
}

// NextExample picks the next of the example offsets, scaling the ranges
// up if it lies outside them.
func (l *CostLab) NextExample() {
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
func (l *CostLab) ScaleHalflife(k float32) {
	l.S.Halflife = mathx.Clamp(l.S.Halflife*k, 0.01, 1)
	l.refresh()
}

// sample writes clip c at time t (s) into its loop into p, in place: the
// root removed, so every pose is in character space.
func (l *CostLab) sample(p *animsys.Pose, c int, t float32) {
	start, _ := l.clips[c].Loop()
	animsys.SampleCubic(p, &l.clips[c], start+t)
	animsys.RemoveGlobalRoot(p)
}

// evaluate makes the output pose: the playing clip, plus the decaying
// offset of the last transition (critical-spring inertialization with the
// lab's half-life). dt (s) integrates the measured displacement.
func (l *CostLab) evaluate(dt float32) {
	l.sample(&l.samp, l.cur, l.tCur)
	if l.inert {
		animsys.InertializeCritical(&l.out, &l.offset, &l.samp, l.transTime, l.S.Halflife)
	} else {
		l.out.CopyFrom(&l.samp)
	}
	animsys.FK(&l.global, &l.out, l.skel.Parents)
	animsys.FK(&l.ghost, &l.samp, l.skel.Parents)
	if !l.inert {
		return
	}
	for _, j := range l.joints {
		d := l.global.Pos[j].Sub(l.ghost.Pos[j])
		l.Measured += (costAbs(d[0]) + costAbs(d[1]) + costAbs(d[2])) * dt
	}
	if l.transTime > 20*l.S.Halflife {
		l.inert = false // what is left is below a millionth of the offset
	}
}

func costAbs(x float32) float32 { return float32(math.Abs(float64(x))) }

// costWrap wraps a clip time t (s) into [0, d).
func costWrap(t, d float32) float32 {
	if !(d > 0) || !mathx.Finite(t) {
		return 0
	}
	t = float32(math.Mod(float64(t), float64(d)))
	if t < 0 {
		t += d
	}
	return t
}

// rank costs every candidate as a target from the output pose, summing over
// the feature joints and axes: the exact displacement, the SAD cost and the
// approximate feature's cost; then keeps the best costRanked by S.RankBy.
func (l *CostLab) rank() {
	h, w := l.S.Halflife, l.S.VelWeight
	l.rankKey = costRankKey{h, w, l.S.RankBy, l.S.SkipPlaying, l.cur}
	var src costCandidate
	for j, jt := range l.joints {
		src.pos[j], src.vel[j] = l.global.Pos[jt], l.global.Vel[jt]
	}
	for i := range l.cands {
		k := &l.cands[i]
		var e, s, f float32
		for j := range l.joints {
			dx, dv := src.pos[j].Sub(k.pos[j]), src.vel[j].Sub(k.vel[j])
			for a := 0; a < 3; a++ {
				e += spring.TransitionCost(dx[a], dv[a], h)
				s += spring.TransitionCostBaseline(dx[a], dv[a], 1, w)
				f += spring.TransitionCostApprox(dx[a], dv[a], h)
			}
		}
		l.costExact[i], l.costSAD[i], l.costFeat[i] = e, s, f
	}
	by := l.rankCosts(l.S.RankBy)
	for r := range l.Ranked {
		best := -1
		for i, c := range by {
			if l.S.SkipPlaying && l.cands[i].clip == l.cur || l.nearRanked(i, r) {
				continue
			}
			if best < 0 || c < by[best] {
				best = i
			}
		}
		l.Ranked[r] = best
	}
}

// costDistinct is how far apart (s) two listed targets of one clip must be,
// so the list shows different moments rather than neighbouring frames.
const costDistinct = 0.25

// nearRanked reports whether candidate i is within costDistinct seconds of
// one of the first upTo ranked targets in the same (looping) clip.
func (l *CostLab) nearRanked(i, upTo int) bool {
	k := l.cands[i]
	_, n := l.clips[k.clip].Loop()
	for _, r := range l.Ranked[:upTo] {
		if r < 0 || l.cands[r].clip != k.clip {
			continue
		}
		d := costAbs(k.t - l.cands[r].t)
		if min(d, n-d) < costDistinct {
			return true
		}
	}
	return false
}

// rankCosts are the candidates' costs of ranking by (CostRank*).
func (l *CostLab) rankCosts(by int32) []float32 {
	switch by {
	case CostRankSAD:
		return l.costSAD
	case CostRankFeature:
		return l.costFeat
	}
	return l.costExact
}

// RankOf is candidate i's place (1 = best) among the candidates the finder
// considers when ranked by by.
func (l *CostLab) RankOf(i int, by int32) int {
	c := l.rankCosts(by)
	n := 1
	for k, x := range c {
		if k != i && x < c[i] && !(l.S.SkipPlaying && l.cands[k].clip == l.cur) {
			n++
		}
	}
	return n
}

// Play starts the inertialized transition from the output pose to
// candidate i: the offset between them decays with the lab's half-life
// while the target clip plays on from that frame.
func (l *CostLab) Play(i int) {
	if i < 0 || i >= len(l.cands) {
		return
	}
	k := l.cands[i]
	l.sample(&l.samp, k.clip, k.t)
	animsys.InertializeOffset(&l.offset, &l.out, &l.samp)
	l.cur, l.tCur = k.clip, k.t
	l.inert, l.transTime, l.autoT = true, 0, 0
	l.Target, l.Predicted, l.PredictedSAD, l.Measured = i, l.costExact[i], l.costSAD[i], 0
	l.evaluate(0)
	l.rank()
}

// PlayRanked plays the r-th best target (0 = best).
func (l *CostLab) PlayRanked(r int) {
	if r >= 0 && r < len(l.Ranked) {
		l.Play(l.Ranked[r])
	}
}

// CandidateName is "clip @ time" of candidate i.
func (l *CostLab) CandidateName(i int) string {
	k := l.cands[i]
	return l.clips[k.clip].Name + " @ " + strconv.FormatFloat(float64(k.t), 'f', 2, 32) + " s"
}

// CSVHeader implements csvLab: the grid's columns.
func (l *CostLab) CSVHeader() []string {
	return []string{"x_m", "v_m/s", "exact_m*s", "approx_m*s", "sad_m"}
}

// CSVRow implements csvLab: the picked offset and its costs.
func (l *CostLab) CSVRow(row []string) []string {
	return append(row, costCSVFloat(l.S.PickX), costCSVFloat(l.S.PickV), costCSVFloat(l.PickExact),
		costCSVFloat(l.PickApprox), costCSVFloat(l.PickSAD))
}

// CSVRows implements csvRowsLab: the whole grid (v ascending, x ascending
// within) on the first update, nothing after: --csv writes the maps of the
// half-life set by --halflife (default 0.15 s).
func (l *CostLab) CSVRows() [][]string {
	if l.csvDone {
		return nil
	}
	l.csvDone = true
	l.refresh()
	rows := make([][]string, 0, costGridN*costGridN)
	for r := costGridN - 1; r >= 0; r-- {
		for c := 0; c < costGridN; c++ {
			i := r*costGridN + c
			rows = append(rows, []string{costCSVFloat(l.GridX(c)), costCSVFloat(l.GridV(r)),
				costCSVFloat(l.grid[CostMapExact][i]), costCSVFloat(l.approx[i]), costCSVFloat(l.grid[CostMapSAD][i])})
		}
	}
	return rows
}

// costCSVFloat formats x with the fewest digits that read back as x.
func costCSVFloat(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }

// costColor maps t in [0, 1] to an inferno-like colour ramp (black, purple,
// orange, pale yellow): dark is cheap, bright is expensive.
func costColor(t float32) color.RGBA {
	stops := [...][3]float32{{0, 0, 4}, {40, 11, 84}, {101, 21, 110}, {159, 42, 99},
		{212, 72, 66}, {245, 125, 21}, {250, 193, 39}, {252, 255, 164}}
	if !(t > 0) {
		t = 0
	}
	t = min(t, 1) * float32(len(stops)-1)
	i := min(int(t), len(stops)-2)
	f := t - float32(i)
	a, b := stops[i], stops[i+1]
	c := func(k int) uint8 { return uint8(a[k] + (b[k]-a[k])*f + 0.5) }
	return color.RGBA{R: c(0), G: c(1), B: c(2), A: 255}
}
