package matching

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
	mm "kinelab/animsys/matching"
	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/assets"
	"kinelab/render"
)

// Settings are the lab's sliders and switches (saved between runs).
type Settings struct {
	Features   int32 // mm.Set
	Transition int32 // index into transitionChoices
	Halflife   float32
	BlendTime  float32
	Period     float32 // s between searches
	Rerank     float32 // how many the exact set re-ranks
	Brute      bool
	Mirror     bool // add the captures' clips mirrored (the embedded set turns both ways)
	// Path is the input: 0 the keyboard and gamepad, else a scripted
	// path (mm.Path + 1).
	Path                 int32
	WalkSpeed, RunSpeed  float32
	VelHalflife, FaceHlf float32
	Weights              mm.Weights
	LineScale            float32
	ShowMesh, ShowLines  bool
	// Bias and BiasShare: what the best frame must beat carrying on by;
	// Sync and Lock: the synchronisation with the simulation and foot
	// locking (the matcher's own settings).
	Bias, BiasShare float32
	Sync            mm.SyncSettings
	Lock            mm.LockSettings
	// Idle and Rate: the idle state when standing and the playback rate;
	// Warp: stride and orientation warping (the matcher's own settings).
	Idle bool
	Rate mm.RateSettings
	Warp mm.WarpSettings
	// Controller is who picks the frames: the database's search, or the
	// learned controller (databaseController, learnedController); the
	// learned one only drives the database its networks were trained on.
	Controller int32
}

// DefaultSettings is the lab as it opens: the Inertial set, spring
// inertialization at 0.1 s, steered from the keyboard.
func DefaultSettings() Settings {
	d := mm.DefaultSettings()
	return Settings{Features: int32(d.Set), Transition: int32(slices.Index(transitionChoices, d.Transition)), Halflife: d.Halflife,
		BlendTime: d.BlendTime, Period: d.SearchPeriod, Rerank: float32(d.Rerank),
		WalkSpeed: d.WalkSpeed, RunSpeed: d.RunSpeed, VelHalflife: d.VelHalflife, FaceHlf: d.FaceHalflife,
		Weights: mm.DefaultWeights, LineScale: 0.15, ShowMesh: true, ShowLines: true, Mirror: true,
		Bias: d.Bias, BiasShare: d.BiasShare, Sync: d.Sync, Lock: d.Lock, Idle: d.Idle, Rate: d.Rate, Warp: d.Warp}
}

// transitionChoices are the transitions the panel offers, in its order,
// and transitionNames their names there.
var (
	transitionChoices = []animsys.TransitionKind{animsys.TransitionSpring, animsys.TransitionCubic,
		animsys.TransitionDeadBlend, animsys.TransitionCut}
	transitionNames = []string{"spring", "cubic", "dead blend", "none"}
)

// transition is the transition kind the settings choose.
func (s *Settings) transition() animsys.TransitionKind {
	return transitionChoices[mathx.Clamp(int(s.Transition), 0, len(transitionChoices)-1)]
}

// figuresEvery is how many ticks apart the readout's measures of the run
// are taken.
const figuresEvery = 30

// shown is how many candidates the table lists.
const shown = 6

// historyLen is how many ticks of decisions the lab keeps to scrub back
// through (10 s at 60 Hz).
const historyLen = 600

// trailLen is how many ticks of the root's path are drawn.
const trailLen = 300

