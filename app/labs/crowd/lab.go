package crowd

import (
	"fmt"
	"kinelab/animsys/words"
	"math"
	"os"
	"runtime"
	"slices"
	"sort"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/character"
	"kinelab/animsys/crowd"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/assets"
	"kinelab/ui"
)

// Crowd sizes and defaults.
const (
	MaxCount       = 2000 // most characters the slider allows
	crowdDefault   = 200
	crowdMaxThread = 16 // most goroutines the slider allows
	crowdSeed      = 8  // seed of the crowd's random choices (--seed adds to it)
	// crowdMinDt (s) is the smallest tick: shorter steps are skipped as a
	// pause, since the finite difference divides by dt.
	crowdMinDt = 1e-6
)

// Crowd clip libraries, in the order of the panel's choice.
const (
	LibraryGait  = iota // the character's clips: the default's idle, walk, run and leans, or a loaded BVH's
	LibraryBench        // the bench-spec library of 64 random clips, on the default skeleton
)

// Settings are the lab's sliders and switches.
type Settings struct {
	Count       float32 // characters, 1 to MaxCount
	Threads     float32 // goroutines ticking the crowd; 0 = auto (GOMAXPROCS)
	Spacing     float32 // m between neighbouring cells of the grid (at a human's size, times the view's scale)
	Library     int32   // LibraryGait or LibraryBench
	Inertialize bool    // the bench chain's inertialization every 0.5 s
	Pick        float32 // the character whose velocity lines are shown
	Lines       bool    // show the picked character's red and blue lines
	LineScale   float32 // m of line per m/s
	ShowMesh    bool    // skinned bodies (else skeleton lines for all)
	// Distances from the camera, in m at a human's size (times the
	// view's scale, app.ViewScale, as the grid's spacing and the camera
	// are).
	MeshDist   float32 // beyond which characters are lines
	FineDist   float32 // within which bodies are the finest (crowdVertices[0])
	CoarseDist float32 // beyond which bodies are the coarsest (crowdVertices[2])
	MaxMeshes  float32 // most skinned bodies a frame, nearest the grid centre first
}

// DefaultSettings is the lab as it opens.
func DefaultSettings() Settings {
	return Settings{Count: crowdDefault, Spacing: 1.6, Library: LibraryGait, Inertialize: true,
		Lines: true, LineScale: 0.15, ShowMesh: true, MeshDist: 60, FineDist: 14, CoarseDist: 24, MaxMeshes: 400}
}

