package animsys

import (
	"math"
	"unsafe"

	"kinelab/animsys/mathx"
)

// The benchmark: the velocity chain of the Velocities lab as
// docs/bench-spec.md ("One character tick") runs it. BenchChain configures
// it, a BenchCharacter runs it, package crowd ticks many.

// BenchStages switches the stages of a BenchChain on and off. The zero
// value runs only sampling (linear) and FK; AllBenchStages is the
// benchmark's full chain.
type BenchStages struct {
	Cubic       bool // cubic sampling; linear when false
	Blend       bool // two-way blend of clip A to clip B
	BlendVel    bool // include the velocity the changing blend weight adds
	Additive    bool // additive pose on the world side
	AdditiveVel bool // include the velocity the changing additive weight adds
	Inertialize bool // cubic inertialization of the recorded offset
}

// AllBenchStages are the stages of the bench-spec tick: all on.
func AllBenchStages() BenchStages {
	return BenchStages{Cubic: true, Blend: true, BlendVel: true, Additive: true, AdditiveVel: true, Inertialize: true}
}

// BenchChain is the configuration of the benchmark's velocity chain: the
// skeleton's parents, which stages run, and the timing of the scripted
// weights.
type BenchChain struct {
	Parents        []int
	Stages         BenchStages
	BlendPeriod    float32 // s: blend weight .5 - .5 cos(2 pi T / BlendPeriod)
	AdditivePeriod float32 // s: additive weight .5 - .5 cos(2 pi T / AdditivePeriod)
	InertDuration  float32 // s: inertialization duration; blend time is T mod it
}

// NewBenchChain is the chain of bench-spec for a skeleton with these
// parents: every stage on, blend period 4 s, additive period 3 s,
// inertialization every 0.5 s over 0.5 s.
func NewBenchChain(parents []int) BenchChain {
	return BenchChain{Parents: parents, Stages: AllBenchStages(), BlendPeriod: 4, AdditivePeriod: 3, InertDuration: 0.5}
}

// BenchCharacter is one character of the benchmark running a BenchChain
// (not a character.Character, which the labs animate): its two clips and
// their clocks, and the four poses that outlive a tick, in one block of
// memory (NewPoses), so that ticking allocates nothing and a crowd's
// characters stream through the cache one block each. The poses a tick
// computes and no later tick reads (the samples, the local pose, the
// finite difference and its BK) live in a BenchScratch, which characters
// ticked one after another share (see TickWith).
type BenchCharacter struct {
	Chain *BenchChain
	A, B  *Clip
	TA    float32 // s, time in clip A
	TB    float32 // s, time in clip B
	T     float32 // s, time since the start, drives the weights

	Add    Pose // additive pose (bench-spec: RandomAdditive)
	Offset Pose // inertialization offset (A to B at 0.5 s)
	Global Pose // newest FK of the chain's local pose: propagated world velocities
	Prev   Pose // Global of the previous tick, the finite difference's start

	own *BenchScratch // for Tick and Evaluate, made on first use
}

// BenchCharacterBytes is the heap (bytes) a BenchCharacter of n joints
// holds: the struct and its four poses (NewPoses: five Vec3 channels and a
// rotation a joint, each with mathx.PaddedLen(n) room). Callers multiply
// it by a crowd's size to refuse a crowd before allocating it; the
// allocator's rounding of each block to its size class adds up to about
// 15% for small skeletons.
func BenchCharacterBytes(n int) int64 {
	return int64(unsafe.Sizeof(BenchCharacter{})) + 4*PoseBytes(n)
}

// BenchScratch holds the poses of a tick that no later tick reads: the two
// sampled clips and the local pose after blend, additive and
// inertialization. Sharing one BenchScratch between the characters a
// goroutine ticks keeps a crowd's working set small (a 23-joint pose is 2
// KB), so it stays in cache instead of each character writing its own.
type BenchScratch struct {
	SampleA, SampleB Pose // sampled clips, local
	Local            Pose // after blend, additive and inertialization
	// FD is the ticked character's Global with finite-difference
	// velocities (its positions, rotations and scales are Global's: see
	// TickWith); FDLocal is BK of FD, the finite-difference local
	// velocities.
	FD, FDLocal Pose
}