// snapshot is one tick as drawn: the world pose with its red (propagated)
// and blue (finite difference) velocities, the root, the prediction and
// the search.
type snapshot struct {
	t                   float64
	pos, red, blue, scl []mgl32.Vec3
	rot                 []mgl32.Quat
	root                mgl32.Vec3
	yaw                 float32
	pred                [mm.PathPoints]mgl32.Vec3
	predFace            [mm.PathPoints]mgl32.Vec3
	goal                mgl32.Vec2
	sim                 mm.Simulation
	locks               [2]mm.FootLock
	toeLocks            [2]mm.FootLock
	cands               [shown]mm.Candidate
	nCands              int
	carry               mm.Candidate
	searched, transited bool
	frame               int
	searchUs            float32
	// rate is the rate the clip played at (0: the idle stretch held),
	// idle whether the matcher stood in its idle state; stride and orient
	// the warps' amounts (ratio, rad), bent whether the search left a turn
	// to the root.
	rate           float32
	idle           bool
	stride, orient float32
	bent           bool
	// learned is whether the learned controller played this tick (and
	// the pose shown is its own); then green is the decompressor's own
	// velocities placed in the world, saidErr their mean distance (m/s)
	// from the exact ones, poseErr the mean distance (m) of the pose
	// played from the database frame its state stands for (NaN
	// otherwise).
	learned          bool
	green            []mgl32.Vec3
	saidErr, poseErr float32
}

// Lab is the Motion-matching lab's state, by its parts: the settings;
// the database and what it was made of; the matcher and the run's
// measures; the character shown; the history of snapshots drawn and
// scrubbed through; the plots. Update drives it; drawing only reads it.
type Lab struct {
	app.Base
	S Settings

	database
	m         *mm.Matcher
	seed      uint32
	picked    int
	onto      onto // the character shown, when the captures play on one (onto.go)
	sec       panels
	time      float64
	steer     steerState
	shortlist []mm.Candidate // the best frames of the last search, for the table (Matcher.Shortlist)
	// meter measures the run since the last restart, as matching eval
	// does; figures are its measures, taken every figuresEvery ticks.
	meter   mm.Meter
	figures mm.Metrics
	ticks   int

	history

	costPlot, clipPlot *render.Plot
	// posePlot is the learned controller's pose error over time: the
	// mean distance of a joint from the database frame its state stands
	// for (shown only while it drives).
	posePlot *render.Plot
	ln       learned
	// feetPlot is the feet's contact labels (thick) and locks (thin) over
	// time, one row a foot.
	feetPlot *render.Plot
	// The search times (µs) the readout shows, taken when a search ran
	// (not sorted again every frame).
	searchMed, searchP99, searchWorst float64
}

// database is the lab's motion-matching database and what it was made
// of: the character (nil: the embedded set), mirrored or not, with the
// weights and half-life it was last weighted with; its name, and why the
// loaded files gave none or what they could not search.
type database struct {
	ch          *character.Character // the character the database is made of (nil: the embedded set)
	src         mm.Source
	dbName      string
	db          *mm.Database
	Err         string // why the loaded files gave no database
	short       string // the clips too short to search, if any (Database.ShortClips)
	ground      []bool
	dbKey       [2]any // what the database was built from: character and mirror
	onEmbedded  bool   // the database is the embedded set's
	weightsKey  mm.Weights
	halflifeKey float32
}

// panels remembers which panel sections are open.
type panels struct {
	control, search, trans, play, sync, warp, lock, weights, view bool
}

// Entry is how the App lists the Motion-matching lab: --lab matching, with
// --path to drive it by a scripted input.
func Entry() app.LabEntry {
	names := append([]string{"keyboard"}, mm.PathNames[:]...)
	return app.LabEntry{
		Name: "matching",
		New:  func() app.Lab { return New() },
		Flags: []app.LabFlag{{Name: "path", Usage: "input of the Motion-matching lab",
			Choices: names}, {Name: "controller", Usage: "controller of the Motion-matching lab (learned: the networks trained on the embedded set)",
			Choices: controllerNames}},
	}
}