// Lab is the lab's state. Update ticks the crowd; drawing only reads
// it (but for the timing of the drawing itself, in draw).
type Lab struct {
	app.Base
	S         Settings
	ch        *character.Character // whose clips LibraryGait plays (SetCharacter)
	benchSkel animsys.Skeleton     // the bench library's skeleton: the default character's
	bench     []animsys.Clip       // made when first chosen: 64 clips take a moment
	seed      uint32
	// framed are framedCh's clips sampled from their frames (framedOf);
	// the crowd's characters point into it.
	framed   []animsys.Clip
	framedCh *character.Character
	// The crowd's skeleton (&ch.Skel or &benchSkel), the figure it reads
	// as (the default character's for the bench library, whose skeleton
	// it is), and its hips and head joints (the picking target and the
	// label's anchor).
	skel       *animsys.Skeleton
	fig        *humanoid.Figure
	hips, head int
	// mesh is the crowd's character's own mesh (a glTF character's), nil
	// for generated bodies; size its view's scale (app.ViewScale: 1 for a
	// human, 0.42 for a 0.5 m doll, 39 for a 71-unit animal): the grid's
	// spacing, the camera, the LOD distances and the markers scale with it.
	mesh *body.Mesh
	size float32
	// reach (m) is the figure's length on the ground at the start (the
	// longer side of its body joints' box along x and z): cells are never
	// closer, so a long animal does not stand in its neighbours.
	reach  float32
	ranges ui.Ranges // the sliders' table (sliders), made once: sync reads it every tick

	crowd       *crowd.Crowd
	builtN      int   // characters in crowd
	builtLib    int32 // library crowd was built from
	cells       []mgl32.Vec3
	shift       []mgl32.Vec3 // added to character i's global positions to stand it in its cell
	order       []int        // characters by distance of their cell from the grid centre
	cols, rows  int
	laidSpacing float32 // S.Spacing of the cells' layout
	pick        int
	pickedJoint int // of the picked character, clicked; 0 for none
	// fd and fdLocal hold the picked character's finite difference of the
	// last tick (dt lastDt s), fdPick the character they are of (-1:
	// none), recomputed for it alone (BenchCharacter.FiniteDiff).
	fd, fdLocal animsys.Pose
	fdPick      int
	lastDt      float32
	time        float64 // s of simulated time
	ticked      bool    // the crowd has ticked since it was built
	Mean, Max   float32 // |red - blue| over the picked character's joints (m/s)
	// Event names what the last tick did to the picked character that
	// the finite difference cannot follow, "" for nothing: a clip's
	// wrap (its end to its start) or the inertialization's restart (a
	// new offset every InertDuration), as the Velocities lab marks them;
	// lastEvent, its time (s) and the max |red - blue| on its tick (m/s)
	// stay in the readout for a few seconds.
	Event            string
	lastEvent        string
	lastEventTime    float64
	lastEventMax     float32
	TickMs, CharUs   float32 // the last tick: whole crowd (ms) and per character (us)
	tickAvg          float32 // ms, smoothed for the readout
	lastSum          float64 // checksum of the last tick
	sec              crowdPanels
	draw             crowdDraw
	statsEnv         bool     // KINELAB_CROWD_STATS set: print timing medians on Unload
	notes            []string // for the messages (TakeMessages)
	tickSamples      []float32
	tickSampleCursor int
}

// Entry is how the App lists the Crowd lab: --lab crowd.
func Entry() app.LabEntry {
	return app.LabEntry{Name: "crowd", New: func() app.Lab { return New() }}
}

// New builds the lab with DefaultSettings on the default
// character's skeleton and clips.
func New() *Lab {
	l := &Lab{S: DefaultSettings(), ch: assets.Character(), benchSkel: assets.Humanoid(), seed: crowdSeed,
		sec: crowdPanels{crowd: true, drawing: true, pick: true}, statsEnv: os.Getenv("KINELAB_CROWD_STATS") != ""}
	l.ranges = l.sliders()
	l.tickSamples = make([]float32, statSamples)
	l.draw.init()
	l.sync()
	l.S.Pick = float32(l.order[0]) // the character in the middle
	l.sync()
	return l
}

// Name implements app.Lab.
func (l *Lab) Name() string { return "crowd" }

// Title implements app.Lab.
func (l *Lab) Title() string {
	return "Crowd - " + words.Count(l.builtN, "character")
}

// Focus implements app.Lab: the picked character's cell at hip height, which
// the camera follows (F); it opens on the character nearest the middle.
func (l *Lab) Focus() mgl32.Vec3 { return l.cells[l.pick].Add(mgl32.Vec3{0, 0.9 * l.scale(), 0}) }

// Camera implements app.Lab: far enough back to see the whole grid, at
// the character's scale (the distance's limits too: they are a human's).
func (l *Lab) Camera() app.OrbitCamera {
	c := app.DefaultCamera()
	c.Scale = l.scale()
	side := float32(max(l.cols, l.rows)) * l.spacing() / c.Scale
	c.Yaw, c.Pitch = 0.55, 0.42
	c.Distance = max(4, min(60, 0.55*side+4)) * c.Scale
	c.Target = c.Target.Mul(c.Scale)
	return c
}

// scale is the crowd's view scale (size), 1 before a crowd is built.
func (l *Lab) scale() float32 {
	if !(l.size > 0) {
		return 1
	}
	return l.size
}

// SetCharacter implements app.Lab: the crowd is rebuilt on ch's
// skeleton, playing ch's clips (the bench library keeps the default
// skeleton), with new bodies made for it.
func (l *Lab) SetCharacter(ch *character.Character) {
	l.ch = ch
	l.builtN = 0 // rebuild on the next sync
	l.sync()
}

