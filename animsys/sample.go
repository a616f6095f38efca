package animsys

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Animation sampling (propagating-velocities, "Animation Sampling").

// frameAt splits a time (s) into a frame index and the fraction in [0, 1)
// towards the next frame; frame -1 for negative times.
//
// The quotient is taken in float64: in float32 it resolves a frame to
// 1e-3 of itself past frame 8,192 (136 s at 60 fps), a jitter of 1.6e-5 s
// in every sample of a long capture on top of the time's own rounding.
func frameAt(time, frameTime float32) (int, float32) {
	ft := float64(time) / float64(frameTime)
	st := int(ft)
	if float64(st) > ft {
		st-- // floor for negative times
	}
	return st, min(float32(ft-float64(st)), belowOne)
}

// frameAt is frameAt of the clip's frames, but for the clip's last frame
// itself, which is the end of the last interval (fraction 1): the last
// frame with the velocity the motion ends with, where a time past it
// holds the frame at rest.
func (c *Clip) frameAt(time float32) (int, float32) {
	if c.Frames >= 2 && time == c.Duration() {
		return c.Frames - 2, 1
	}
	return frameAt(time, c.FrameTime)
}

// belowOne is the largest float32 below 1, math.Nextafter32(1, 0) (a
// call, not folded, that was a third of frameAt).
const belowOne = 0x1.fffffep-1

// clampFrame limits a frame index to the clip.
func clampFrame(f, frames int) int {
	if f < 0 {
		return 0
	}
	if f > frames-1 {
		return frames - 1
	}
	return f
}

// SampleLinear samples clip c at time (s) by linear interpolation between
// the two frames around it (op_sample_linear): positions lerp, rotations
// slerp, scales eerp, and the velocities are the constant rates between the
// two frames — m/s, rad/s (world side), natural-log scale per second. At
// the clip's end time it is the last frame with the last interval's
// velocities; past its ends the end frame holds, at rest; wrapping a
// looping time is the caller's job. out must have c.Joints joints. A clip
// with Curves is sampled from them instead, exactly.
func SampleLinear(out *Pose, c *Clip, time float32) {
	st, alpha := c.frameAt(time)
	sampleFrame("SampleLinear", out, c, st, linearAt(alpha), float64(time))
}

// SampleLinearFrame is SampleLinear at fraction alpha (0 to 1) of the way
// from frame to frame+1: the time frame + alpha frames, given without the
// float32 time, whose resolution falls to 1e-4 s at 1000 s. alpha = 1 on
// the last interval is the clip's end approached from inside: its last
// frame with the velocities of the interval before it.
func SampleLinearFrame(out *Pose, c *Clip, frame int, alpha float32) {
	if curvesFrame("SampleLinearFrame", out, c, frame, alpha) {
		return
	}
	sampleFrame("SampleLinearFrame", out, c, frame, linearAt(alpha), (float64(frame)+float64(alpha))*float64(c.FrameTime))
}

// SampleCubic samples clip c at time (s) by cubic (Catmull-Rom) interpolation
// of the four frames around it, with velocities that change smoothly across
// frames (the article's "sample four poses instead of two"). Each channel is
// a Hermite curve for the offset from the frame before the time, built from
// the deltas between consecutive frames — positions (m), rotations (scaled
// angle-axis of quat_mul_inv, rad) and scales (log-ratios) — with tangents
// the mean of the deltas on either side. The velocities are the exact time
// derivatives of the sampled curves: m/s; rad/s (world side, through the
// exp-map derivative); natural-log scale per second. At a clip's first and
// last interval the frame beyond is a ghost that carries the motion on
// (one-sided), or for a clip that Wraps the frame across the wrap, so the
// velocities at the clip's first and last frame are the motion's; at the
// end time it is the last frame with the velocity the curve ends with,
// and past either end the end frame holds at rest. Wrapping a looping time
// is the caller's job. A clip with Curves is sampled from them instead,
// exactly.
func SampleCubic(out *Pose, c *Clip, time float32) {
	st, alpha := c.frameAt(time)
	sampleFrame("SampleCubic", out, c, st, hermiteAt(alpha), float64(time))
}

