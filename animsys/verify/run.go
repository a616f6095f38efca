package verify

import (
	"math"

	"kinelab/animsys"
)

// Run checks every case over the clips of skeleton skel (each clip paired
// with the next one for two-input operations), in every frame interval of
// each clip up to MaxIntervals, and returns the report. clips must match
// skel and have at least 5 frames.
func Run(skel *animsys.Skeleton, cases []Case, clips []*animsys.Clip) Report {
	return RunIntervals(skel, cases, clips, MaxIntervals)
}

// RunIntervals is Run checking at most n frame intervals per clip, spread
// evenly (a quicker, coarser run).
func RunIntervals(skel *animsys.Skeleton, cases []Case, clips []*animsys.Clip, n int) Report {
	rep := Report{H: H, Intervals: n, Pass: true, Excluded: []animsys.DataEvent{}, Seams: []Seam{}}
	size := LengthScale(skel)
	if size != 1 {
		rep.LengthScale = size
	}
	taints := map[*animsys.Clip]*taint{}
	for _, c := range clips {
		rep.Clips = append(rep.Clips, c.Name)
		ev := animsys.DetectEvents(skel, c)
		rep.Excluded = append(rep.Excluded, ev...)
		taints[c] = newTaint(skel.Parents, c, ev)
	}
	for _, cs := range cases {
		var acc [3]accum
		for i, a := range clips {
			b := clips[(i+1)%len(clips)]
			rep.Seams = append(rep.Seams, checkCase(&acc, cs, skel, a, b, taints, n, size)...)
		}
		for q := Quantity(0); q < 3; q++ {
			st := acc[q].stat(cs, q, size)
			if st.Checked && !st.Pass {
				rep.Pass = false
			}
			rep.Stats = append(rep.Stats, st)
		}
	}
	return rep
}

// accum gathers the errors of one case and quantity.
type accum struct {
	max, fineMax, sum, scale, worst float64
	at                              Where
	n, excluded, seams              int
	nan                             bool
}

// add records one sample: its error e, allowance allow (< 0: unchecked)
// and reference velocity magnitude s. For first-order cases fine >= 0 is
// the error with the finer step, which must be within a fifth of e plus
// allow (the float32 noise of the finer step and the reference's own
// error).
func (a *accum) add(e, fine, allow, s float64, w Where) {
	if math.IsNaN(e) || math.IsNaN(fine) {
		if !a.nan {
			a.at = w
		}
		a.nan = true
		return
	}
	a.scale = math.Max(a.scale, s)
	a.sum += e
	a.n++
	r := -1.0
	switch {
	case allow < 0:
	case fine >= 0:
		r = fine / (allow + e/5)
	default:
		r = e / allow
	}
	if (allow < 0 && e > a.max) || (allow >= 0 && r > a.worst) || a.n == 1 {
		a.at = w
	}
	a.max = math.Max(a.max, e)
	a.fineMax = math.Max(a.fineMax, fine)
	a.worst = math.Max(a.worst, r)
}

func (a *accum) stat(cs Case, q Quantity, size float64) Stat {
	st := Stat{Op: cs.Name, Article: cs.Article, Space: cs.Space, Quantity: q.String(),
		Unit: q.Unit(), Max: a.max, Scale: a.scale, Tol: cs.Tol.abs(q, size), TolRel: cs.Tol.Rel,
		Worst: math.Max(a.worst, 0), At: a.at, Samples: a.n, Excluded: a.excluded, AtSeam: a.seams, Why: cs.Why}
	if cs.Tol.FirstOrder {
		st.FineMax = a.fineMax
	}
	if a.n > 0 {
		st.Mean = a.sum / float64(a.n)
	}
	if a.nan {
		st.Max, st.Mean, st.Worst = math.Inf(1), math.Inf(1), math.Inf(1)
	}
	st.Checked = cs.Tol.Abs[q] >= 0
	st.Pass = !st.Checked || (!a.nan && st.Worst <= 1)
	return st
}

// step is the half step h (s) for a clip pair: H, or an eighth of the
// shorter frame time above 125 fps.
func step(a, b *animsys.Clip) float32 {
	return min(float32(H), a.FrameTime/8, b.FrameTime/8)
}

// reads is cs.Reads with its default.
func (cs *Case) reads(a, b *animsys.Clip, t float32) []Read {
	if cs.Reads == nil {
		return []Read{{Clip: a, Time: t}}
	}
	return cs.Reads(a, b, t)
}

// interval is the frame interval of clip c at time s (s).
func interval(c *animsys.Clip, s float32) int {
	return int(math.Floor(float64(s / c.FrameTime)))
}