// Configure implements app.Lab: --seed changes the crowd's random
// choices (clips, start times, additive poses).
func (l *Lab) Configure(c app.Config) {
	if s := crowdSeed + c.Seed; s != l.seed {
		l.seed = s
		l.builtN = 0 // rebuild on the next sync
		l.sync()
	}
}

// Threads is the number of goroutines the settings ask for.
func (l *Lab) Threads() int {
	if k := int(l.S.Threads + 0.5); k >= 1 {
		return k
	}
	return runtime.GOMAXPROCS(0)
}

// Picked is the index of the picked character.
func (l *Lab) Picked() int { return l.pick }

// More doubles the crowd, Fewer halves it.
func (l *Lab) More()  { l.S.Count = min(MaxCount, 2*l.S.Count) }
func (l *Lab) Fewer() { l.S.Count = max(1, l.S.Count/2) }

// NextPick picks the next character.
func (l *Lab) NextPick() { l.S.Pick = float32((l.pick + 1) % l.builtN) }

// clampSettings keeps every setting in range, whatever the panel, a key,
// a settings file or a test wrote into it: the sliders within their table
// (NaN at the low end), the picked character within the largest crowd.
func (l *Lab) clampSettings() {
	s := &l.S
	l.ranges.Clamp()
	s.Pick = ui.ClampSetting(s.Pick, 0, MaxCount-1)
	if s.Library != LibraryBench {
		s.Library = LibraryGait
	}
}

// sync makes the crowd match the settings: rebuilt when the count or the
// library changed (this allocates, once per change), restarted when the
// number of threads did, laid out again when the spacing did.
func (l *Lab) sync() {
	l.clampSettings()
	n := int(l.S.Count + 0.5)
	if n != l.builtN || l.S.Library != l.builtLib || l.crowd == nil {
		l.build(n)
	}
	if k := l.Threads(); k != l.crowd.Threads() {
		l.crowd.Start(k)
	}
	l.crowd.Chain.Stages.Inertialize = l.S.Inertialize
	l.pick = min(int(l.S.Pick+0.5), l.builtN-1)
	if l.S.Spacing != l.laidSpacing {
		l.layout()
	}
}