// SampleCubicFrame is SampleCubic at fraction alpha (0 to 1) of the way
// from frame to frame+1 (see SampleLinearFrame): alpha = 1 on the last
// interval gives the last frame with the velocity the curve ends with, as
// SampleCubic at the clip's end time does.
func SampleCubicFrame(out *Pose, c *Clip, frame int, alpha float32) {
	if curvesFrame("SampleCubicFrame", out, c, frame, alpha) {
		return
	}
	sampleFrame("SampleCubicFrame", out, c, frame, hermiteAt(alpha), (float64(frame)+float64(alpha))*float64(c.FrameTime))
}

// curvesFrame samples, when c's Curves know their end (CurvesEnd), the
// time frame + alpha frames exactly: by index, the fraction (frame +
// alpha) / (Frames - 1) of the curves' End rather than via the float32
// FrameTime, and the last frame as the end approached from inside
// (SampleCurvesEnd). It reports whether it did.
func curvesFrame(op string, out *Pose, c *Clip, frame int, alpha float32) bool {
	ce, ok := c.Curves.(CurvesEnd)
	if !ok || c.Frames < 2 {
		return false
	}
	need(op, "out", out, wholePose, c.Joints, "the clip's Joints")
	last := float64(c.Frames - 1)
	at := float64(frame) + float64(alpha)
	if at >= last {
		ce.SampleCurvesEnd(out)
		return true
	}
	ce.SampleCurves(out, ce.End()*at/last)
	return true
}

// hermite holds the weights of a curve over one interval at a fraction of
// it, and of its derivative: the offset from the interval's first frame is
// x(t) = h10 m1 + h01 d12 + h11 m2, its rate per frame d10 m1 + d01 d12 +
// d11 m2, for the segment's delta d12 and tangents m1, m2 (per frame).
type hermite struct{ h10, h01, h11, d10, d01, d11 float32 }

// hermiteAt is the cubic Hermite basis at fraction t: Catmull-Rom
// sampling.
func hermiteAt(t float32) hermite {
	t2 := t * t
	t3 := t2 * t
	return hermite{
		h10: t3 - 2*t2 + t, h01: 3*t2 - 2*t3, h11: t3 - t2,
		d10: 3*t2 - 4*t + 1, d01: 6*t - 6*t2, d11: 3*t2 - 2*t,
	}
}

// linearAt is the linear basis at fraction t: the offset t d12 and the
// constant rate d12 (op_sample_linear as a curve of the same form; J(t
// d12) d12 = d12, the exp map's derivative along its own axis).
func linearAt(t float32) hermite { return hermite{h01: t, d01: 1} }

// MaxCacheBytes bounds the sampling cache Prepare makes for one clip
// (bytes): a longer clip (about 30 s of a 65-joint capture at 120 fps) is
// sampled without it, at the same values, rather than held at several
// times its size.
const MaxCacheBytes = 16 << 20

// rotRec is a block of mathx.Lanes joints' rotation curves over one
// interval, held as the lane types (by component): the rotation at the
// interval's start R and the tangents m1, d12, m2 of its cubic curve
// (rotTangents).
type rotRec struct {
	R           mathx.SoaQuat
	M1, D12, M2 mathx.SoaVec3
}

// chanRec is a block of mathx.Lanes animated positions or scales over one
// interval: the value at its start V and the tangents m1, d12, m2 of its
// curve (positions: Catmull-Rom; scales: of the log-ratios).
type chanRec struct{ V, M1, D12, M2 mathx.SoaVec3 }

func blocks(n int) int { return (n + mathx.Lanes - 1) / mathx.Lanes }