// New builds the lab on the embedded locomotion set.
func New() *Lab {
	l := &Lab{S: DefaultSettings(), seed: 1, sec: panels{control: true, search: true, trans: true}}
	l.costPlot = render.NewPlot("Search cost", "", historyLen)
	l.costPlot.AddSeries("best found", render.PlotMean)
	l.costPlot.AddSeries("carry on", render.PlotMax)
	l.clipPlot = render.NewPlot("Clip playing", "#", historyLen)
	l.clipPlot.AddSeries("clip", render.TargetColor)
	l.feetPlot = render.NewPlot("Feet", "", historyLen)
	for _, f := range []struct {
		name string
		c    color.RGBA
		w    float32
	}{{"contact L", render.PlotMean, 7}, {"locked", render.Propagated, 3}, {"toe", render.PlotMax, 3},
		{"contact R", render.TargetColor, 7}, {"locked", render.Propagated, 3}, {"toe", render.PlotMax, 3}} {
		l.feetPlot.AddSeries(f.name, f.c)
		l.feetPlot.SetLineWidth(l.feetPlot.Series()-1, f.w)
	}
	l.feetPlot.SetRange(-0.5, 1.5)
	l.feetPlot.Rows = []string{"right", "left"}
	l.posePlot = render.NewPlot("Learned pose off its frame", "cm", historyLen)
	l.posePlot.AddSeries("mean joint", learnedColor)
	l.rebuild()
	return l
}

// Name implements app.Lab.
func (l *Lab) Name() string { return "matching" }

// Title implements app.Lab.
func (l *Lab) Title() string {
	return "Motion matching - " + l.dbName + " - " + mm.SetNames[l.S.Features] + " features"
}

// Focus implements app.Lab: the hips.
func (l *Lab) Focus() mgl32.Vec3 {
	s := l.view()
	return s.pos[l.onto.hips(l.db)]
}

// Configure implements app.Lab: --path, --controller, --networks and
// --seed.
func (l *Lab) Configure(c app.Config) {
	if c.Networks != l.ln.path {
		l.ln.path, l.ln.read = c.Networks, false
	}
	if v, ok := c.LabFlag("path"); ok {
		l.S.Path = int32(v) - 1
	}
	if v, ok := c.LabFlag("controller"); ok {
		l.S.Controller = int32(v) - 1
	}
	l.seed = c.Seed
}

// SetCharacter implements app.Lab: the loaded files become the
// database (the embedded set stays when they cannot: no two legs).
func (l *Lab) SetCharacter(ch *character.Character) {
	l.ch = l.onto.set(ch) // captures played on a character: the database is theirs
	l.dbKey = [2]any{}    // and what is shown changes with the character
	if l.ch == assets.Character() {
		l.ch = nil
	}
	l.rebuild()
}

// embeddedSource is the database source of the embedded locomotion set
// (assets.LocomotionCharacter), which has two legs and hips.
func embeddedSource() mm.Source {
	src, err := mm.SourceOf(assets.LocomotionCharacter())
	if err != nil {
		panic("the embedded locomotion set: " + err.Error())
	}
	return src
}

// characterDatabase is the database of the character (mirrored if the
// settings s say so), its source and its name; nil, with Err saying
// why, when the character gives none (no human, no legs, clips too short),
// and nil when there is no character.
func (d *database) characterDatabase(s *Settings) (mm.Source, *mm.Database, string) {
	if d.ch == nil {
		return mm.Source{}, nil, ""
	}
	if why := d.ch.NotHuman(); why != "" {
		// Feet read off a figure that is no human (an animal's hind
		// feet) would match, but nothing like the set's locomotion.
		d.Err = why + ": matching on the embedded set"
		return mm.Source{}, nil, ""
	}
	src, err := mm.SourceOf(d.ch)
	if err != nil {
		d.Err = err.Error() + "; matching on the embedded set"
		return mm.Source{}, nil, ""
	}
	name := d.ch.Contents()
	if s.Mirror {
		src, name = mm.Mirrored(src), name+" + mirrored"
	}
	db, err := mm.NewDatabase(src, s.Weights, s.Halflife)
	if err != nil {
		d.Err = name + ": " + err.Error() + "; matching on the embedded set"
		return mm.Source{}, nil, ""
	}
	return src, db, name
}