// build makes a crowd of n characters from the chosen library: the
// character's clips on its skeleton, or the bench library on the default
// skeleton. A character whose clips do not fit its skeleton (LoadCharacter
// does not make one) is replaced by the default one. A count whose
// per-character state would not fit crowd.MemoryBudget (a skeleton of
// thousands of joints) is reduced to the most that fit, and said.
func (l *Lab) build(n int) {
	skel, lib, fig, hips, head := &l.ch.Skel, l.framedOf(l.ch), l.ch.Figure, l.ch.Hips, l.ch.Head
	mesh, size := l.ch.Mesh, app.ViewScale(l.ch)
	if l.S.Library == LibraryBench {
		mesh, size = nil, 1
		if l.bench == nil {
			l.bench = crowd.NewLibrary()
		}
		skel, lib, fig, hips, head = &l.benchSkel, l.bench, assets.Character().Figure, animsys.BenchHips, animsys.BenchHead
	}
	if err := crowd.CheckBudget(skel.Len(), n); err != nil {
		most := max(1, crowd.MaxCharacters(skel.Len())) // 1 over the budget: crowd.New refuses, the default one replaces it
		l.notes = append(l.notes, fmt.Sprintf("%v: showing %d", err, most))
		n, l.S.Count = most, float32(most)
	}
	l.release()
	c, err := crowd.New(skel, lib, n, l.seed)
	if err != nil && l.S.Library != LibraryBench {
		l.ch = assets.Character()
		skel, lib, fig, hips, head = &l.ch.Skel, l.ch.Clips, l.ch.Figure, l.ch.Hips, l.ch.Head
		mesh, size = nil, 1
		c, err = crowd.New(skel, lib, n, l.seed)
	}
	if err != nil { // the embedded clips always fit the embedded skeleton
		panic("crowd lab: " + err.Error())
	}
	// bench-spec's additive pose carries random velocities of its own (for
	// the benchmark's arithmetic) while the pose stands still: drawn, red
	// would differ from blue by them whatever the step (the median of the
	// picked character's mean |red - blue| read 0.17 m/s at 1/600 s as at
	// 1/60; without them 0.002-0.01, a tenth of 1/60's: the finite
	// difference's own error). The lab's additive is a still layer: its
	// own rates are zero. The tick's work is the same.
	for _, ch := range c.Characters {
		clear(ch.Add.Vel)
		clear(ch.Add.Ang)
		clear(ch.Add.Svl)
	}
	if skel != l.skel {
		l.draw.stale = true // bodies of another skeleton: Upload makes them again
	}
	l.skel, l.fig, l.hips, l.head = skel, fig, hips, topJoint(skel, head)
	l.mesh, l.size = mesh, size
	l.reach = groundReach(current(c.Characters[0]), fig)
	l.crowd, l.builtN, l.builtLib, l.ticked = c, n, l.S.Library, false
	animsys.NewPoses(skel.Len(), &l.fd, &l.fdLocal)
	l.fdPick = -1
	l.crowd.Start(l.Threads())
	l.cells = make([]mgl32.Vec3, n)
	l.shift = make([]mgl32.Vec3, n)
	l.cols = int(math.Ceil(math.Sqrt(float64(n))))
	l.rows = (n + l.cols - 1) / l.cols
	l.order = make([]int, n)
	for i := range l.order {
		l.order[i] = i
	}
	l.layout()
	d := func(i int) float32 { return l.cells[i][0]*l.cells[i][0] + l.cells[i][2]*l.cells[i][2] }
	sort.SliceStable(l.order, func(a, b int) bool { return d(l.order[a]) < d(l.order[b]) })
	l.Mean, l.Max = 0, 0
	l.placeAll()
}

// collectBytes (bytes): a crowd holding more is collected as soon as it is
// let go (release). A sixteenth of the budget: 64 MiB of the 1 GiB (and a
// sixteenth of a test's smaller budget).
func collectBytes() int64 { return crowd.MemoryBudget / 16 }

// release stops and lets go of the crowd before another is made: two
// crowds near crowd.MemoryBudget would hold twice it, and the garbage
// collector, paced by the heap it last found live, would let the new one
// grow to that before collecting the old one, so a large one is collected
// at once.
func (l *Lab) release() {
	if l.crowd == nil {
		return
	}
	big := crowd.Bytes(l.skel.Len(), l.builtN) > collectBytes()
	l.crowd.Close()
	l.crowd = nil
	if big {
		runtime.GC()
	}
}

// framedOf returns ch's clips sampled from their frames: the clips
// themselves, or for clips with Curves (a glTF character's, resampled at
// character.GLTFFPS when loaded) copies without them. The crowd ticks the
// bench-spec chain, which samples frames; sampling a glTF robot's curves
// exactly took ten times as long (107 against 14 us a character-tick,
// 200 characters), more than drawing them. The Velocities lab keeps them
// exact.
func (l *Lab) framedOf(ch *character.Character) []animsys.Clip {
	if l.framedCh == ch {
		return l.framed
	}
	l.framed, l.framedCh = ch.Clips, ch
	for i := range ch.Clips {
		if ch.Clips[i].Curves != nil {
			l.framed = slices.Clone(ch.Clips)
			for k := range l.framed {
				l.framed[k].Curves = nil
			}
			break
		}
	}
	return l.framed
}

// topJoint is head if it is a joint of skel, else the joint highest in
// the rest pose (a BVH character without a joint named head).
func topJoint(skel *animsys.Skeleton, head int) int {
	if head >= 0 && head < skel.Len() {
		return head
	}
	rest := skel.RestPose()
	top := 0
	for j, p := range rest.Pos {
		if p[1] > rest.Pos[top][1] {
			top = j
		}
	}
	return top
}