// Prepare drops the position and scale tracks whose every frame holds one
// value (the joint then holds it in every frame), and caches what sampling
// would otherwise recompute every call, per interval (frame f to f+1): the
// rotation curves' tangents of every joint (rotRec: two logarithms and a
// Jacobian saved per joint), and those of each animated position and
// scale (chanRec), in blocks of mathx.Lanes held as lane types. It is
// the same function of the frames that sampling computes without the
// cache (rotTangents, chanTangents), so the values are the same either
// way. Call it once after the clip's frames are filled, and again after
// changing them. The cache takes 13 float32s per joint and interval, 12
// per animated channel (rounded up to whole blocks); above MaxCacheBytes
// none is made, nor for a clip of fewer than mathx.Lanes/2 joints (a root
// track): its blocks would be mostly padding, 800 bytes a frame for one
// joint against 28 for its frames, and computing a few joints' tangents
// costs little.
func (c *Clip) Prepare() {
	c.recs, c.posRecs, c.sclRecs = nil, nil, nil
	c.pos.compact()
	c.scl.compact()
	if c.Frames < 2 || c.Joints < 1 || 2*c.Joints < mathx.Lanes {
		return
	}
	nr, np, ns, m := blocks(c.Joints), blocks(len(c.pos.joints)), blocks(len(c.scl.joints)), c.Frames-1
	if int(unsafe.Sizeof(rotRec{}))*m*nr+int(unsafe.Sizeof(chanRec{}))*m*(np+ns) > MaxCacheBytes {
		return
	}
	recs, posRecs, sclRecs := make([]rotRec, m*nr), make([]chanRec, m*np), make([]chanRec, m*ns)
	for f := range m {
		for b := range nr {
			c.rotTangents(&recs[f*nr+b], f, b)
		}
		for b := range np {
			c.chanTangents(&posRecs[f*np+b], &c.pos, f, b, false)
		}
		for b := range ns {
			c.chanTangents(&sclRecs[f*ns+b], &c.scl, f, b, true)
		}
	}
	c.recs, c.posRecs, c.sclRecs, c.recsWrap = recs, posRecs, sclRecs, c.Wraps()
	mathx.ClearUpper()
}

// prepared reports whether the Prepare cache matches the clip.
func (c *Clip) prepared() bool {
	m := c.Frames - 1
	return c.Joints > 0 && m > 0 && len(c.recs) == m*blocks(c.Joints) &&
		len(c.posRecs) == m*blocks(len(c.pos.joints)) && len(c.sclRecs) == m*blocks(len(c.scl.joints)) &&
		c.recsWrap == c.Wraps()
}

// records are the cached blocks of interval f (f in [0, Frames-1), the
// cache prepared).
func (c *Clip) records(f int) (rots []rotRec, pos, scl []chanRec) {
	nr, np, ns := blocks(c.Joints), blocks(len(c.pos.joints)), blocks(len(c.scl.joints))
	return c.recs[f*nr : (f+1)*nr], c.posRecs[f*np : (f+1)*np], c.sclRecs[f*ns : (f+1)*ns]
}

// The four frames around interval st, clamped to the clip: the frames
// before, at the start, at the end and after.
func (c *Clip) frames4(st int) (f0, f1, f2, f3 int) {
	nf := c.Frames
	return clampFrame(st-1, nf), clampFrame(st, nf), clampFrame(st+1, nf), clampFrame(st+2, nf)
}

// Wraps reports whether the clip loops as a whole: its marked loop runs
// from its first frame to its last, which holds the first frame's pose
// (up to root motion). Sampling then takes the ghost frames around the
// clip's ends across the wrap (see ghost).
func (c *Clip) Wraps() bool {
	return c.LoopEnd > c.LoopStart && c.LoopStart <= 0 && c.LoopEnd >= c.Duration()-c.FrameTime/2
}

