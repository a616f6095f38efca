package animsys

import (
	"fmt"
	"strings"
	"testing"
)

// At the start of an inertialization or a dead blend the output is the
// source pose, velocities included (the offset is undecayed, the
// cross-fade weight 0); a two-way blend starts on the source clip; a cut
// is the destination at once. Long after, every kind gives the
// destination.
func TestTransitionEnds(t *testing.T) {
	src, dst := sampled(1, 2), sampled(2, 3)
	n := len(src.Pos)
	p := TransitionParams{BlendDuration: 0.4, CubicDuration: 0.4, Halflife: 0.1, DeadHalflife: 0.2}
	out := NewPose(n)
	for k := TransitionKind(0); k < NumTransitionKinds; k++ {
		tr := NewTransition(n)
		tr.Start(k, &src, &dst)
		if tr.Kind() != k || tr.Time() != 0 {
			t.Fatalf("%v: kind %v time %g after Start", k, tr.Kind(), tr.Time())
		}
		tr.Apply(&out, &dst, &src, p)
		want := &src
		if k == TransitionCut {
			want = &dst
		}
		// Rotations go through the exp map and back: float32 rounding.
		if pd, r, s, v, w, sv := poseDiff(&out, want); max(pd, r, s, v, w, sv) > 2e-5 {
			t.Errorf("%v at 0 s: off the %s pose by %g %g %g %g %g %g", k, map[bool]string{true: "destination", false: "source"}[want == &dst], pd, r, s, v, w, sv)
		}
		tr.Advance(30) // 300 half-lives, 75 durations
		tr.Apply(&out, &dst, &src, p)
		if pd, r, s, v, w, sv := poseDiff(&out, &dst); max(pd, r, s, v, w, sv) > 2e-5 {
			t.Errorf("%v after 30 s: off the destination by %g %g %g %g %g %g", k, pd, r, s, v, w, sv)
		}
		if got := tr.SourceShows(p); got {
			t.Errorf("%v after 30 s: the source still shows", k)
		}
	}
}

// The zero Transition and an ended one pass the destination through, bit
// for bit; a blend's source shows until its duration.
func TestTransitionCutAndEnd(t *testing.T) {
	src, dst := sampled(1, 2), sampled(2, 3)
	n := len(src.Pos)
	out := NewPose(n)
	var zero Transition
	zero.Apply(&out, &dst, nil, TransitionParams{})
	if pd, r, s, v, w, sv := poseDiff(&out, &dst); max(pd, r, s, v, w, sv) != 0 {
		t.Errorf("zero Transition changed the pose")
	}
	tr := NewTransition(n)
	tr.Start(TransitionSpring, &src, &dst)
	tr.Advance(0.05)
	tr.End()
	tr.Apply(&out, &dst, nil, TransitionParams{Halflife: 0.1})
	if pd, r, s, v, w, sv := poseDiff(&out, &dst); max(pd, r, s, v, w, sv) != 0 || tr.Kind() != TransitionCut {
		t.Errorf("an ended transition changed the pose (kind %v)", tr.Kind())
	}
	p := TransitionParams{BlendDuration: 0.4}
	tr.Start(TransitionBlend, nil, nil)
	tr.Advance(0.39)
	if !tr.SourceShows(p) {
		t.Errorf("blend at 0.39 of 0.4 s: the source does not show")
	}
	tr.Advance(0.02)
	if tr.SourceShows(p) {
		t.Errorf("blend at 0.41 of 0.4 s: the source still shows")
	}
}

// Poses of the wrong size, or a blend without its source, panic at the
// door, naming the method.
func TestTransitionChecksItsInputs(t *testing.T) {
	src, dst := sampled(1, 2), sampled(2, 3)
	short := NewPose(3)
	cases := []struct {
		name, want string
		run        func(tr *Transition)
	}{
		{"short source", "Transition.Start", func(tr *Transition) { tr.Start(TransitionCubic, &short, &dst) }},
		{"nil destination", "Transition.Start", func(tr *Transition) { tr.Start(TransitionSpring, &src, nil) }},
		{"short dead-blend source", "Transition.Start", func(tr *Transition) { tr.Start(TransitionDeadBlend, &short, nil) }},
		{"unknown kind", "unknown kind", func(tr *Transition) { tr.Start(NumTransitionKinds, &src, &dst) }},
		{"short live pose", "Transition.Apply", func(tr *Transition) {
			tr.Start(TransitionSpring, &src, &dst)
			tr.Apply(&short, &short, nil, TransitionParams{})
		}},
		{"blend without source", "needs the source", func(tr *Transition) {
			tr.Start(TransitionBlend, nil, nil)
			tr.Apply(&src, &dst, nil, TransitionParams{})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg := fmt.Sprint(r); r == nil || !strings.Contains(msg, c.want) {
					t.Errorf("panic %v, want one naming %q", r, c.want)
				}
			}()
			tr := NewTransition(len(src.Pos))
			c.run(&tr)
		})
	}
}

// Advancing and applying a transition allocates nothing.
func TestTransitionDoesNotAllocate(t *testing.T) {
	src, dst := sampled(1, 2), sampled(2, 3)
	out := NewPose(len(src.Pos))
	tr := NewTransition(len(src.Pos))
	p := TransitionParams{BlendDuration: 0.4, CubicDuration: 0.4, Halflife: 0.1, DeadHalflife: 0.2}
	for k := TransitionKind(0); k < NumTransitionKinds; k++ {
		if a := testing.AllocsPerRun(100, func() {
			tr.Start(k, &src, &dst)
			tr.Advance(1.0 / 60)
			tr.Apply(&out, &dst, &src, p)
		}); a != 0 {
			t.Errorf("%v: %g allocations a tick", k, a)
		}
	}
}