// NewBenchScratch allocates a BenchScratch for characters of n joints.
func NewBenchScratch(n int) *BenchScratch {
	s := &BenchScratch{}
	NewPoses(n, &s.SampleA, &s.SampleB, &s.Local, &s.FD, &s.FDLocal)
	return s
}

// NewBenchCharacter sets up a character playing clips a and b (same
// joints as chain.Parents) from times tA and tB (s), with the bench-spec
// additive pose drawn from seed and the inertialization offset between a
// and b sampled at 0.5 s. Global is evaluated at the start times, so the
// first tick's finite difference is meaningful. The set-up runs in s;
// with s nil the character makes a BenchScratch of its own, which Tick
// and Evaluate then use (a crowd passes its shared one and ticks with
// TickWith).
func NewBenchCharacter(chain *BenchChain, a, b *Clip, seed uint32, tA, tB float32, s *BenchScratch) *BenchCharacter {
	n := len(chain.Parents)
	c := &BenchCharacter{Chain: chain, A: a, B: b, TA: tA, TB: tB}
	NewPoses(n, &c.Add, &c.Offset, &c.Global, &c.Prev)
	if s == nil {
		s = c.scratch()
	}
	RandomAdditive(&c.Add, seed)
	SampleCubic(&s.SampleA, a, 0.5)
	SampleCubic(&s.SampleB, b, 0.5)
	InertializeOffset(&c.Offset, &s.SampleA, &s.SampleB)
	c.EvaluateWith(s)
	return c
}

// scratch is the character's own BenchScratch, made on first use.
func (c *BenchCharacter) scratch() *BenchScratch {
	if c.own == nil {
		c.own = NewBenchScratch(len(c.Chain.Parents))
	}
	return c.own
}

// Evaluate runs the chain at the current clocks, through FK (steps 2-6 of
// bench-spec): sample A and B, blend, additive, inertialize, FK into Global.
// It overwrites the newest pose, so the next Tick differentiates from it.
func (c *BenchCharacter) Evaluate() { c.EvaluateWith(c.scratch()) }

// EvaluateWith is Evaluate with the tick's temporary poses in s.
func (c *BenchCharacter) EvaluateWith(s *BenchScratch) {
	ch := c.Chain
	st := ch.Stages
	sample := SampleLinear
	if st.Cubic {
		sample = SampleCubic
	}
	sample(&s.SampleA, c.A, c.TA)
	out := &s.SampleA
	if st.Blend {
		sample(&s.SampleB, c.B, c.TB)
		w, dw := CosineWeight(c.T, ch.BlendPeriod)
		if !st.BlendVel {
			dw = 0
		}
		Blend(&s.Local, &s.SampleA, &s.SampleB, w, dw)
		out = &s.Local
	}
	if st.Additive {
		if out != &s.Local {
			s.Local.CopyFrom(out)
			out = &s.Local
		}
		a, da := CosineWeight(c.T, ch.AdditivePeriod)
		if !st.AdditiveVel {
			da = 0
		}
		Additive(&s.Local, &c.Add, a, da)
	}
	if st.Inertialize {
		w0, w1, w2, w3 := CubicDecayWeights(fmod(c.T, ch.InertDuration), ch.InertDuration)
		InertializeWeights(&s.Local, &c.Offset, out, w0, w1, w2, w3)
		out = &s.Local
	}
	FK(&c.Global, out, ch.Parents)
}

// Tick advances the character by dt seconds and runs one bench-spec tick:
// swap Global into Prev (no copy), advance the clocks (wrapping at each
// clip's last frame), Evaluate into Global, the finite difference of Global
// against Prev into the scratch's FD, BK of FD into its FDLocal. It
// returns a checksum of a few outputs, so benchmarks cannot optimise the
// work away.
func (c *BenchCharacter) Tick(dt float32) float32 { return c.TickWith(dt, c.scratch()) }

