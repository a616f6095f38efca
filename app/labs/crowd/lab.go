package crowd

import (
	"fmt"
	"kinelab/animsys/words"
	"math"
	"os"
	"runtime"
	"sort"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/animsys/crowd"
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

// Lab is the lab's state, by its parts: the settings and the panel's
// sliders; what the crowd is made of (cast); the crowd itself and its
// clock; where it stands (grid); the picked character's readout; the
// tick's timing; and what drawing keeps (draw). Update ticks the crowd;
// drawing only reads it (but for the timing of the drawing itself, in
// draw).
type Lab struct {
	app.Base
	S      Settings
	ranges ui.Ranges // the sliders' table (sliders), made once: sync reads it every tick
	sec    crowdPanels

	cast     cast
	seed     uint32
	crowd    *crowd.Crowd
	builtN   int     // characters in crowd
	builtLib int32   // library crowd was built from
	time     float64 // s of simulated time
	ticked   bool    // the crowd has ticked since it was built
	lastDt   float32 // s, the last tick's
	lastSum  float64 // checksum of the last tick
	grid     grid
	readout
	timing tickTiming
	draw   crowdDraw

	statsEnv bool     // KINELAB_CROWD_STATS set: print timing medians on Unload
	notes    []string // for the messages (TakeMessages)
}

// readout is what the lab shows of the picked character: which it is and
// the joint clicked on it, its finite difference, the tick's |red - blue|
// and the last event.
type readout struct {
	pick        int
	pickedJoint int // of the picked character, clicked; 0 for none
	// fd and fdLocal hold the picked character's finite difference of the
	// last tick (dt lastDt s), fdPick the character they are of (-1:
	// none), recomputed for it alone (BenchCharacter.FiniteDiff).
	fd, fdLocal animsys.Pose
	fdPick      int
	Mean, Max   float32 // |red - blue| over the picked character's joints (m/s)
	// Event names what the last tick did to the picked character that
	// the finite difference cannot follow, "" for nothing: a clip's
	// wrap (its end to its start) or the inertialization's restart (a
	// new offset every InertDuration), as the Velocities lab marks them;
	// lastEvent, its time (s) and the max |red - blue| on its tick (m/s)
	// stay in the readout for a few seconds.
	Event         string
	lastEvent     string
	lastEventTime float64
	lastEventMax  float32
}

// tickTiming is the crowd's tick timed: the last tick, whole crowd (ms)
// and per character (us), smoothed for the readout, and the last
// statSamples for the medians (statsLine).
type tickTiming struct {
	TickMs, CharUs float32
	avg            float32 // ms, smoothed
	samples        []float32
	cursor         int
}

// record takes a tick of el for n characters.
func (t *tickTiming) record(el time.Duration, n int) {
	t.TickMs = float32(el.Seconds() * 1e3)
	t.CharUs = float32(el.Seconds()*1e6) / float32(n)
	if t.avg == 0 {
		t.avg = t.TickMs
	}
	t.avg += 0.1 * (t.TickMs - t.avg)
	t.samples[t.cursor%statSamples] = t.TickMs
	t.cursor++
}

// Entry is how the App lists the Crowd lab: --lab crowd.
func Entry() app.LabEntry {
	return app.LabEntry{Name: "crowd", New: func() app.Lab { return New() }}
}

// New builds the lab with DefaultSettings on the default
// character's skeleton and clips.
func New() *Lab {
	l := &Lab{S: DefaultSettings(), cast: cast{ch: assets.Character(), benchSkel: assets.Humanoid()}, seed: crowdSeed,
		sec: crowdPanels{crowd: true, drawing: true, pick: true}, statsEnv: os.Getenv("KINELAB_CROWD_STATS") != ""}
	l.ranges = l.sliders()
	l.timing.samples = make([]float32, statSamples)
	l.draw.init()
	l.sync()
	l.S.Pick = float32(l.grid.order[0]) // the character in the middle
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
func (l *Lab) Focus() mgl32.Vec3 {
	return l.grid.cells[l.pick].Add(mgl32.Vec3{0, 0.9 * l.cast.scale(), 0})
}

// Camera implements app.Lab: far enough back to see the whole grid, at
// the character's scale (the distance's limits too: they are a human's).
func (l *Lab) Camera() app.OrbitCamera {
	c := app.DefaultCamera()
	c.Scale = l.cast.scale()
	side := float32(max(l.grid.cols, l.grid.rows)) * l.spacing() / c.Scale
	c.Yaw, c.Pitch = 0.55, 0.42
	c.Distance = max(4, min(60, 0.55*side+4)) * c.Scale
	c.Target = c.Target.Mul(c.Scale)
	return c
}

// SetCharacter implements app.Lab: the crowd is rebuilt on ch's
// skeleton, playing ch's clips (the bench library keeps the default
// skeleton), with new bodies made for it.
func (l *Lab) SetCharacter(ch *character.Character) {
	l.cast.ch = ch
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
	if l.S.Spacing != l.grid.laidSpacing {
		l.grid.layout(l.S.Spacing, l.spacing())
	}
}

// build makes a crowd of n characters from the chosen library: the
// character's clips on its skeleton, or the bench library on the default
// skeleton. A character whose clips do not fit its skeleton (LoadCharacter
// does not make one) is replaced by the default one. A count whose
// per-character state would not fit crowd.MemoryBudget (a skeleton of
// thousands of joints) is reduced to the most that fit, and said.
func (l *Lab) build(n int) {
	k := l.cast.choice(l.S.Library)
	if err := crowd.CheckBudget(k.skel.Len(), n); err != nil {
		most := max(1, crowd.MaxCharacters(k.skel.Len())) // 1 over the budget: crowd.New refuses, the default one replaces it
		l.notes = append(l.notes, fmt.Sprintf("%v: showing %d", err, most))
		n, l.S.Count = most, float32(most)
	}
	l.release()
	c, err := crowd.New(k.skel, k.lib, n, l.seed)
	if err != nil && l.S.Library != LibraryBench {
		k = l.cast.fallback()
		c, err = crowd.New(k.skel, k.lib, n, l.seed)
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
	if l.cast.use(k, current(c.Characters[0])) {
		l.draw.stale = true // bodies of another skeleton: Upload makes them again
	}
	l.crowd, l.builtN, l.builtLib, l.ticked = c, n, l.S.Library, false
	animsys.NewPoses(k.skel.Len(), &l.fd, &l.fdLocal)
	l.fdPick = -1
	l.crowd.Start(l.Threads())
	l.grid.resize(n, l.S.Spacing, l.spacing())
	l.Mean, l.Max = 0, 0
	l.grid.place(l.crowd.Characters)
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
	big := crowd.Bytes(l.cast.skel.Len(), l.builtN) > collectBytes()
	l.crowd.Close()
	l.crowd = nil
	if big {
		runtime.GC()
	}
}

// spacing (m) is the cells' spacing: S.Spacing times the view's scale,
// and at least 1.1 times the figure's reach on the ground.
func (l *Lab) spacing() float32 { return max(l.S.Spacing*l.cast.scale(), 1.1*l.cast.reach) }

// current is character c's newest pose, with propagated velocities: the
// last tick's, or before the first tick the start pose NewBenchCharacter
// evaluated.
func current(c *animsys.BenchCharacter) *animsys.Pose { return &c.Global }

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
	l.timing.record(el, l.builtN)
	l.time += float64(dt)
	l.ticked, l.lastDt, l.fdPick = true, dt, -1
	l.grid.place(l.crowd.Characters)
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
	l.Mean, l.Max = app.RedBlue(l.cast.skel.Len(), l.Lines)
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
	return p.Pos, p.Rot, p.Scl, l.grid.shift[i]
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
		h := current(c).Pos[l.cast.hips].Add(l.grid.shift[i])
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
	d, t := &l.draw, &l.timing
	return fmt.Sprintf("crowd stats: %d characters, %d threads, %s, %d as lines; "+
		"median tick %.3f ms (%.2f us/character); median draw %.2f ms; median frame %.2f ms",
		l.builtN, l.crowd.Threads(), d.bodiesText(), d.lines,
		median(t.samples, t.cursor), 1e3*median(t.samples, t.cursor)/float32(l.builtN),
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
