package animsys

import "fmt"

// Transitions (propagating-velocities: "Two Way Blend", "Inertialization",
// "Dead Blending"): the ways to go from the pose playing to a new clip's,
// each propagating velocities, as one state machine that anything playing
// clips can keep — a lab switching clips, a transition finder, a motion
// matcher.

// TransitionKind is a way of going from the pose playing (the source) to a
// new clip (the destination).
type TransitionKind int32

// The transition kinds.
const (
	// TransitionCut jumps to the destination's pose at once: what a
	// finite difference cannot follow.
	TransitionCut TransitionKind = iota
	// TransitionBlend keeps both clips playing and cross-fades from the
	// source to the destination with a smoothstep weight over
	// TransitionParams.BlendDuration (Blend, with the weight's rate).
	TransitionBlend
	// TransitionCubic records the offset from the destination to the
	// source and decays it with the cubic over CubicDuration
	// (op_inertialize).
	TransitionCubic
	// TransitionSpring decays the offset with a critical spring of
	// half-life Halflife (InertializeCritical).
	TransitionSpring
	// TransitionDeadBlend extrapolates the source's last pose with
	// velocities decaying at DeadHalflife and cross-fades it to the
	// destination over BlendDuration (op_dead_blending).
	TransitionDeadBlend
	// NumTransitionKinds counts the kinds.
	NumTransitionKinds
)

var transitionNames = [NumTransitionKinds]string{"cut", "blend", "cubic", "spring", "dead blend"}

// String is the kind's name: cut, blend, cubic, spring or dead blend.
func (k TransitionKind) String() string {
	if k >= 0 && k < NumTransitionKinds {
		return transitionNames[k]
	}
	return fmt.Sprintf("TransitionKind(%d)", int32(k))
}

// TransitionParams are a transition's durations and half-lives (s). They
// are read on every Apply, so a slider moved during a transition acts on
// it at once.
type TransitionParams struct {
	BlendDuration float32 // s: TransitionBlend's and TransitionDeadBlend's cross-fade
	CubicDuration float32 // s: TransitionCubic's decay to zero
	Halflife      float32 // s: TransitionSpring's decay
	DeadHalflife  float32 // s: TransitionDeadBlend's decay of the extrapolated velocities
	// IgnoreWeightVel drops the velocity a changing cross-fade weight adds
	// (TransitionBlend and TransitionDeadBlend): the velocities a system
	// that forgets it would show.
	IgnoreWeightVel bool
}

// Transition is the state of the transition playing: its kind, the time
// since it began, and what it recorded then (the inertialization offset,
// or the pose dead blending extrapolates). The zero Transition is a cut
// long past; NewTransition allocates one for a skeleton, after which
// nothing allocates.
//
// Each tick, the caller advances it by dt and applies it to the
// destination clip's pose: Start (at a transition), Advance, Apply.
// TransitionBlend keeps nothing of the source: the caller keeps playing
// the source clip and passes its pose to Apply.
type Transition struct {
	kind TransitionKind
	time float32 // s since Start
	// offset is what the inertializations decay: the source minus the
	// destination at Start (InertializeOffset).
	offset Pose
	// from is the source's pose at Start, which dead blending
	// extrapolates into extrap.
	from, extrap Pose
}

// NewTransition returns a cut long past for poses of joints joints.
func NewTransition(joints int) Transition {
	var t Transition
	NewPoses(joints, &t.offset, &t.from, &t.extrap)
	return t
}

// Kind is the kind of the transition playing (TransitionCut before any).
func (t *Transition) Kind() TransitionKind { return t.kind }

// Time is how long (s) the transition has played.
func (t *Transition) Time() float32 { return t.time }

// Start begins a transition of kind k from source, the pose output so
// far, to dest, the destination clip's pose at the transition's first
// tick (with its velocities). Only the inertializations read dest and
// only they and dead blending read source: for a cut or a two-way blend
// either may be nil. Neither is kept.
func (t *Transition) Start(k TransitionKind, source, dest *Pose) {
	switch k {
	case TransitionCubic, TransitionSpring:
		t.need("Transition.Start", "source", source)
		t.need("Transition.Start", "dest", dest)
		InertializeOffset(&t.offset, source, dest)
	case TransitionDeadBlend:
		t.need("Transition.Start", "source", source)
		t.from.CopyFrom(source)
	case TransitionCut, TransitionBlend:
	default:
		panic(fmt.Sprintf("animsys.Transition.Start: unknown kind %d", int32(k)))
	}
	t.kind, t.time = k, 0
}

// End stops the transition: Apply passes the destination through from
// now on (a cut long past). A caller ends an inertialization whose offset
// has decayed below what it cares about.
func (t *Transition) End() { t.kind = TransitionCut }

// Advance moves the transition on by dt seconds.
func (t *Transition) Advance(dt float32) { t.time += dt }

// SourceShows reports whether a two-way blend's source clip still weighs
// in: the caller must keep sampling it for Apply.
func (t *Transition) SourceShows(p TransitionParams) bool {
	return t.kind == TransitionBlend && t.time < p.BlendDuration
}

// Apply writes into out the pose of the transition at its Time: live is
// the destination clip's pose now, source the source clip's pose now
// (read by TransitionBlend only; nil otherwise). Velocities are
// propagated through every kind. out may be live.
func (t *Transition) Apply(out, live, source *Pose, p TransitionParams) {
	switch t.kind {
	case TransitionBlend:
		if source == nil {
			panic("animsys.Transition.Apply: a two-way blend needs the source clip's pose")
		}
		t.crossFade(out, source, live, p)
	case TransitionCubic:
		t.need("Transition.Apply", "live", live)
		Inertialize(out, &t.offset, live, t.time, p.CubicDuration)
	case TransitionSpring:
		t.need("Transition.Apply", "live", live)
		InertializeCritical(out, &t.offset, live, t.time, p.Halflife)
	case TransitionDeadBlend:
		t.need("Transition.Apply", "live", live)
		ExtrapolateDecayed(&t.extrap, &t.from, t.time, p.DeadHalflife)
		t.crossFade(out, &t.extrap, live, p)
	default:
		if out != live {
			out.CopyFrom(live)
		}
	}
}

// crossFade blends from to live with the smoothstep weight at the
// transition's time and, unless p drops it, the weight's rate.
func (t *Transition) crossFade(out, from, live *Pose, p TransitionParams) {
	a := SmoothstepBlendAlpha(t.time, p.BlendDuration)
	av := SmoothstepBlendAlphaVel(t.time, p.BlendDuration)
	if p.IgnoreWeightVel {
		av = 0
	}
	Blend(out, from, live, a, av)
}

// need is the door check of Start and Apply (op): pose p, the argument
// called role, must not be nil and must have the joints of the
// transition's own poses (NewTransition).
func (t *Transition) need(op, role string, p *Pose) {
	if p == nil {
		panic(fmt.Sprintf("animsys.%s: %s pose is nil", op, role))
	}
	need(op, role, p, wholePose, t.offset.Len(), "NewTransition's joints")
}