// layout puts character i's cell on a grid of cols x rows centred on the
// origin, S.Spacing apart (times the view's scale), filled row by
// row from the back (-z).
func (l *Lab) layout() {
	l.laidSpacing = l.S.Spacing
	sp := l.spacing()
	for i := range l.cells {
		col, row := i%l.cols, i/l.cols
		l.cells[i] = mgl32.Vec3{(float32(col) - float32(l.cols-1)/2) * sp, 0, (float32(row) - float32(l.rows-1)/2) * sp}
	}
}

// spacing (m) is the cells' spacing: S.Spacing times the view's scale,
// and at least 1.1 times the figure's reach on the ground.
func (l *Lab) spacing() float32 { return max(l.S.Spacing*l.scale(), 1.1*l.reach) }

// groundReach is the longer side (m) of the box of pose p's body joints
// (not fig's Ground joints) along x and z; 0 for a non-finite pose.
func groundReach(p *animsys.Pose, fig *humanoid.Figure) float32 {
	var lo, hi mgl32.Vec3
	first := true
	for j, q := range p.Pos {
		if fig != nil && j < len(fig.Ground) && fig.Ground[j] {
			continue
		}
		if first {
			lo, hi, first = q, q, false
		}
		for a := range 3 {
			lo[a], hi[a] = min(lo[a], q[a]), max(hi[a], q[a])
		}
	}
	r := max(hi[0]-lo[0], hi[2]-lo[2])
	if !mathx.Finite(r) {
		return 0
	}
	return r
}

// current is character c's newest pose, with propagated velocities: the
// last tick's, or before the first tick the start pose NewBenchCharacter
// evaluated.
func current(c *animsys.BenchCharacter) *animsys.Pose { return &c.Global }

// placeAll stands every character in its cell: its root's ground position
// is moved to the cell centre (its root motion is dropped, so it walks in
// place), keeping its height and everything above the root.
func (l *Lab) placeAll() {
	for i, c := range l.crowd.Characters {
		r := current(c).Pos[0]
		l.shift[i] = mgl32.Vec3{l.cells[i][0] - r[0], 0, l.cells[i][2] - r[2]}
	}
}

// Update implements app.Lab: sync with the settings, then one crowd tick of dt
// seconds, timed, then the grid placement and the picked character's
// red/blue comparison. dt <= crowdMinDt ticks nothing. After the first
// call for a given crowd and thread count it allocates nothing.
func (l *Lab) Update(dt float32) {
	l.sync()
	if !(dt > crowdMinDt) || math.IsInf(float64(dt), 0) {
		return
	}
	picked := l.crowd.Characters[l.pick]
	ta, tb, tt := picked.TA, picked.TB, picked.T
	t0 := time.Now()
	l.lastSum = l.crowd.Tick(dt)
	el := time.Since(t0)
	l.Event = tickEvent(picked, ta, tb, tt)
	l.TickMs = float32(el.Seconds() * 1e3)
	l.CharUs = float32(el.Seconds()*1e6) / float32(l.builtN)
	if l.tickAvg == 0 {
		l.tickAvg = l.TickMs
	}
	l.tickAvg += 0.1 * (l.TickMs - l.tickAvg)
	l.tickSamples[l.tickSampleCursor%statSamples] = l.TickMs
	l.tickSampleCursor++
	l.time += float64(dt)
	l.ticked, l.lastDt, l.fdPick = true, dt, -1
	l.placeAll()
	l.measure()
	if l.Event != "" {
		l.lastEvent, l.lastEventTime, l.lastEventMax = l.Event, l.time, l.Max
	}
}

// tickEvent names what the tick from clip times ta, tb and time tt did
// to character c that jumps its pose: clip A's or B's wrap, the
// inertialization's restart; "" for nothing. It does not allocate.
func tickEvent(c *animsys.BenchCharacter, ta, tb, tt float32) string {
	k := 0
	if c.TA < ta {
		k |= 1
	}
	if c.Chain.Stages.Blend && c.TB < tb {
		k |= 2
	}
	if d := c.Chain.InertDuration; c.Chain.Stages.Inertialize && d > 0 && math.Floor(float64(c.T/d)) != math.Floor(float64(tt/d)) {
		k |= 4
	}
	return tickEvents[k]
}