// fits reports whether the stencil t-2h .. t+2h stays inside one frame
// interval, and one piece of curves (animsys.CurvePieces), of every clip
// the case reads and contains no restart.
func (cs *Case) fits(a, b *animsys.Clip, t, h float32) bool {
	lo, hi := cs.reads(a, b, t-2*h), cs.reads(a, b, t+2*h)
	for i := range lo {
		if interval(lo[i].Clip, lo[i].Time) != interval(hi[i].Clip, hi[i].Time) {
			return false
		}
		// A clip sampled from keyframed curves is smooth only between
		// its keys, which need not fall on its frames.
		if p, ok := lo[i].Clip.Curves.(animsys.CurvePieces); ok && p.Piece(float64(lo[i].Time)) != p.Piece(float64(hi[i].Time)) {
			return false
		}
	}
	if cs.Restart > 0 {
		r := float64(cs.Restart)
		if math.Floor(float64(t-2*h)/r) != math.Floor(float64(t+2*h)/r) {
			return false
		}
	}
	return true
}

// place moves t, if needed, by a multiple of an eighth of clip a's frame
// (at most three) to where its stencil fits, halving h if none does (a
// restart in mid-interval leaves half an interval each side); ok is false
// if none fits then.
func (cs *Case) place(a, b *animsys.Clip, t, h float32) (float32, float32, bool) {
	for _, hh := range [...]float32{h, h / 2} {
		for _, m := range [...]float32{0, 1, -1, 2, -2, 3, -3} {
			if u := t + m*a.FrameTime/8; u-2*hh >= 0 && cs.fits(a, b, u, hh) {
				return u, hh, true
			}
		}
	}
	return t, h, false
}

// checkCase compares propagated velocities with the central difference at
// each time of clip a (paired with b) and returns the seams it left out.
// The difference divides by the float32 times actually used: (t+h) -
// (t-h) is exact in float32, 2h after rounding is not.
//
// A central difference errs by about h^2/6 times the third derivative,
// which fast motion (a running foot, a snapping wrist in mocap) makes
// larger than the tolerance, so the reference is the Richardson
// extrapolation of the differences over h/2 and h (stencil.err), O(h^4).
// Its own error, bounded by its distance to the extrapolation over h and
// 2h, is added to the allowance, and so is its error from the float32
// resolution of the times the operation samples (timeRes): the check
// measures the operation, not the reference.
//
// The absolute tolerances cover the float32 rounding of the poses the
// reference differences: Tolerance.abs scales the linear one with the
// character (size, LengthScale), and where a sample's own rounding,
// measured on its stencil (stencil.round), is larger (world positions
// hundreds of metres from the origin late in a long capture, the step of
// a 10,000 fps clip), that replaces it.
func checkCase(acc *[3]accum, cs Case, skel *animsys.Skeleton, a, b *animsys.Clip, taints map[*animsys.Clip]*taint, intervals int, size float64) []Seam {
	n := skel.Len()
	h0 := step(a, b)
	times := IntervalTimes(a, intervals)
	if cs.Times != nil {
		times = cs.Times(a, intervals)
	}
	coarse := newStencil(n, cs.New(a, b))
	var fine *stencil
	if cs.Tol.FirstOrder {
		fine = newStencil(n, cs.Refine(a, b))
	}
	var seams func([]float32, float32)
	var w0, w1 []float32
	if cs.Seams != nil {
		seams = cs.Seams(a, b)
		w0, w1 = make([]float32, n), make([]float32, n)
	}
	var found []Seam
	skip, seam := make([]bool, n), make([]bool, n)
	depth, mags, world := make([]int, n), make([]float32, n), animsys.NewPose(n)
	for j, p := range skel.Parents {
		depth[j] = 1
		if p >= 0 {
			depth[j] = depth[p] + 1
		}
	}
	for _, t := range times {
		t, h1, ok := cs.place(a, b, t, h0)
		if !ok {
			continue
		}
		reads := cs.reads(a, b, t)
		frame := interval(a, t)
		if len(reads) > 0 {
			frame = interval(reads[0].Clip, reads[0].Time)
		}
		clear(skip)
		for _, r := range reads {
			taints[r.Clip].mark(skip, r, cs.Hierarchy)
		}
		h := coarse.eval(t, h1)
		// Abs is a few times the rounding of poses differenced over 2H:
		// over a shorter step (a clip above 125 fps, a restart in
		// mid-interval) the same rounding weighs H/h times as much.
		stepScale := max(1, H/float64(h))
		if fine != nil {
			fine.eval1(&fine.p, t)
			fine.around(t, h)
		}
		rel := max(cs.Tol.Rel, 3*cs.timeRes(a, b, t, h)) // the Richardson reference's share, see timeRes
		clear(seam)
		if seams != nil {
			// A sign change between any two of the stencil's times (the
			// rotations can pass 180 degrees apart and back within it).
			seams(w0, t-2*h)
			for _, u := range [...]float32{t - h, t, t + h, t + 2*h} {
				seams(w1, u)
				for j := range seam {
					seam[j] = seam[j] || (w0[j] < 0) != (w1[j] < 0)
				}
			}
			for j := range seam {
				if p := skel.Parents[j]; cs.Hierarchy && p >= 0 {
					seam[j] = seam[j] || seam[p]
				}
			}
		}
		worldMags(mags, &coarse.p, cs.Space, skel.Parents, &world)
		for j := 0; j < n; j++ {
			w := Where{Clip: a.Name, Time: float64(t), Frame: frame, Joint: skel.Names[j]}
			switch {
			case skip[j]:
				for q := range acc {
					acc[q].excluded++
				}
				continue
			case seam[j]:
				for q := range acc {
					acc[q].seams++
				}
				if p := skel.Parents[j]; !cs.Hierarchy || p < 0 || !seam[p] {
					found = append(found, Seam{Op: cs.Name, Where: w,
						Reason: "the two rotations blended pass 180 degrees apart: the shortest arc switches sides"})
				}
				continue
			}
			for q := Quantity(0); q < 3; q++ {
				c := coarse.errs[3*j+int(q)]
				e, trunc, s := c.e, c.trunc, c.scale
				ef, noise, st := -1.0, 0.0, coarse
				if fine != nil {
					f := fine.errs[3*j+int(q)]
					ef, trunc, noise, st = f.e, f.trunc, f.noise, fine
				}
				mag := float32(1) // rotations, log scales: units
				if q == Linear {
					mag = mags[j]
				}
				round := st.round(j, q, mag, depth[j])
				allow := -1.0
				if abs := cs.Tol.abs(q, size); abs >= 0 {
					allow = max(abs*stepScale, round) + trunc + rel*s + noise
				}
				acc[q].add(e, ef, allow, s, w)
			}
		}
	}
	return found
}