// rebuild makes the database when the character or the mirror switch
// changed, re-weights it when the weights or the half-life did, and keeps
// the matcher's settings and controller in step with the lab's (a new
// controller starts again at the origin, as Matcher.UseNetworks does).
func (l *Lab) rebuild() {
	if l.database.rebuild(&l.S) {
		l.ground = l.onto.use(l.db, groundOf(l.ch, l.db.Skel.Len()))
		l.syncWeights(&l.S)
		l.ln.fit(l.db)
		l.m = mm.NewMatcher(l.db, l.settings())
		l.ln.use(l.m, l.S.Controller)
		l.restart()
	}
	l.syncWeights(&l.S)
	l.m.S = l.settings()
	if l.ln.use(l.m, l.S.Controller) {
		l.restart()
	}
}

// rebuild makes the database when the character or the mirror switch
// changed since it was made (or none was), and reports whether it did:
// the character's, else the embedded set's.
func (d *database) rebuild(s *Settings) bool {
	k := [2]any{d.ch, s.Mirror}
	if k == d.dbKey && d.db != nil {
		return false
	}
	d.dbKey = k
	d.Err = ""
	src, db, name := d.characterDatabase(s)
	switch {
	case db != nil:
		d.weightsKey, d.halflifeKey = s.Weights, s.Halflife
	case d.onEmbedded:
		// Already on the embedded set (the default character, or a
		// file that gave no database): made of the same clips, so
		// file after file that gives none does not build it again.
		// It takes the weights and half-life set since (syncWeights).
		src, db, name = d.src, d.db, d.dbName
	default:
		src, name = embeddedSource(), "embedded locomotion"
		db, _ = mm.NewDatabase(src, s.Weights, s.Halflife) // the embedded set always builds
		d.weightsKey, d.halflifeKey = s.Weights, s.Halflife
	}
	d.onEmbedded = name == "embedded locomotion"
	d.src, d.db, d.dbName = src, db, name
	d.short = ""
	if short := db.ShortClips(); short != "" {
		d.short = "too short to search, only played: " + short
	}
	return true
}

// syncWeights re-weights the database when the weights or the half-life
// of settings s changed since it was built or last re-weighted.
func (d *database) syncWeights(s *Settings) {
	if s.Weights != d.weightsKey {
		d.weightsKey = s.Weights
		d.db.SetWeights(s.Weights)
	}
	if s.Halflife != d.halflifeKey {
		d.halflifeKey = s.Halflife
		d.db.SetHalflife(s.Halflife)
	}
}

// groundOf is the character's figure's Ground joints (the embedded set's
// skeleton is the default character's).
func groundOf(ch *character.Character, n int) []bool {
	if ch == nil {
		ch = assets.Character()
	}
	if len(ch.Figure.Ground) == n {
		return ch.Figure.Ground
	}
	return make([]bool, n)
}

// settings are the matcher's settings from the lab's.
func (l *Lab) settings() mm.Settings {
	s := &l.S
	m := mm.DefaultSettings()
	m.Set, m.Transition = mm.Set(s.Features), s.transition()
	m.Halflife, m.BlendTime, m.SearchPeriod = s.Halflife, s.BlendTime, s.Period
	m.Rerank, m.Brute = int(s.Rerank+0.5), s.Brute
	m.WalkSpeed, m.RunSpeed = s.WalkSpeed, s.RunSpeed
	m.SideSpeed, m.BackSpeed = min(s.WalkSpeed, m.SideSpeed), min(s.WalkSpeed, m.BackSpeed)
	m.VelHalflife, m.FaceHalflife = s.VelHalflife, s.FaceHlf
	m.Bias, m.BiasShare, m.Sync, m.Lock = s.Bias, s.BiasShare, s.Sync, s.Lock
	m.Idle, m.Rate, m.Warp = s.Idle, s.Rate, s.Warp
	return m
}