// ghost says where the delta on one side of interval st comes from (the
// cubic curve's tangent at that end is the mean of the deltas either side
// of it): inside the clip, its frames; at the clip's first and last
// intervals, which have no frame beyond, a ghost frame — the motion
// carried on (one-sided: the interval's own delta), so that a clip's
// first and last frames carry the motion's velocity, not half of it as
// clamped frames gave; or, for a clip that Wraps, the delta across the
// wrap. Outside the clip the frames clamp, and the curve holds at rest.
type ghost int

const (
	inside   ghost = iota // the frame beyond exists
	oneSided              // the interval's own delta
	wrapped               // the delta at the clip's other end
	clamped               // outside the clip: no motion
)

// ghosts are the sources of interval st's deltas before (st-1 to st) and
// after (st+1 to st+2).
func (c *Clip) ghosts(st int) (before, after ghost) {
	nf := c.Frames
	if st < 0 || st > nf-2 {
		return clamped, clamped
	}
	before, after = inside, inside
	end := oneSided
	if c.Wraps() && nf > 2 {
		end = wrapped
	}
	if st == 0 {
		before = end
	}
	if st == nf-2 {
		after = end
	}
	return before, after
}

// sides are interval st's deltas before (d01, frame st-1 to st) and after
// (d23, st+1 to st+2), given its own d12 and delta(a, b) from frame a to
// frame b: the frames' where they exist, else their ghosts' (ghosts): d12
// one-sided, the delta at the clip's other end wrapped; zero outside the
// clip.
func (c *Clip) sides(st int, d12 mathx.SoaVec3, delta func(a, b int) mathx.SoaVec3) (d01, d23 mathx.SoaVec3) {
	nf := c.Frames
	side := func(g ghost, a, b, wa, wb int) mathx.SoaVec3 {
		switch g {
		case inside:
			return delta(a, b)
		case oneSided:
			return d12
		case wrapped:
			return delta(wa, wb)
		}
		return zeros3()
	}
	before, after := c.ghosts(st)
	return side(before, st-1, st, nf-2, nf-1), side(after, st+1, st+2, 0, 1)
}

// rotTangents fills block b of x with the rotation curves of interval st:
// R the rotation at its start r1, d12 = log(abs(r2 r1^-1)) the delta to
// its end, and the tangents m1 = (d01 + d12)/2 at r1 and m2 at r2, the
// deltas d01 before and d23 after from the frames there or their ghosts
// (ghosts). At r2 the mean (d12 + d23)/2 is an angular velocity, while
// the curve's end tangent is the rate of o = log(rot r1^-1) at o = d12,
// so it is mapped by J(d12)^-1 (mathx.ToScaledAngleAxisDx). A delta
// between two clamped (equal) frames is zero.
func (c *Clip) rotTangents(x *rotRec, st, b int) {
	_, f1, f2, _ := c.frames4(st)
	n, j := c.Joints, b*mathx.Lanes
	at := func(f int) mathx.SoaQuat { return mathx.LoadSoaQuatPart(c.Rot[f*n:f*n+n], j) }
	delta := func(fa, fb int) mathx.SoaVec3 {
		if fa == fb {
			return zeros3()
		}
		return at(fb).MulInv(at(fa)).Abs().ToScaledAngleAxis()
	}
	r1 := at(f1)
	q12 := at(f2).MulInv(r1).Abs()
	d12 := q12.ToScaledAngleAxis()
	if f1 == f2 {
		d12 = zeros3()
	}
	d01, d23 := c.sides(st, d12, delta)
	half := mathx.Half()
	m1 := d01.Add(d12).Scale(half)
	m2 := mathx.ToScaledAngleAxisDx(q12, d12, d12.Add(d23).Scale(half))
	x.R, x.M1, x.D12, x.M2 = r1, m1, d12, m2
}

