package cost

import (
	"math"
	"slices"
	"strconv"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
)

// The Transition-cost lab's transition finder (beyond the article): every
// frame of the character's clips is a candidate target, costed from the
// playing pose by the exact displacement, the SAD cost and the approximate
// feature over the feet and hands; the chosen one is played with a
// critical-spring inertialization of the lab's half-life.

// finder is the transition finder: every frame of the character's clips
// as a candidate target (the root removed, FK with velocities), the costs
// from the playing pose, and the best costRanked by Settings.RankBy.
type finder struct {
	rankKey                      costRankKey // what Ranked was ranked with
	skel                         animsys.Skeleton
	clips                        []animsys.Clip
	ground                       []bool // the character's joints that are no part of its body
	joints                       []int  // the compared joints (at most costMaxJoints)
	cands                        []costCandidate
	costExact, costSAD, costFeat []float32
	Ranked                       [costRanked]int // candidate indices, -1 if none
}

// SetCharacter implements app.Lab: the finder ranks the frames of
// ch's clips, comparing its feet and hands (costFeatureJoints), and the lab
// plays the clip ch opens on (walk, on the default character). What the
// panel asked for about the last character's targets is dropped
// (playLater).
func (l *Lab) SetCharacter(ch *character.Character) {
	l.characters++
	l.skel, l.clips, l.ground = ch.Skel, ch.Clips, ch.Figure.Ground
	l.view.camera = app.CameraFor(ch)
	l.view.hips, l.view.middle, l.view.height = ch.Hips, ch.Middle, ch.Height
	l.joints = costFeatureJoints(ch)
	n := l.skel.Len()
	for _, p := range []*animsys.Pose{&l.samp, &l.out, &l.global, &l.ghost} {
		*p = animsys.NewPose(n)
	}
	l.trans = animsys.NewTransition(n)
	l.cur, l.tCur = ch.Start, 0
	l.Target, l.sinceAuto = -1, 0
	l.finder.build(&l.samp, &l.global)
	l.evaluate(0)
	l.rank()
}