// TickWith is Tick with the tick's temporary poses in s, which must have
// the character's number of joints.
func (c *BenchCharacter) TickWith(dt float32, s *BenchScratch) float32 {
	// Swapping first leaves Global the newest pose between ticks.
	c.Global, c.Prev = c.Prev, c.Global
	c.TA = wrapTime(c.TA+dt, c.A.Duration())
	c.TB = wrapTime(c.TB+dt, c.B.Duration())
	c.T += dt
	c.EvaluateWith(s)
	// FD's positions, rotations and scales are Global's: sharing them
	// spares FiniteDiff three copies a tick (BK reads them next).
	s.FD.Pos, s.FD.Rot, s.FD.Scl = c.Global.Pos, c.Global.Rot, c.Global.Scl
	FiniteDiff(&s.FD, &c.Global, &c.Prev, dt)
	BK(&s.FDLocal, &s.FD, c.Chain.Parents)
	return c.checksum(s)
}

// FiniteDiff writes into fd the last tick's finite difference of Global
// against Prev over dt seconds, as TickWith computed it into its scratch,
// and into fdLocal BK of it: the blue lines of the character the Crowd
// lab picks, recomputed for one character rather than kept for all.
func (c *BenchCharacter) FiniteDiff(fd, fdLocal *Pose, dt float32) {
	FiniteDiff(fd, &c.Global, &c.Prev, dt)
	BK(fdLocal, fd, c.Chain.Parents)
}

// Prefetch asks the processor to start loading into its cache what the
// next TickWith(dt, s) of c reads and writes: c's poses, and
// the records of its clips that tick samples. It changes nothing and
// returns at once, so a caller ticking many characters in turn can
// prefetch the next one's while ticking this one: a crowd's characters
// do not fit in cache (18 KB each a tick with the bench-spec skeleton,
// and their clips are spread over 55 MB), so without it each tick would
// first wait for memory. It does nothing where no prefetch instruction is
// wired up (only amd64 has one).
func (c *BenchCharacter) Prefetch(dt float32) {
	c.A.prefetchAt(wrapTime(c.TA+dt, c.A.Duration()))
	if c.Chain.Stages.Blend {
		c.B.prefetchAt(wrapTime(c.TB+dt, c.B.Duration()))
	}
	for _, p := range [...]*Pose{&c.Add, &c.Offset, &c.Prev, &c.Global} {
		p.prefetch()
	}
}

// checksum folds a few velocities of the tick (in Global, and s's FD and
// FDLocal) into one number.
func (c *BenchCharacter) checksum(s *BenchScratch) float32 {
	n := len(s.FDLocal.Pos) - 1
	g, f := c.Global.Vel[n], s.FDLocal.Ang[n]
	return g[0] + g[1] + g[2] + f[0] + f[1] + f[2] + s.FD.Svl[n][0] + c.Global.Ang[0][1]
}

// CosineWeight is the bench-spec weight .5 - .5 cos(2 pi t / period) and
// its rate (pi / period) sin(2 pi t / period) in 1/s (t, period in s).
// The phase is the fraction of a period reduced in float64: 2 pi t in
// float32 is resolved to 1e-4 rad at t = 200 s, a weight jittering by
// 1e-4 from one millisecond to the next.
func CosineWeight(t, period float32) (w, dw float32) {
	const pi = float32(math.Pi)
	u := float64(t) / float64(period)
	u -= math.Floor(u)
	s, c := mathx.Sincos32(float32(2 * math.Pi * u))
	return .5 - .5*c, pi / period * s
}

// wrapTime wraps a clip time into [0, duration).
func wrapTime(t, duration float32) float32 {
	if t >= duration {
		t -= duration
		if t >= duration {
			t = fmod(t, duration)
		}
	}
	return t
}

// fmod is x mod y for x >= 0, y > 0.
func fmod(x, y float32) float32 {
	return x - y*float32(int(x/y))
}