// restart puts the character back at the origin, standing, and forgets
// the history.
func (l *Lab) restart() {
	l.m.Reset()
	l.searchMed, l.searchP99, l.searchWorst = 0, 0, 0
	l.onto.slide = sliding{}
	l.history.reset(l.onto.skel(l.db).Len())
	l.time = 0
	l.steer.faceYaw, l.steer.locked = 0, false
	l.meter, l.figures, l.ticks = mm.Meter{}, mm.Metrics{}, 0
	l.meter.Begin(l.m)
	l.costPlot.Clear()
	l.clipPlot.Clear()
	l.feetPlot.Clear()
	l.posePlot.Clear()
	l.record()
}

// Update implements app.Lab: the settings'
// effects, then a tick of the matcher with the input (the keyboard's or
// the scripted path's) and a snapshot of it.
func (l *Lab) Update(dt float32) {
	l.rebuild()
	if !(dt > 0) {
		return
	}
	l.Rewind = 0 // playing again: back to the present
	var in mm.Input
	if l.S.Path > 0 {
		in = mm.Path(l.S.Path-1).Input(float32(l.time), l.seed)
	} else {
		in = l.playerInput(dt)
	}
	l.m.Update(in, dt)
	if l.m.Search.Searched {
		l.searchMed, l.searchP99, l.searchWorst = l.m.Search.SearchStats()
	}
	l.meter.Tick(l.m, in, min(dt, mm.MaxTick))
	if l.ticks++; l.ticks%figuresEvery == 0 {
		l.figures = l.meter.Metrics(l.m)
	}
	l.time += float64(min(dt, mm.MaxTick))
	l.record()
	l.plotTick()
}

// record takes the tick's snapshot: the world pose, its propagated (red)
// and finite-difference (blue) velocities, and the search.
func (l *Lab) record() {
	m := l.m
	h, dt := l.history.push(l.time)
	w := l.onto.pose(&m.World)
	l.onto.measure(m, l.time)
	copy(h.pos, w.Pos)
	copy(h.rot, w.Rot)
	copy(h.scl, w.Scl)
	copy(h.red, w.Vel)
	l.history.blue(h, w.Pos, dt)
	h.root, h.yaw, h.pred, h.predFace, h.goal = m.Root.Pos, m.Root.Yaw, m.Predicted.Pos, m.Predicted.Facing, m.Sim.GoalVel
	h.sim, h.locks, h.toeLocks = m.Sim, m.Feet.Locks, m.Feet.ToeLocks
	if m.Search.Searched || m.Search.Searches == 0 {
		l.shortlist = m.Shortlist(shown, l.shortlist[:0])
	}
	h.nCands = copy(h.cands[:], l.shortlist)
	h.carry, h.searched, h.transited, h.frame = m.Search.Carry, m.Search.Searched, m.Search.Transited, m.Frame()
	h.rate, h.idle = m.Play.Playing(), m.Rest.Idle
	h.stride, h.orient, h.bent = m.Warps.Stride, m.Warps.Orient, m.Search.Bent
	l.ln.measure(m, h.frame, !l.onto.on, h)
	h.searchUs = 0
	if m.Search.Searched && len(m.Search.SearchNs) > 0 {
		h.searchUs = float32(m.Search.SearchNs[len(m.Search.SearchNs)-1]) / 1e3
	}
	l.walk(m.Root.Pos)
}

