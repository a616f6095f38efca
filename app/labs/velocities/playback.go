package velocities

import (
	"kinelab/animsys"
)

// playback is what plays: the clips, the playing one and the one a blend
// comes from with the time (s) into each, the transition between them,
// and the frames where each clip's own data jumps, with what the last
// tick read.
type playback struct {
	clips       []animsys.Clip
	cur, prev   int     // playing clip, and the one a blend comes from
	tCur, tPrev float32 // s into each
	trans       animsys.Transition
	jumps       [][]int     // per clip, the frame intervals where its data jumps
	readAt      [2]clipRead // what the last tick sampled: the playing clip, the blend's source
}

// newPlayback plays clip start of clips on skel (the first if there is no
// such clip), finding where each clip's data jumps (animsys.DetectEvents:
// a joint flipping near 180 degrees in one frame, a rest frame).
func newPlayback(skel *animsys.Skeleton, clips []animsys.Clip, start int) playback {
	p := playback{clips: clips, trans: animsys.NewTransition(skel.Len()), readAt: [2]clipRead{{-1, 0}, {-1, 0}}}
	p.jumps = make([][]int, len(clips))
	for i := range clips {
		for _, e := range animsys.DetectEvents(skel, &clips[i]) {
			if k := len(p.jumps[i]); k == 0 || p.jumps[i][k-1] != e.Frame {
				p.jumps[i] = append(p.jumps[i], e.Frame)
			}
		}
	}
	if start < len(clips) {
		p.cur, p.prev = start, start // the default character starts walking
	}
	return p
}

// advance moves both clips on by dt seconds of clip time as play says,
// and reports whether each crossed an end.
func (p *playback) advance(dt float32, play animsys.PlayMode) (crossed, crossedPrev bool) {
	p.tCur, crossed = play.Advance(p.tCur, dt, loopLen(&p.clips[p.cur]))
	p.tPrev, crossedPrev = play.Advance(p.tPrev, dt, loopLen(&p.clips[p.prev]))
	return crossed, crossedPrev
}

// loopLen is the length (s) of clip c's loop.
func loopLen(c *animsys.Clip) float32 {
	_, n := c.Loop()
	return n
}

// clipRead is a clip and the time (s, into the clip) a tick sampled it
// at; clip -1 for none.
type clipRead struct {
	clip int
	t    float32
}

// clipTime is the clip time (s) playback time t of clip i samples, as
// play plays it.
func (p *playback) clipTime(i int, t float32, play animsys.PlayMode) float32 {
	start, n := p.clips[i].Loop()
	off, _ := play.At(t, n)
	return start + off
}

// readsJump reports whether this tick's or the last tick's samples read a
// frame interval where the clip's data jumps, and records this tick's:
// the playing clip's, and the blend's source while it shows (blending),
// played as play says. A sample at time s reads the interval around s,
// and with cubic sampling the one before and the one after; the finite
// difference reads every interval between the two ticks' samples of a
// clip.
func (p *playback) readsJump(play animsys.PlayMode, cubic, blending bool) bool {
	now := [2]clipRead{{p.cur, p.clipTime(p.cur, p.tCur, play)}, {-1, 0}}
	if blending {
		now[1] = clipRead{p.prev, p.clipTime(p.prev, p.tPrev, play)}
	}
	hit := false
	for _, r := range now {
		if r.clip < 0 || len(p.jumps[r.clip]) == 0 {
			continue
		}
		lo, hi := r.t, r.t
		for _, q := range p.readAt {
			if q.clip == r.clip {
				lo, hi = min(lo, q.t), max(hi, q.t)
			}
		}
		ft := p.clips[r.clip].FrameTime
		first, last := int(lo/ft), int(hi/ft)
		if cubic {
			first, last = first-1, last+1
		}
		for _, f := range p.jumps[r.clip] {
			hit = hit || (f >= first && f <= last)
		}
	}
	p.readAt = now
	return hit
}

// endEvent names what clip i did when its playback crossed an end as play
// plays it: wrap (back to the start of a clip that does not loop
// seamlessly), end (a clamped clip stopped) or turn (ping-pong); "" if it
// did not cross, or looped seamlessly.
func (p *playback) endEvent(i int, crossed bool, play animsys.PlayMode) string {
	c := &p.clips[i]
	switch {
	case !crossed:
		return ""
	case play == animsys.PlayClamp:
		return "end"
	case play == animsys.PlayPingPong:
		return "turn"
	case c.LoopEnd > c.LoopStart:
		return ""
	}
	return "wrap"
}