// costFeatureJoints picks the joints the finder compares: the feet and
// hands of the character's figure (left foot, left hand, right foot, right
// hand, those it found), else the ends of its IK chains and its head, else
// its first joints below the root. The figure is the one reading of the
// skeleton as a body, so the lab matches no joint names itself.
func costFeatureJoints(ch *character.Character) []int {
	var out []int
	add := func(j int) {
		if j > 0 && len(out) < costMaxJoints && !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	f := ch.Figure
	for s := range f.Legs { // a limb the figure did not find has End -1: add passes over it
		add(f.Legs[s].End)
		add(f.Arms[s].End)
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

// build samples the frames in every clip's loop (every few frames if
// there are more than costMaxCandidates) in character space: the root
// removed, FK with velocities, in the scratch poses samp and global.
func (f *finder) build(samp, global *animsys.Pose) {
	f.cands = f.cands[:0]
	total := 0
	for c := range f.clips {
		_, n := f.clips[c].Loop()
		total += int(n/f.clips[c].FrameTime + 0.5)
	}
	stride := max(1, (total+costMaxCandidates-1)/costMaxCandidates)
	for c := range f.clips {
		clip := &f.clips[c]
		_, n := clip.Loop()
		frames := int(n/clip.FrameTime + 0.5)
		for fr := 0; fr < frames; fr += stride {
			t := float32(fr) * clip.FrameTime
			f.sample(samp, c, t)
			animsys.FK(global, samp, f.skel.Parents)
			k := costCandidate{clip: c, t: t}
			for j, jt := range f.joints {
				k.pos[j], k.vel[j] = global.Pos[jt], global.Vel[jt]
			}
			f.cands = append(f.cands, k)
		}
	}
	f.costExact = make([]float32, len(f.cands))
	f.costSAD = make([]float32, len(f.cands))
	f.costFeat = make([]float32, len(f.cands))
}

// sample writes clip c at time t (s) into its loop into p, in place: the
// root removed, so every pose is in character space.
func (f *finder) sample(p *animsys.Pose, c int, t float32) {
	start, _ := f.clips[c].Loop()
	animsys.SampleCubic(p, &f.clips[c], start+t)
	animsys.RemoveGlobalRoot(p)
}

// evaluate makes the output pose: the playing clip, plus the decaying
// offset of the last transition (critical-spring inertialization with the
// lab's half-life). dt (s) integrates the measured displacement.
func (l *Lab) evaluate(dt float32) {
	l.sample(&l.samp, l.cur, l.tCur)
	l.trans.Apply(&l.out, &l.samp, nil, animsys.TransitionParams{Halflife: l.S.Halflife})
	animsys.FK(&l.global, &l.out, l.skel.Parents)
	animsys.FK(&l.ghost, &l.samp, l.skel.Parents)
	if !l.inertializing() {
		return
	}
	for _, j := range l.joints {
		d := l.global.Pos[j].Sub(l.ghost.Pos[j])
		l.Measured += (costAbs(d[0]) + costAbs(d[1]) + costAbs(d[2])) * dt
	}
	if l.trans.Time() > 20*l.S.Halflife {
		l.trans.End() // what is left is below a millionth of the offset
	}
}

// inertializing reports whether the last transition's offset still
// decays (false before any, and once it has decayed away).
func (l *Lab) inertializing() bool { return l.trans.Kind() != animsys.TransitionCut }

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

// rank ranks the candidates as targets from the output pose (rankFrom).
func (l *Lab) rank() { l.finder.rankFrom(&l.global, &l.S, l.cur, l.tCur) }

// rankFrom costs every candidate as a target from pose p, summing over
// the feature joints and axes: the exact displacement, the SAD cost and
// the approximate feature's cost; then keeps the best costRanked by
// s.RankBy. Clip cur plays, tCur seconds into its loop (skipped).
func (f *finder) rankFrom(p *animsys.Pose, s *Settings, cur int, tCur float32) {
	h, w := s.Halflife, s.VelWeight
	f.rankKey = costRankKey{h, w, s.RankBy, s.SkipPlaying, cur}
	var src costCandidate
	for j, jt := range f.joints {
		src.pos[j], src.vel[j] = p.Pos[jt], p.Vel[jt]
	}
	for i := range f.cands {
		k := &f.cands[i]
		var e, sad, ft float32
		for j := range f.joints {
			dx, dv := src.pos[j].Sub(k.pos[j]), src.vel[j].Sub(k.vel[j])
			for a := 0; a < 3; a++ {
				e += spring.TransitionCost(dx[a], dv[a], h)
				sad += spring.TransitionCostBaseline(dx[a], dv[a], 1, w)
				ft += spring.TransitionCostApprox(dx[a], dv[a], h)
			}
		}
		f.costExact[i], f.costSAD[i], f.costFeat[i] = e, sad, ft
	}
	by := f.rankCosts(s.RankBy)
	for r := range f.Ranked {
		best := -1
		for i, c := range by {
			if f.skipped(i, s.SkipPlaying, cur, tCur) || f.nearRanked(i, r) {
				continue
			}
			if best < 0 || c < by[best] {
				best = i
			}
		}
		f.Ranked[r] = best
	}
}

// costNearPlaying is how close (s) to the playing time a frame of the
// playing clip is skipped when it is the only clip: a transition to a
// moment just before or after the current one is no transition.
const costNearPlaying = 1.0

// skipped reports whether the finder passes over candidate i while clip
// cur plays tCur seconds into its loop: with skip (Skip the playing clip)
// on, the playing clip's frames, or, when the character has a single
// clip, its frames within costNearPlaying of the playing time.
func (f *finder) skipped(i int, skip bool, cur int, tCur float32) bool {
	k := &f.cands[i]
	if !skip || k.clip != cur {
		return false
	}
	if len(f.clips) > 1 {
		return true
	}
	_, n := f.clips[cur].Loop()
	d := costAbs(k.t - tCur)
	return min(d, n-d) < costNearPlaying
}

// costDistinct is how far apart (s) two listed targets of one clip must be,
// so the list shows different moments rather than neighbouring frames.
const costDistinct = 0.25

// nearRanked reports whether candidate i is within costDistinct seconds of
// one of the first upTo ranked targets in the same (looping) clip.
func (f *finder) nearRanked(i, upTo int) bool {
	k := f.cands[i]
	_, n := f.clips[k.clip].Loop()
	for _, r := range f.Ranked[:upTo] {
		if r < 0 || f.cands[r].clip != k.clip {
			continue
		}
		d := costAbs(k.t - f.cands[r].t)
		if min(d, n-d) < costDistinct {
			return true
		}
	}
	return false
}

// rankCosts are the candidates' costs of ranking by (Rank*).
func (f *finder) rankCosts(by int32) []float32 {
	switch by {
	case RankSAD:
		return f.costSAD
	case RankFeature:
		return f.costFeat
	}
	return f.costExact
}

// RankOf is candidate i's place (1 = best) among the candidates the finder
// considers when ranked by by.
func (l *Lab) RankOf(i int, by int32) int {
	c := l.rankCosts(by)
	n := 1
	for k, x := range c {
		if k != i && x < c[i] && !l.skipped(k, l.S.SkipPlaying, l.cur, l.tCur) {
			n++
		}
	}
	return n
}

// Play starts the inertialized transition from the output pose to
// candidate i: the offset between them decays with the lab's half-life
// while the target clip plays on from that frame.
func (l *Lab) Play(i int) {
	if i < 0 || i >= len(l.cands) {
		return
	}
	k := l.cands[i]
	l.sample(&l.samp, k.clip, k.t)
	l.trans.Start(animsys.TransitionSpring, &l.out, &l.samp)
	l.cur, l.tCur = k.clip, k.t
	l.sinceAuto = 0
	l.Target, l.Predicted, l.PredictedSAD, l.Measured = i, l.costExact[i], l.costSAD[i], 0
	l.evaluate(0)
	l.rank()
}

// PlayRanked plays the r-th best target (0 = best).
func (l *Lab) PlayRanked(r int) {
	if r >= 0 && r < len(l.Ranked) {
		l.Play(l.Ranked[r])
	}
}

// CandidateName is "clip @ time" of candidate i.
func (f *finder) CandidateName(i int) string {
	k := f.cands[i]
	return f.clips[k.clip].Name + " @ " + strconv.FormatFloat(float64(k.t), 'f', 2, 32) + " s"
}
