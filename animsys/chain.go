package animsys

// The velocity chain of the Velocities lab and of the benchmark
// (docs/bench-spec.md, "One character tick").

// Stages switches the stages of a Chain on and off. The zero value runs
// only sampling (linear) and FK; BenchStages is the benchmark's full chain.
type Stages struct {
	Cubic       bool // cubic sampling; linear when false
	Blend       bool // two-way blend of clip A to clip B
	BlendVel    bool // include the velocity the changing blend weight adds
	Additive    bool // additive pose on the world side
	AdditiveVel bool // include the velocity the changing additive weight adds
	Inertialize bool // cubic inertialization of the recorded offset
}

// BenchStages are the stages of the bench-spec tick: all on.
func BenchStages() Stages {
	return Stages{Cubic: true, Blend: true, BlendVel: true, Additive: true, AdditiveVel: true, Inertialize: true}
}

// Chain is the configuration of the velocity chain: the skeleton's parents,
// which stages run, and the timing of the scripted weights.
type Chain struct {
	Parents        []int
	Stages         Stages
	BlendPeriod    float32 // s: blend weight .5 - .5 cos(2 pi T / BlendPeriod)
	AdditivePeriod float32 // s: additive weight .5 - .5 cos(2 pi T / AdditivePeriod)
	InertDuration  float32 // s: inertialization duration; blend time is T mod it
}

// BenchChain is the chain of bench-spec for a skeleton with these parents:
// every stage on, blend period 4 s, additive period 3 s, inertialization
// every 0.5 s over 0.5 s.
func BenchChain(parents []int) Chain {
	return Chain{Parents: parents, Stages: BenchStages(), BlendPeriod: 4, AdditivePeriod: 3, InertDuration: 0.5}
}

// Character is one character running a Chain: its two clips and their
// clocks, its additive pose and inertialization offset, and every pose of
// the tick, so that ticking allocates nothing.
type Character struct {
	Chain *Chain
	A, B  *Clip
	TA    float32 // s, time in clip A
	TB    float32 // s, time in clip B
	T     float32 // s, time since the start, drives the weights

	Add    Pose // additive pose (bench-spec: RandomAdditive)
	Offset Pose // inertialization offset (A to B at 0.5 s)

	SampleA, SampleB Pose // sampled clips, local
	Local            Pose // after blend, additive and inertialization
	Global           Pose // FK of Local: propagated world velocities
	PrevGlobal       Pose // Global of the previous tick
	FD               Pose // Global with finite-difference velocities
	FDLocal          Pose // BK of FD: finite-difference local velocities
}

// NewCharacter sets up a character playing clips a and b (same joints as
// chain.Parents) from times tA and tB (s), with the bench-spec additive
// pose drawn from seed and the inertialization offset between a and b
// sampled at 0.5 s. PrevGlobal is evaluated at the start times, so the
// first tick's finite difference is meaningful.
func NewCharacter(chain *Chain, a, b *Clip, seed uint32, tA, tB float32) *Character {
	n := len(chain.Parents)
	c := &Character{Chain: chain, A: a, B: b, TA: tA, TB: tB,
		Add: NewPose(n), Offset: NewPose(n),
		SampleA: NewPose(n), SampleB: NewPose(n), Local: NewPose(n),
		Global: NewPose(n), PrevGlobal: NewPose(n), FD: NewPose(n), FDLocal: NewPose(n),
	}
	RandomAdditive(&c.Add, seed)
	SampleCubic(&c.SampleA, a, 0.5)
	SampleCubic(&c.SampleB, b, 0.5)
	InertializeOffset(&c.Offset, &c.SampleA, &c.SampleB)
	c.Evaluate()
	c.Global, c.PrevGlobal = c.PrevGlobal, c.Global
	return c
}

// Evaluate runs the chain at the current clocks, through FK (steps 2-6 of
// bench-spec): sample A and B, blend, additive, inertialize, FK into Global.
func (c *Character) Evaluate() {
	ch := c.Chain
	st := ch.Stages
	sample := SampleLinear
	if st.Cubic {
		sample = SampleCubic
	}
	sample(&c.SampleA, c.A, c.TA)
	out := &c.SampleA
	if st.Blend {
		sample(&c.SampleB, c.B, c.TB)
		w, dw := CosineWeight(c.T, ch.BlendPeriod)
		if !st.BlendVel {
			dw = 0
		}
		Blend(&c.Local, &c.SampleA, &c.SampleB, w, dw)
		out = &c.Local
	}
	if st.Additive {
		if out != &c.Local {
			c.Local.CopyFrom(out)
			out = &c.Local
		}
		a, da := CosineWeight(c.T, ch.AdditivePeriod)
		if !st.AdditiveVel {
			da = 0
		}
		Additive(&c.Local, &c.Add, a, da)
	}
	if st.Inertialize {
		Inertialize(&c.Local, &c.Offset, out, fmod(c.T, ch.InertDuration), ch.InertDuration)
		out = &c.Local
	}
	FK(&c.Global, out, ch.Parents)
}

// Tick advances the character by dt seconds and runs one bench-spec tick:
// advance the clocks (wrapping at each clip's last frame), Evaluate, the
// finite difference of Global against PrevGlobal into FD, BK of FD into
// FDLocal, swap Global and PrevGlobal (no copy). It returns a checksum of
// a few outputs, so benchmarks cannot optimise the work away.
func (c *Character) Tick(dt float32) float32 {
	c.TA = wrapTime(c.TA+dt, c.A.Duration())
	c.TB = wrapTime(c.TB+dt, c.B.Duration())
	c.T += dt
	c.Evaluate()
	FiniteDiff(&c.FD, &c.Global, &c.PrevGlobal, dt)
	BK(&c.FDLocal, &c.FD, c.Chain.Parents)
	c.Global, c.PrevGlobal = c.PrevGlobal, c.Global
	return c.checksum()
}

// checksum folds a few velocities of the tick (now in PrevGlobal, FD and
// FDLocal) into one number.
func (c *Character) checksum() float32 {
	n := len(c.FDLocal.Pos) - 1
	g, f := c.PrevGlobal.Vel[n], c.FDLocal.Ang[n]
	return g[0] + g[1] + g[2] + f[0] + f[1] + f[2] + c.FD.Svl[n][0] + c.PrevGlobal.Ang[0][1]
}

// CosineWeight is the bench-spec weight .5 - .5 cos(2 pi t / period) and
// its rate (pi / period) sin(2 pi t / period) in 1/s (t, period in s).
func CosineWeight(t, period float32) (w, dw float32) {
	s, c := sincos32(2 * pi32 * t / period)
	return .5 - .5*c, pi32 / period * s
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