// tickEvents are the events' names by tickEvent's bits: 1 clip A wrapped,
// 2 clip B, 4 the inertialization restarted.
var tickEvents = [8]string{"", "wrap of clip A", "wrap of clip B", "wraps of clips A and B",
	"inertialization restart", "wrap of clip A, inertialization restart", "wrap of clip B, inertialization restart",
	"wraps of clips A and B, inertialization restart"}

// measure compares the picked character's propagated world linear
// velocities (red) with the finite difference against the previous tick
// (blue), over every joint but the root.
func (l *Lab) measure() {
	l.Mean, l.Max = app.RedBlue(l.skel.Len(), l.Lines)
}

// Lines returns joint j of the picked character: its propagated (red) and
// finite-difference (blue) world linear velocities (m/s); blue is zero
// before the crowd's first tick.
func (l *Lab) Lines(j int) (red, blue mgl32.Vec3) {
	c := l.crowd.Characters[l.pick]
	if !l.ticked {
		return current(c).Vel[j], mgl32.Vec3{}
	}
	if l.fdPick != l.pick {
		c.FiniteDiff(&l.fd, &l.fdLocal, l.lastDt)
		l.fdPick = l.pick
	}
	return current(c).Vel[j], l.fd.Vel[j]
}

// Character returns character i's newest global positions (m, before the
// grid placement), rotations and scales, and the shift (m) that stands it
// in its cell.
func (l *Lab) Character(i int) (pos []mgl32.Vec3, rot []mgl32.Quat, scl []mgl32.Vec3, shift mgl32.Vec3) {
	p := current(l.crowd.Characters[i])
	return p.Pos, p.Rot, p.Scl, l.shift[i]
}

// Point implements app.Lab: Ctrl+click picks the character whose hips
// pass nearest the mouse ray (within 0.6 m).
func (l *Lab) Input(in *app.Input) {
	ptr := in.Pointer
	if ptr.Click && l.pick >= 0 && l.pick < l.builtN {
		pos, _, _, shift := l.Character(l.pick)
		l.pickedJoint = max(0, ptr.JointAt(pos, shift))
	}
	if !ptr.Down {
		return
	}
	best, bestD := -1, float32(0.6)
	for i, c := range l.crowd.Characters {
		h := current(c).Pos[l.hips].Add(l.shift[i])
		t := h.Sub(ptr.Origin).Dot(ptr.Dir)
		if t <= 0 {
			continue
		}
		if d := ptr.Origin.Add(ptr.Dir.Mul(t)).Sub(h).Len(); d < bestD {
			best, bestD = i, d
		}
	}
	if best >= 0 {
		l.S.Pick = float32(best)
	}
}

// TakeMessages implements app.Notifier: what the lab could not do as asked
// since the last call (a crowd reduced to its memory budget).
func (l *Lab) TakeMessages() []string {
	m := l.notes
	l.notes = nil
	return m
}

// Close stops the crowd's worker goroutines.
func (l *Lab) Close() { l.crowd.Close() }

// Unload implements app.Lab: the crowd's body and workers; with
// KINELAB_CROWD_STATS set, the timing medians go to stderr first.
func (l *Lab) Unload() {
	if l.statsEnv {
		fmt.Fprintln(os.Stderr, l.statsLine())
	}
	l.draw.unload()
	l.Close()
}

// statsLine sums up the timings of the last statSamples frames.
func (l *Lab) statsLine() string {
	d := &l.draw
	return fmt.Sprintf("crowd stats: %d characters, %d threads, %s, %d as lines; "+
		"median tick %.3f ms (%.2f us/character); median draw %.2f ms; median frame %.2f ms",
		l.builtN, l.crowd.Threads(), d.bodiesText(), d.lines,
		median(l.tickSamples, l.tickSampleCursor), 1e3*median(l.tickSamples, l.tickSampleCursor)/float32(l.builtN),
		median(d.drawSamples, d.cursor), median(d.frameSamples, d.cursor))
}

// statSamples is how many ticks and frames the medians of statsLine cover.
const statSamples = 256