// chanTangents fills x with block b of track t's curves over interval st:
// positions as Catmull-Rom, m1 = (p2 - p0)/2, d12 = p2 - p1, m2 = (p3 -
// p1)/2; scales (logs) the same on the log-ratios of consecutive frames,
// m1 = (d01 + d12)/2, m2 = (d12 + d23)/2. At the clip's ends the frame
// beyond is a ghost (ghosts): one-sided, m = d12; or across the wrap, m =
// (d12 + the delta at the other end)/2.
func (c *Clip) chanTangents(x *chanRec, t *track3, st, b int, logs bool) {
	f0, f1, f2, f3 := c.frames4(st)
	at := func(f int) mathx.SoaVec3 {
		var v [mathx.Lanes]mgl32.Vec3
		for j := range v {
			k := min(b*mathx.Lanes+j, len(t.joints)-1)
			v[j] = t.data[k][f]
		}
		return mathx.LoadSoaVec3Part(v[:], 0)
	}
	delta := func(fa, fb int) mathx.SoaVec3 {
		if logs {
			return at(fb).Div(at(fa)).Log()
		}
		return at(fb).Sub(at(fa))
	}
	p0, p1, p2, p3 := at(f0), at(f1), at(f2), at(f3)
	half := mathx.Half()
	var m1, d12, m2 mathx.SoaVec3
	if logs {
		d01, d23 := p1.Div(p0).Log(), p3.Div(p2).Log()
		d12 = p2.Div(p1).Log()
		m1, m2 = d01.Add(d12).Scale(half), d12.Add(d23).Scale(half)
	} else {
		m1, d12, m2 = p2.Sub(p0).Scale(half), p2.Sub(p1), p3.Sub(p1).Scale(half)
	}
	// At a ghost (see ghosts) the mean of the deltas either side: d12
	// itself one-sided (exactly: (d12 + d12)/2 rounds to d12).
	if before, after := c.ghosts(st); before != inside || after != inside {
		d01, d23 := c.sides(st, d12, delta)
		if before != inside {
			m1 = d01.Add(d12).Scale(half)
		}
		if after != inside {
			m2 = d12.Add(d23).Scale(half)
		}
	}
	x.V, x.M1, x.D12, x.M2 = p1, m1, d12, m2
}

// sampleFrame is the sampling op (cubic or linear by h) at fraction h of
// interval st, its door check naming op, with the time t (s) the clip's
// Curves are sampled at when it has them. Each channel is its curve over
// the interval (rotTangents, chanTangents, from the Prepare cache inside
// a prepared clip, else from the frames): the offset o = h10 m1 + h01 d12
// + h11 m2 from the interval's start value and its rate do = d10 m1 + d01
// d12 + d11 m2 per frame; pos = p1 + o; rot = exp(o) r1 with angular
// velocity J(o) do; scl = s1 exp(o). Outside the clip the end frame holds,
// at rest.
func sampleFrame(op string, out *Pose, c *Clip, st int, h hermite, t float64) {
	var o mathx.Rooms
	needLanes(&o, op, "out", out, wholePose, c.Joints, "the clip's Joints")
	if c.Curves != nil {
		c.Curves.SampleCurves(out, t)
		return
	}
	n, nf := c.Joints, c.Frames
	if st < 0 || st >= nf-1 {
		h = hermite{} // outside the clip: hold the end frame, at rest
	}
	// Joints whose position or scale never changes hold it, at rest.
	copy(out.Pos, c.pos.value)
	clear(out.Vel)
	copy(out.Scl, c.scl.value)
	clear(out.Svl)
	lanes := func(x float32) mathx.SoaFloat { return mathx.Splat(x).Lanes() }
	w := curveWeights{lanes(h.h10), lanes(h.h01), lanes(h.h11), lanes(h.d10), lanes(h.d01), lanes(h.d11), lanes(1 / c.FrameTime)}
	if c.prepared() && st >= 0 && st < nf-1 {
		rots, pos, scl := c.records(st)
		for b := range rots {
			w.rot(&o, &rots[b], b)
		}
		for b := range pos {
			w.chan3(out.Pos, out.Vel, c.pos.joints, &pos[b], b, false)
		}
		for b := range scl {
			w.chan3(out.Scl, out.Svl, c.scl.joints, &scl[b], b, true)
		}
	} else {
		for b := range blocks(n) {
			var x rotRec
			c.rotTangents(&x, st, b)
			w.rot(&o, &x, b)
		}
		for b := range blocks(len(c.pos.joints)) {
			var x chanRec
			c.chanTangents(&x, &c.pos, st, b, false)
			w.chan3(out.Pos, out.Vel, c.pos.joints, &x, b, false)
		}
		for b := range blocks(len(c.scl.joints)) {
			var x chanRec
			c.chanTangents(&x, &c.scl, st, b, true)
			w.chan3(out.Scl, out.Svl, c.scl.joints, &x, b, true)
		}
	}
	mathx.ClearUpper()
}