// worldMags writes, per joint, the largest magnitude of a coordinate of
// the world positions down its chain in pose p (the case's output at t, in
// space): the floats its position was computed through, whose rounding
// the reference differences (stencil.round). A local pose is taken
// through FK (into world) for them; a world pose, or kineforms, are their
// own.
func worldMags(mags []float32, p *animsys.Pose, space string, parents []int, world *animsys.Pose) {
	w := p
	if space == "local" {
		animsys.FKStatic(world, p, parents)
		w = world
	}
	for j := range mags {
		m := float32(0)
		for k := 0; k < 3; k++ {
			m = max(m, float32(math.Abs(float64(w.Pos[j][k]))), float32(math.Abs(float64(p.Pos[j][k]))))
		}
		if pj := parents[j]; pj >= 0 && space != "kform" {
			m = max(m, mags[pj])
		}
		mags[j] = m
	}
}

// timeRes is the relative error of the central difference at t with step
// h from the float32 resolution of the times the operation samples: a clip
// read at a time s other than t itself (t + an offset, a scaled time) has
// s rounded by up to half a float32 ulp at both ends of the stencil, over
// the sampled step 2h' (h' = h times the playback rate): ulp(s) / 2h' of
// the velocity, 1e-3 at 30 s and 1 ms. (s / frameTime is taken in float64,
// frameAt, and adds nothing.) The reference is the Richardson
// extrapolation (4 D(h/2) - D(h)) / 3 of the differences over h/2 and h,
// whose time errors weigh in as (4 * 2 + 1) / 3: 3 times this. A case
// with a Restart adds its own phase's rounding.
func (cs *Case) timeRes(a, b *animsys.Clip, t, h float32) float64 {
	lo, hi := cs.reads(a, b, t-h), cs.reads(a, b, t+h)
	var res float64
	for i, r := range lo {
		hs := math.Abs(float64(hi[i].Time-r.Time)) / 2
		if hs == 0 || r.Time == t-h {
			continue
		}
		res = max(res, ulp32(r.Time)/(2*hs))
	}
	if cs.Restart > 0 {
		// The case's own phase, fmod(t, Restart) in float32 (the chain's
		// inertialization), is off by up to half an ulp of t: as a clip
		// read at a time of its own.
		res = max(res, ulp32(t)/(2*float64(h)))
	}
	return res
}

// ulp32 is the spacing of float32 values at |x|.
func ulp32(x float32) float64 {
	x = float32(math.Abs(float64(x)))
	return float64(math.Nextafter32(x, float32(math.Inf(1))) - x)
}