// plotTick pushes the tick's costs and clip to the plots, marking a
// transition.
func (l *Lab) plotTick() {
	h := l.view()
	// Between searches the plot holds the last search's costs.
	best := float32(math.NaN())
	if h.nCands > 0 {
		best = h.cands[0].Cost
	}
	l.costPlot.Push(l.time, best, h.carry.Cost)
	c, _ := l.db.Locate(h.frame)
	l.clipPlot.Push(l.time, float32(c))
	// Each foot's row: its contact label at 1 (left) or 0 (right), its
	// ankle's lock just under, its toe's under that; a gap where none
	// holds.
	var rows [6]float32
	for s, lk := range h.locks {
		base, nan := float32(1-s), float32(math.NaN())
		rows[3*s], rows[3*s+1], rows[3*s+2] = nan, nan, nan
		if lk.Contact {
			rows[3*s] = base + 0.1
		}
		if lk.Locked {
			rows[3*s+1] = base - 0.12
		}
		if h.toeLocks[s].Locked {
			rows[3*s+2] = base - 0.27
		}
	}
	l.feetPlot.Push(l.time, rows[:]...)
	l.posePlot.Push(l.time, 100*h.poseErr) // a gap while the database's controller plays
	if h.transited {
		l.costPlot.Mark(l.time)
		l.clipPlot.Mark(l.time)
		l.feetPlot.Mark(l.time)
		l.posePlot.Mark(l.time)
	}
}

// Restart puts the character back at the origin, standing, and forgets
// the history (the R key, and the panel's button through Panel.Ask).
func (l *Lab) Restart() { l.restart() }

// Matcher is the lab's matcher (for tests).
func (l *Lab) Matcher() *mm.Matcher { return l.m }

// Database is the lab's database (for tests).
func (l *Lab) Database() *mm.Database { return l.db }

// CandidateName is "clip @ time" of database frame i; "learned state"
// for none (-1: the learned controller's state, which carrying on plays,
// is no database frame).
func (l *Lab) CandidateName(i int) string {
	if i < 0 || i >= l.db.Frames {
		return "learned state"
	}
	c, f := l.db.Locate(i)
	return fmt.Sprintf("%s @ %.2f s", l.db.Clips[c].Name, float32(f)*l.db.Clips[c].FrameTime)
}

// CSVHeader implements app.Lab.
func (l *Lab) CSVHeader() []string {
	return []string{"t_s", "input", "features", "root_x_m", "root_z_m", "yaw_rad", "goal_vx_m/s", "goal_vz_m/s",
		"pred_1s_x_m", "pred_1s_z_m", "clip", "clip_time_s", "searched", "transition", "best_cost", "carry_cost",
		"best_exact_m*s", "search_us", "red_blue_mean_m/s", "red_blue_max_m/s"}
}

// CSVRows implements app.Lab: one row per update.
func (l *Lab) CSVRows(rows [][]string) [][]string {
	// A cost no search made this tick is left empty (NaN never reaches a
	// CSV).
	f := func(x float32) string {
		if x != x {
			return ""
		}
		return app.CSVFloat(x)
	}
	h := l.view()
	c, fr := l.db.Locate(h.frame)
	best, exact := float32(math.NaN()), float32(math.NaN())
	if h.searched && h.nCands > 0 {
		best, exact = h.cands[0].Cost, h.cands[0].Exact
	}
	carry := float32(math.NaN())
	if h.searched {
		carry = h.carry.Cost
	}
	mean, most := l.RedBlue(h)
	input := "keyboard"
	if l.S.Path > 0 {
		input = mm.PathNames[l.S.Path-1]
	}
	last := len(h.pred) - 1
	return append(rows, []string{app.CSVTime(h.t), input, mm.SetNames[l.S.Features], f(h.root[0]), f(h.root[2]), f(h.yaw),
		f(h.goal[0]), f(h.goal[1]), f(h.pred[last][0]), f(h.pred[last][2]), l.db.Clips[c].Name,
		f(float32(fr) * l.db.Clips[c].FrameTime), app.CSVBool(h.searched), app.CSVBool(h.transited),
		f(best), f(carry), f(exact), f(h.searchUs), f(mean), f(most)})
}

// RedBlue is the mean and largest |red - blue| (m/s) over the body joints
// of snapshot h.
func (l *Lab) RedBlue(h *snapshot) (mean, most float32) {
	return app.RedBlue(len(h.pos), func(j int) (red, blue mgl32.Vec3) {
		if j == 0 || l.ground[j] {
			return mgl32.Vec3{}, mgl32.Vec3{}
		}
		return h.red[j], h.blue[j]
	})
}