// median of the first min(n, len(s)) samples (0 if none); it sorts a copy.
func median(s []float32, n int) float32 {
	n = min(n, len(s))
	if n == 0 {
		return 0
	}
	c := append([]float32(nil), s[:n]...)
	sort.Slice(c, func(a, b int) bool { return c[a] < c[b] })
	return c[n/2]
}

// crowdLevels is the number of levels of detail of the crowd's body.
const crowdLevels = 3

// crowdVertices are the vertex counts of the crowd's bodies by level of
// detail: the finest near the camera, the coarsest far away. Each is a
// fine body (crowdSourceCell) simplified by body.Decimate, which keeps
// forearms and feet whole down to about 100 vertices, where a coarse
// surface grid broke them apart below about 500. Under a software
// renderer drawing costs about in proportion to vertices.
var crowdVertices = [crowdLevels]int{250, 150, 100}

// crowdSourceCell (m) is the surface grid cell of the body the crowd's are
// simplified from: about 3,800 vertices, within a few millimetres of the
// default body's 9,000 and three times faster to make and simplify (0.1 s
// against 0.33 s when the lab first draws).
const crowdSourceCell = 0.025

// bodiesText says how many skinned bodies of how many vertices were drawn
// in the last frame, e.g. "40 bodies x 250 + 120 x 150 + 40 x 100 vertices".
func (d *crowdDraw) bodiesText() string {
	s := ""
	for k, c := range d.perLevel {
		if d.bodies[k] == nil {
			continue
		}
		if k == 0 {
			s = fmt.Sprintf("%d bodies x %d", c, d.vertices[k])
		} else {
			s += fmt.Sprintf(" + %d x %d", c, d.vertices[k])
		}
	}
	return s + " vertices"
}

// crowdBodies makes the crowd's bodies for skeleton sk, read as figure
// fig, in its bind pose: one per level of crowdVertices, each simplified
// by body.Decimate from the one before, with two influences per vertex.
// The first is simplified from a character's own mesh (own not nil) with
// its normals smoothed (a flat-shaded mesh has a vertex per face corner,
// three times the vertices of the same triangles smooth; from the crowd's
// distances the facets do not show), else from a body generated for the
// figure: both at the generated bodies' vertex counts, so a crowd of own
// meshes draws as fast. A level Decimate cannot make coarser than the one
// before is left empty (drawn with the finer one).
func crowdBodies(fig *humanoid.Figure, sk *animsys.Skeleton, own *body.Mesh) [crowdLevels]body.Mesh {
	var prev body.Mesh
	if own != nil {
		prev = body.SmoothNormals(own)
	} else {
		bind := sk.BindPose()
		prev = body.GenerateCell(fig, bind.Pos, bind.Rot, crowdSourceCell)
	}
	var out [crowdLevels]body.Mesh
	for k, n := range crowdVertices {
		next := body.Decimate(&prev, n)
		if k > 0 && next.VertexCount() >= prev.VertexCount() {
			break
		}
		out[k], prev = next, next
	}
	for k := range out {
		twoInfluences(&out[k])
	}
	return out
}

// twoInfluences keeps each vertex's two heaviest bone influences, first
// and second, renormalised (the other two get weight 0), as
// shaders/skin_crowd.vs reads only those two: half the bone-matrix reads
// of four, which dominate skinning under a software renderer.
func twoInfluences(b *body.Mesh) {
	for v := 0; 4*v+3 < len(b.BoneWeights); v++ {
		id, w := b.BoneIDs[4*v:4*v+4], b.BoneWeights[4*v:4*v+4]
		for i := 1; i < 4; i++ { // insertion sort, heaviest first
			for j := i; j > 0 && w[j] > w[j-1]; j-- {
				w[j], w[j-1] = w[j-1], w[j]
				id[j], id[j-1] = id[j-1], id[j]
			}
		}
		if sum := w[0] + w[1]; sum > 0 {
			w[0], w[1] = w[0]/sum, w[1]/sum
		}
		w[2], w[3] = 0, 0
	}
}
