package animsys

import (
	"math"
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

// rotDelta is the rotation taking a to b as a scaled angle-axis (rad),
// shortest way round: quat_to_scaled_angle_axis(quat_abs(quat_mul_inv(b, a))).
func rotDelta(a, b mathx.Q4) mathx.V3 { return b.MulInv(a).Abs().ToScaledAngleAxis() }

// sclDelta is the log-ratio log(b / a) of two scales, per axis; exactly
// zero, at once, for equal scales.
func sclDelta(a, b mathx.V3) mathx.V3 {
	if a == b {
		return mathx.V3{}
	}
	return b.Div(a).LogEach()
}

// SampleLinear samples clip c at time (s) by linear interpolation between
// the two frames around it (op_sample_linear): positions lerp, rotations
// slerp, scales eerp, and the velocities are the constant rates between the
// two frames — m/s, rad/s (world side), natural-log scale per second. Frames
// are clamped at the ends (velocities are zero outside the clip); wrapping
// a looping time is the caller's job. out must have c.Joints joints. A
// clip with Curves is sampled from them instead, exactly.
func SampleLinear(out *Pose, c *Clip, time float32) {
	st, alpha := frameAt(time, c.FrameTime)
	sampleLinearFrame("SampleLinear", out, c, st, alpha, float64(time))
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
	sampleLinearFrame("SampleLinearFrame", out, c, frame, alpha, (float64(frame)+float64(alpha))*float64(c.FrameTime))
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

// sampleLinearFrame is SampleLinearFrame, its door check naming op, with the
// time t (s) the clip's Curves are sampled at when it has them.
func sampleLinearFrame(op string, out *Pose, c *Clip, frame int, alpha float32, t float64) {
	need(op, "out", out, wholePose, c.Joints, "the clip's Joints")
	if c.Curves != nil {
		c.Curves.SampleCurves(out, t)
		return
	}
	st, dt := frame, c.FrameTime
	n, nf := c.Joints, c.Frames
	f0, f1 := clampFrame(st, nf), clampFrame(st+1, nf)
	inv := 1 / dt
	pos, vel := out.Pos[:n], out.Vel[:n]
	rot, ang := out.Rot[:n], out.Ang[:n]
	scl, svl := out.Scl[:n], out.Svl[:n]
	rot0, rot1 := c.Rot[f0*n:f0*n+n], c.Rot[f1*n:f1*n+n]
	cached := c.prepared()
	var rec []float32 // the cached record of the interval, if not clamped
	if cached && f1 != f0 {
		rec = c.record(f0)
	}
	// Joints whose position or scale never changes hold it, at rest.
	copy(pos, c.pos.value)
	clear(vel)
	copy(scl, c.scl.value)
	clear(svl)
	for k, j := range c.pos.joints {
		tr := c.pos.data[k]
		p0, p1 := mathx.LoadV3(&tr[f0]), mathx.LoadV3(&tr[f1])
		pos[j] = p0.Lerp(p1, alpha).Vec3()
		vel[j] = p1.Sub(p0).Scale(inv).Vec3()
	}
	for j := 0; j < n; j++ {
		r0 := mathx.LoadQ4(&rot0[j])
		var d mathx.V3
		if cached {
			if rec != nil {
				d = segV3(rec, segRot*j+7)
			}
		} else {
			d = rotDelta(r0, mathx.LoadQ4(&rot1[j]))
		}
		rot[j] = mathx.Q4FromScaledAngleAxis(d.Scale(alpha)).Mul(r0).Quat()
		ang[j] = d.Scale(inv).Vec3()
	}
	for k, j := range c.scl.joints {
		tr := c.scl.data[k]
		sc0 := mathx.LoadV3(&tr[f0])
		var l mathx.V3
		if cached {
			if rec != nil {
				l = segV3(rec, c.sclAt(k)+6)
			}
		} else {
			l = sclDelta(sc0, mathx.LoadV3(&tr[f1]))
		}
		scl[j] = sc0.Mul(l.Scale(alpha).Exp()).Vec3()
		svl[j] = l.Scale(inv).Vec3()
	}
}

// hermite holds the cubic Hermite basis at a fraction t of a segment and its
// derivative in t: x(t) = x1 + h10 m1 + h01 (x2 - x1) + h11 m2 for a segment
// from x1 to x2 with tangents m1, m2 (per frame).
type hermite struct{ h10, h01, h11, d10, d01, d11 float32 }

func hermiteAt(t float32) hermite {
	t2 := t * t
	t3 := t2 * t
	return hermite{
		h10: t3 - 2*t2 + t, h01: 3*t2 - 2*t3, h11: t3 - t2,
		d10: 3*t2 - 4*t + 1, d01: 6*t - 6*t2, d11: 3*t2 - 2*t,
	}
}

// offset returns the Hermite offset from x1 and its rate per frame for the
// segment delta d12 = x2 - x1 and tangents m1, m2.
func (h *hermite) offset(m1, d12, m2 mathx.V3) (o, do mathx.V3) {
	o = m1.Scale(h.h10).Add(d12.Scale(h.h01)).Add(m2.Scale(h.h11))
	do = m1.Scale(h.d10).Add(d12.Scale(h.d01)).Add(m2.Scale(h.d11))
	return o, do
}

// cubicPos is the Catmull-Rom position between p1 and p2 and its rate per
// frame, with tangents (p2 - p0)/2 and (p3 - p1)/2.
func (h *hermite) cubicPos(p0, p1, p2, p3 mathx.V3) (pos, vel mathx.V3) {
	// The small offset first, then one rounding at the position's magnitude.
	o, do := h.offset(posTangents(p0, p1, p2, p3))
	return p1.Add(o), do
}

// posTangents are the Catmull-Rom tangents (p2 - p0)/2 at p1 and (p3 -
// p1)/2 at p2, and the segment's delta p2 - p1.
func posTangents(p0, p1, p2, p3 mathx.V3) (m1, d12, m2 mathx.V3) {
	return p2.Sub(p0).Scale(.5), p2.Sub(p1), p3.Sub(p1).Scale(.5)
}

// cubicRot is the cubic rotation between r1 and r2 and its angular velocity
// per frame (world side): rot = exp(o) r1 with o the Hermite offset in
// scaled angle-axis built from the deltas d01, d12, d23 between consecutive
// frames (rotTangents).
func (h *hermite) cubicRot(r0, r1, r2, r3 mathx.Q4) (rot mathx.Q4, ang mathx.V3) {
	q12 := r2.MulInv(r1).Abs()
	d12 := q12.ToScaledAngleAxis()
	m1, m2 := rotTangents(q12, rotDelta(r0, r1), d12, rotDelta(r2, r3))
	return h.cubicRotT(r1, m1, d12, m2)
}

// rotTangents are the tangents of the cubic rotation curve o(t) (scaled
// angle-axis of rot r1^-1, per frame) over the segment from r1 to r2, q12
// = abs(r2 r1^-1) and d12 its scaled angle-axis, given the deltas d01 and d23 of
// the segments either side: m1 = (d01 + d12)/2 at r1; at r2 the mean
// (d12 + d23)/2 is an angular velocity there, while the curve's end
// tangent is the rate of o = log(rot r1^-1) at o = d12, so it is mapped by
// J(d12)^-1 (mathx.Q4ToScaledAngleAxisDx).
func rotTangents(q12 mathx.Q4, d01, d12, d23 mathx.V3) (m1, m2 mathx.V3) {
	return d01.Add(d12).Scale(.5), mathx.Q4ToScaledAngleAxisDx(q12, d12, d12.Add(d23).Scale(.5))
}

// cubicRotT is the rotation exp(o) r1 of the Hermite offset o with
// tangents m1, d12, m2 (rotTangents), and its angular velocity per frame,
// J(o) o' (mathx.Q4FromScaledAngleAxisDx).
func (h *hermite) cubicRotT(r1 mathx.Q4, m1, d12, m2 mathx.V3) (rot mathx.Q4, ang mathx.V3) {
	o, do := h.offset(m1, d12, m2)
	e, w := mathx.Q4FromScaledAngleAxisDx(o, do)
	return e.Mul(r1), w
}

// cubicScl is the cubic scale between s1 and s2 and its scalar velocity per
// frame: scl = s1 exp(o) with o the Hermite offset of the log-ratios. A
// joint whose four scales are equal (most joints) skips the logs: its
// offset is exactly zero.
func (h *hermite) cubicScl(s0, s1, s2, s3 mathx.V3) (scl, svl mathx.V3) {
	if s0 == s1 && s1 == s2 && s2 == s3 {
		return s1, mathx.V3{}
	}
	o, do := h.offset(sclTangents(sclDelta(s0, s1), sclDelta(s1, s2), sclDelta(s2, s3)))
	return s1.Mul(o.Exp()), do
}

// sclTangents are the tangents (d01 + d12)/2 and (d12 + d23)/2 of the
// log-scale curve from the log-ratios of consecutive frames, and d12.
func sclTangents(d01, d12, d23 mathx.V3) (m1, d, m2 mathx.V3) {
	return d01.Add(d12).Scale(.5), d12, d12.Add(d23).Scale(.5)
}

// MaxCacheBytes bounds the sampling cache Prepare makes for one clip
// (bytes): a longer clip (about 40 s of a 65-joint capture at 120 fps) is
// sampled without it, at the same values, rather than held at several
// times its size.
const MaxCacheBytes = 16 << 20

// Prepare drops the position and scale tracks whose every frame holds one
// value (the joint then holds it in every frame), and caches what sampling
// would otherwise recompute every call, as one record per interval (frame
// f to f+1) read in one run of memory:
//
//   - for every joint, the rotation at f and the tangents m1, d12, m2 of
//     its cubic curve (rotTangents: two logarithms and a Jacobian saved);
//   - for each joint whose position changes in the clip, the position at f
//     and the Catmull-Rom tangents (p(f+1) - p(f-1))/2, p(f+1) - p(f),
//     (p(f+2) - p(f))/2;
//   - for each joint whose scale changes, the scale at f and the tangents
//     of its log-ratios.
//
// Sampling gives the same values as without the cache (exact float32
// equality; tests check it) with less work and fewer bytes read. Call it
// once after the clip's frames are filled, and again after changing them;
// SampleLinear and SampleCubic use the cache when its size matches the
// clip. The cache takes (Frames-1) x (13 Joints + 12 animated channels) x
// 4 bytes, about four times the frames it caches; above MaxCacheBytes none
// is made.
func (c *Clip) Prepare() {
	c.seg, c.segLen = nil, 0
	c.pos.compact()
	c.scl.compact()
	if c.Frames < 2 || c.Joints < 1 {
		return
	}
	n, nf, m := c.Joints, c.Frames, (c.Frames-1)*c.Joints
	segLen := segRot*n + segChan*(len(c.pos.joints)+len(c.scl.joints))
	if 4*(nf-1)*segLen > MaxCacheBytes {
		return
	}
	rotD := make([]mathx.V3, m)
	for i := 0; i < m; i++ {
		rotD[i] = rotDelta(mathx.LoadQ4(&c.Rot[i]), mathx.LoadQ4(&c.Rot[i+n]))
	}
	// The scale tracks' log-ratios between frames, track k's at k*(nf-1).
	sclD := make([]mathx.V3, (nf-1)*len(c.scl.joints))
	for k := range c.scl.joints {
		tr := c.scl.data[k]
		for f := 0; f < nf-1; f++ {
			sclD[k*(nf-1)+f] = sclDelta(mathx.LoadV3(&tr[f]), mathx.LoadV3(&tr[f+1]))
		}
	}
	c.segLen = segLen
	c.seg = make([]float32, (nf-1)*segLen)
	for f := 0; f < nf-1; f++ {
		f0, f2, f3 := clampFrame(f-1, nf), f+1, clampFrame(f+2, nf)
		rec := c.record(f)
		for j := 0; j < n; j++ {
			i := f*n + j
			r1 := mathx.LoadQ4(&c.Rot[i])
			m1, m2 := rotTangents(mathx.LoadQ4(&c.Rot[i+n]).MulInv(r1).Abs(), deltaAt(rotD, f0, f, n, j), rotD[i], deltaAt(rotD, f2, f3, n, j))
			x := rec[segRot*j:]
			x[0], x[1], x[2], x[3] = r1.W, r1.X, r1.Y, r1.Z
			putV3(x[4:], m1)
			putV3(x[7:], rotD[i])
			putV3(x[10:], m2)
		}
		o := segRot * n
		for k := range c.pos.joints {
			tr := c.pos.data[k]
			m1, d12, m2 := posTangents(mathx.LoadV3(&tr[f0]), mathx.LoadV3(&tr[f]), mathx.LoadV3(&tr[f2]), mathx.LoadV3(&tr[f3]))
			putChan(rec[o:], mathx.LoadV3(&tr[f]), m1, d12, m2)
			o += segChan
		}
		for k := range c.scl.joints {
			d := sclD[k*(nf-1) : (k+1)*(nf-1)]
			d01, d12, d23 := deltaAt(d, f0, f, 1, 0), d[f], deltaAt(d, f2, f3, 1, 0)
			m1, dd, m2 := sclTangents(d01, d12, d23)
			putChan(rec[o:], mathx.LoadV3(&c.scl.data[k][f]), m1, dd, m2)
			o += segChan
		}
	}
}

// Record layout: segRot float32s per joint (rotation w, x, y, z, then
// tangents m1, d12, m2), then segChan per animated position or scale
// (value, m1, d12, m2).
const (
	segRot  = 13
	segChan = 12
)

// record is the cached record of interval f.
func (c *Clip) record(f int) []float32 { return c.seg[f*c.segLen : (f+1)*c.segLen] }

// sclAt is the offset in a record of animated scale k.
func (c *Clip) sclAt(k int) int { return segRot*c.Joints + segChan*(len(c.pos.joints)+k) }

func segV3(x []float32, i int) mathx.V3 { return mathx.V3{X: x[i], Y: x[i+1], Z: x[i+2]} }

// rotRec is a joint's part of an interval's record: its rotation at the
// interval's start and the tangents of its cubic curve (segRot float32s).
type rotRec struct {
	R           mathx.Q4
	M1, D12, M2 mathx.V3
}

// rotRecs views the start of rec as n rotRecs, in place (see chanRecs).
func rotRecs(rec []float32, n int) []rotRec {
	return unsafe.Slice((*rotRec)(unsafe.Pointer(unsafe.SliceData(rec[:segRot*n]))), n)
}

// chanRec is an animated position's or scale's part of an interval's
// record: its value at the interval's start and its tangents (segChan
// float32s).
type chanRec struct{ V, M1, D12, M2 mathx.V3 }

// chanRecs views the start of rec as n chanRecs, in place: the loops
// read fields instead of slicing the float32s (a bounds check each).
func chanRecs(rec []float32, n int) []chanRec {
	return unsafe.Slice((*chanRec)(unsafe.Pointer(unsafe.SliceData(rec[:segChan*n]))), n)
}

// The views' sizes are the record layout's: the build fails otherwise.
var (
	_ [unsafe.Sizeof(rotRec{}) - 4*segRot]struct{}
	_ [4*segRot - unsafe.Sizeof(rotRec{})]struct{}
	_ [unsafe.Sizeof(chanRec{}) - 4*segChan]struct{}
	_ [4*segChan - unsafe.Sizeof(chanRec{})]struct{}
)

// segQ is the rotation at the start of a joint's record x.
func segQ(x []float32) mathx.Q4 { return mathx.Q4{W: x[0], X: x[1], Y: x[2], Z: x[3]} }

func putV3(x []float32, v mathx.V3) { x[0], x[1], x[2] = v.X, v.Y, v.Z }

func putChan(x []float32, v, m1, d12, m2 mathx.V3) {
	putV3(x, v)
	putV3(x[3:], m1)
	putV3(x[6:], d12)
	putV3(x[9:], m2)
}

// prepared reports whether the Prepare cache matches the clip.
func (c *Clip) prepared() bool {
	return c.Joints > 0 && c.segLen > 0 && len(c.seg) == (c.Frames-1)*c.segLen &&
		c.segLen == segRot*c.Joints+segChan*(len(c.pos.joints)+len(c.scl.joints))
}

// prefetchAt prefetches what sampling c at time t (s) reads most of: the
// cached record of the interval t lies in, or without the cache the
// rotations of the four frames around t (see prefetch). Clips sampled from
// Curves are left alone.
func (c *Clip) prefetchAt(t float32) {
	if c.Curves != nil || c.Joints < 1 || c.Frames < 1 {
		return
	}
	st, _ := frameAt(t, c.FrameTime)
	if c.prepared() {
		if st >= 0 && st < c.Frames-1 {
			prefetchSlice(c.record(st))
		}
		return
	}
	n := c.Joints
	lo, hi := clampFrame(st-1, c.Frames)*n, min((clampFrame(st+2, c.Frames)+1)*n, len(c.Rot))
	if lo < hi {
		prefetchSlice(c.Rot[lo:hi])
	}
}

// deltaAt is the delta in d (one per interval and joint) from frame a to
// frame b (consecutive, or equal after clamping: then zero) for joint j.
func deltaAt(d []mathx.V3, a, b, n, j int) mathx.V3 {
	if a == b {
		return mathx.V3{}
	}
	return d[a*n+j]
}

// SampleCubic samples clip c at time (s) by cubic (Catmull-Rom) interpolation
// of the four frames around it, with velocities that change smoothly across
// frames (the article's "sample four poses instead of two"). Each channel is
// a Hermite curve for the offset from the frame before the time, built from
// the deltas between consecutive frames — positions (m), rotations (scaled
// angle-axis of quat_mul_inv, rad) and scales (log-ratios) — with tangents
// the mean of the deltas on either side. The velocities are the exact time
// derivatives of the sampled curves: m/s; rad/s (world side, through the
// exp-map derivative mathx.QuatFromScaledAngleAxisDx); natural-log scale per
// second. Frames are clamped at the ends; wrapping is the caller's job. A
// clip with Curves is sampled from them instead, exactly.
func SampleCubic(out *Pose, c *Clip, time float32) {
	st, alpha := frameAt(time, c.FrameTime)
	sampleCubicFrame("SampleCubic", out, c, st, alpha, float64(time))
}

// SampleCubicFrame is SampleCubic at fraction alpha (0 to 1) of the way
// from frame to frame+1 (see SampleLinearFrame): alpha = 1 on the last
// interval gives the last frame with the velocity the curve ends with,
// where SampleCubic at the clip's end holds the frame at rest.
func SampleCubicFrame(out *Pose, c *Clip, frame int, alpha float32) {
	if curvesFrame("SampleCubicFrame", out, c, frame, alpha) {
		return
	}
	sampleCubicFrame("SampleCubicFrame", out, c, frame, alpha, (float64(frame)+float64(alpha))*float64(c.FrameTime))
}

// sampleCubicFrame is SampleCubicFrame, its door check naming op, with the
// time t (s) the clip's Curves are sampled at when it has them.
func sampleCubicFrame(op string, out *Pose, c *Clip, frame int, alpha float32, t float64) {
	need(op, "out", out, wholePose, c.Joints, "the clip's Joints")
	if c.Curves != nil {
		c.Curves.SampleCurves(out, t)
		return
	}
	st, dt := frame, c.FrameTime
	h := hermiteAt(alpha)
	if st < 0 || st >= c.Frames-1 {
		h = hermite{} // outside the clip: hold the end frame, at rest
	}
	n, nf := c.Joints, c.Frames
	inv := 1 / dt
	pos, vel := out.Pos[:n], out.Vel[:n]
	rot, ang := out.Rot[:n], out.Ang[:n]
	scl, svl := out.Scl[:n], out.Svl[:n]
	// Joints whose position or scale never changes hold it, at rest.
	copy(pos, c.pos.value)
	clear(vel)
	copy(scl, c.scl.value)
	clear(svl)
	if c.prepared() && st >= 0 && st < nf-1 {
		// Inside the clip, from the interval's record: Hermite curves on
		// cached tangents.
		rec := c.record(st)
		// The weights as separate locals, not the struct: Go keeps a struct
		// of more than four fields in memory and does not inline h.offset,
		// whose call would spill the loop's values.
		h10, h01, h11, d10, d01, d11 := h.h10, h.h01, h.h11, h.d10, h.d01, h.d11
		var large bool
		if useSIMD {
			large = sampleRotSIMD(rot, ang, rec, h10, h01, h11, d10, d01, d11, inv)
		} else {
			w := [...]float32{h10, h01, h11, d10, d01, d11, inv}
			large = sampleRots(rot, ang, rec, &w)
		}
		for j := 0; large && j < n; j++ {
			// Offsets of 1 rad or more (rare) by cubicRotT, with mathx.ExpLarge.
			x := rec[segRot*j : segRot*j+segRot : segRot*j+segRot]
			m1, d12, m2 := segV3(x, 4), segV3(x, 7), segV3(x, 10)
			if o, _ := h.offset(m1, d12, m2); o.Dot(o) >= 1 {
				r, w := h.cubicRotT(segQ(x), m1, d12, m2)
				rot[j], ang[j] = r.Quat(), w.Scale(inv).Vec3()
			}
		}
		// The animated positions and scales: h.offset written out on
		// components (in its order of operations), read through views of the records
		// (chanRecs) and written to mgl32's arrays directly, with no
		// inlined helper and no mathx view (see sampleRots).
		hp := &h // read through a pointer: as the locals h10 ... 56 more instructions a tick
		chans := chanRecs(rec[segRot*n:], len(c.pos.joints)+len(c.scl.joints))
		for k, j := range c.pos.joints {
			x, p, v := &chans[k], &pos[j], &vel[j]
			p[0] = x.V.X + (x.M1.X*hp.h10 + x.D12.X*hp.h01 + x.M2.X*hp.h11)
			p[1] = x.V.Y + (x.M1.Y*hp.h10 + x.D12.Y*hp.h01 + x.M2.Y*hp.h11)
			p[2] = x.V.Z + (x.M1.Z*hp.h10 + x.D12.Z*hp.h01 + x.M2.Z*hp.h11)
			v[0] = (x.M1.X*hp.d10 + x.D12.X*hp.d01 + x.M2.X*hp.d11) * inv
			v[1] = (x.M1.Y*hp.d10 + x.D12.Y*hp.d01 + x.M2.Y*hp.d11) * inv
			v[2] = (x.M1.Z*hp.d10 + x.D12.Z*hp.d01 + x.M2.Z*hp.d11) * inv
		}
		chans = chans[len(c.pos.joints):]
		for k, j := range c.scl.joints {
			x, s, v := &chans[k], &scl[j], &svl[j]
			// scl = V exp(o) (mathx.V3.Exp: a uniform o in expPoly's
			// range, the usual log scale, by one ExpPoly; zero by 1).
			ox := x.M1.X*hp.h10 + x.D12.X*hp.h01 + x.M2.X*hp.h11
			oy := x.M1.Y*hp.h10 + x.D12.Y*hp.h01 + x.M2.Y*hp.h11
			oz := x.M1.Z*hp.h10 + x.D12.Z*hp.h01 + x.M2.Z*hp.h11
			ex, ey, ez := float32(1), float32(1), float32(1)
			if ox == oy && oy == oz && mathx.InExpPoly(ox) {
				e := mathx.ExpPoly(ox)
				ex, ey, ez = e, e, e
			} else if ox != 0 || oy != 0 || oz != 0 {
				e := mathx.V3{X: ox, Y: oy, Z: oz}.Exp()
				ex, ey, ez = e.X, e.Y, e.Z
			}
			s[0], s[1], s[2] = x.V.X*ex, x.V.Y*ey, x.V.Z*ez
			v[0] = (x.M1.X*hp.d10 + x.D12.X*hp.d01 + x.M2.X*hp.d11) * inv
			v[1] = (x.M1.Y*hp.d10 + x.D12.Y*hp.d01 + x.M2.Y*hp.d11) * inv
			v[2] = (x.M1.Z*hp.d10 + x.D12.Z*hp.d01 + x.M2.Z*hp.d11) * inv
		}
		return
	}
	// The four frames around the time, clamped, only now: computed above
	// they cost the cached path 37 instructions a call (measured).
	f0, f1 := clampFrame(st-1, nf), clampFrame(st, nf)
	f2, f3 := clampFrame(st+1, nf), clampFrame(st+2, nf)
	rot0, rot1, rot2, rot3 := c.Rot[f0*n:f0*n+n], c.Rot[f1*n:f1*n+n], c.Rot[f2*n:f2*n+n], c.Rot[f3*n:f3*n+n]
	for j := 0; j < n; j++ {
		r, w := h.cubicRot(mathx.LoadQ4(&rot0[j]), mathx.LoadQ4(&rot1[j]), mathx.LoadQ4(&rot2[j]), mathx.LoadQ4(&rot3[j]))
		rot[j], ang[j] = r.Quat(), w.Scale(inv).Vec3()
	}
	for k, j := range c.pos.joints {
		tr := c.pos.data[k]
		p, v := h.cubicPos(mathx.LoadV3(&tr[f0]), mathx.LoadV3(&tr[f1]), mathx.LoadV3(&tr[f2]), mathx.LoadV3(&tr[f3]))
		pos[j], vel[j] = p.Vec3(), v.Scale(inv).Vec3()
	}
	for k, j := range c.scl.joints {
		tr := c.scl.data[k]
		s, sv := h.cubicScl(mathx.LoadV3(&tr[f0]), mathx.LoadV3(&tr[f1]), mathx.LoadV3(&tr[f2]), mathx.LoadV3(&tr[f3]))
		scl[j], svl[j] = s.Vec3(), sv.Scale(inv).Vec3()
	}
}

// sampleRots is sampleCubicFrame's rotation loop on the scalar path: the
// rotations and angular velocities (rad/s) of len(rot) joints from their
// records rec with the Hermite weights w (h10, h01, h11, d10, d01, d11,
// then 1/FrameTime). It reports whether some offset reached 1 rad (or
// was NaN): those joints are left for cubicRotT, so that the loop makes no call. The
// weights come through memory: read where used, they leave the loop's
// values the registers (measured: 6% fewer instructions than as seven
// arguments kept in registers, which spilled the loop's values).
func sampleRots(rot []mgl32.Quat, ang []mgl32.Vec3, rec []float32, w *[7]float32) bool {
	n := len(rot)
	ang = ang[:n]
	recs := rotRecs(rec, n)
	var hi uint32
	for j := range recs {
		x := &recs[j]
		// cubicRotT written out on components, mathx's forms (named at
		// each step) in their order of operations, with no call to
		// inline: Go schedules a block's ready values in the order of
		// their source lines, inlined code after this file's own, and a
		// line of inlined calls only leaves an inlining mark's NOP (see
		// FK). Measured on the bench: 138 fewer instructions a tick for
		// the two clips. o, do: h.offset (rad, rad per frame).
		m1, d12, m2 := &x.M1, &x.D12, &x.M2
		ox, oy, oz := m1.X*w[0]+d12.X*w[1]+m2.X*w[2], m1.Y*w[0]+d12.Y*w[1]+m2.Y*w[2], m1.Z*w[0]+d12.Z*w[1]+m2.Z*w[2]
		dx, dy, dz := m1.X*w[3]+d12.X*w[4]+m2.X*w[5], m1.Y*w[3]+d12.Y*w[4]+m2.Y*w[5], m1.Z*w[3]+d12.Z*w[4]+m2.Z*w[5]
		o2 := ox*ox + oy*oy + oz*oz
		// o x do (RodriguesS's first cross product), here rather than
		// next to its use: one spill fewer (46 instructions a tick).
		cx, cy, cz := oy*dz-oz*dy, oz*dx-ox*dz, ox*dy-oy*dx
		// The largest o2's bits, kept as an integer: o2 is +0 or more,
		// or NaN (whose bits are above 1's; the caller then redoes no
		// joint), so bits order as values. A max in a general register,
		// rather than a float compare and a flag: 90 fewer instructions
		// a tick, measured.
		hi = max(hi, math.Float32bits(o2))
		// sinc(h), cos(h), C1 and C2 at h = |o|/2 (mathx.ExpSmall,
		// ExpCoeffs.C1: 0.5*sc*sc is (0.5*sc)*sc, so hs*sc is its bits).
		h2 := 0.25 * o2
		h4 := h2 * h2
		sc := (mathx.Sin0 - mathx.Sin1*h2) + h4*(mathx.Sin2-mathx.Sin3*h2)
		co := (mathx.Cos0 - mathx.Cos1*h2) + h4*((mathx.Cos2-mathx.Cos3*h2)+h4*mathx.Cos4)
		hs := 0.5 * sc
		c1, c2 := hs*sc, (1-sc*co)/(o2+mathx.Tiny)
		// ang = J(o) do / FrameTime (mathx.RodriguesS, rad/s).
		a := &ang[j]
		a[0] = (dx + c1*cx + c2*(oy*cz-oz*cy)) * w[6]
		a[1] = (dy + c1*cy + c2*(oz*cx-ox*cz)) * w[6]
		a[2] = (dz + c1*cz + c2*(ox*cy-oy*cx)) * w[6]
		// rot = exp(o) r1 (ExpCoeffs.Quat, QuatMulS), exp(o) last:
		// computed before the Jacobian term it was live through it.
		ew, ex, ey, ez := co, ox*hs, oy*hs, oz*hs
		r, r1 := &rot[j], &x.R
		r.W, r.V[0], r.V[1], r.V[2] = ew*r1.W-ex*r1.X-ey*r1.Y-ez*r1.Z, ew*r1.X+ex*r1.W+ey*r1.Z-ez*r1.Y, ew*r1.Y+ey*r1.W+ez*r1.X-ex*r1.Z, ew*r1.Z+ez*r1.W+ex*r1.Y-ey*r1.X
	}
	return hi >= math.Float32bits(1)
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