// curveWeights are a hermite in every lane, and 1/FrameTime (inv).
type curveWeights struct{ h10, h01, h11, d10, d01, d11, inv mathx.SoaFloat }

// curve is the offset o and its rate do per frame of a curve with
// tangents m1, d12, m2 (see sampleFrame).
func (w *curveWeights) curve(m1, d12, m2 mathx.SoaVec3) (o, do mathx.SoaVec3) {
	return m1.Scale(w.h10).Add(d12.Scale(w.h01)).Add(m2.Scale(w.h11)), m1.Scale(w.d10).Add(d12.Scale(w.d01)).Add(m2.Scale(w.d11))
}

// rot samples block b's rotations from x into out (its rooms): rot =
// exp(o) r1, ang = J(o) do / FrameTime.
func (w *curveWeights) rot(out *mathx.Rooms, x *rotRec, b int) {
	o, do := w.curve(x.M1, x.D12, x.M2)
	k := mathx.ExpAt(o.Dot(o))
	out.Rot.Store(b*mathx.Lanes, k.Quat(o).Mul(x.R))
	out.Ang.Store(b*mathx.Lanes, k.Jacobian(o, do).Scale(w.inv))
}

// chan3 samples block b of the animated positions (scales where logs)
// listed in joints from x into their joints' v (values) and dv (rates):
// pos = p1 + o, vel = do / FrameTime; scl = s1 exp(o), svl = do /
// FrameTime. The lanes go to their joints one by one.
func (w *curveWeights) chan3(v, dv []mgl32.Vec3, joints []int32, x *chanRec, b int, logs bool) {
	o, do := w.curve(x.M1, x.D12, x.M2)
	val := x.V
	if logs {
		val = val.Mul(o.Exp())
	} else {
		val = val.Add(o)
	}
	var vs, ds [mathx.Lanes]mgl32.Vec3
	val.Unpack(&vs)
	do.Scale(w.inv).Unpack(&ds)
	for j, joint := range joints[b*mathx.Lanes : min((b+1)*mathx.Lanes, len(joints))] {
		v[joint], dv[joint] = vs[j], ds[j]
	}
}

// TimeScale scales the velocities of p by rate, for a pose sampled at
// rate x playback time (d/dt x(rate t) = rate x'(rate t)). Positions,
// rotations and scales are unchanged.
func TimeScale(p *Pose, rate float32) {
	n := len(p.Vel)
	need("TimeScale", "p", p, velocities, n, "len(p.Vel)")
	vel, ang, svl := p.Vel[:n], p.Ang[:n], p.Svl[:n]
	for i := range vel {
		vel[i] = vel[i].Mul(rate)
		ang[i] = ang[i].Mul(rate)
		svl[i] = svl[i].Mul(rate)
	}
}

// RemoveGlobalRoot sets the root (joint 0) of a local pose to the identity
// kineform at rest, so the pose plays in place: FK then gives each joint
// relative to the character's root, and no root motion reaches the
// velocities.
func RemoveGlobalRoot(p *Pose) {
	need("RemoveGlobalRoot", "p", p, wholePose, 1, "the root")
	p.SetKform(0, KformIdentity())
}
