// Package verify checks that the velocities animsys propagates are right.
//
// For every velocity-propagating operation it evaluates the operation as a
// function of time, with all its inputs moving consistently (clips sampled
// at the time, additive poses and targets moving along their own
// velocities), at t-h and t+h, and compares the central finite difference
//
//	vel ~ (pos(t+h) - pos(t-h)) / 2h
//	ang ~ quat_to_scaled_angle_axis(quat_abs(rot(t+h) rot(t-h)^-1)) / 2h
//	svl ~ log(scl(t+h) / scl(t-h)) / 2h
//
// with the velocities the operation propagated at t, once in every frame
// interval of every clip (evenly thinned beyond MaxIntervals). It reports,
// per operation and quantity, the max and mean error over joints, times
// and clips, in m/s, rad/s and natural-log scale per second, against a
// stated tolerance, and where the worst case is: clip, time, frame and
// joint.
//
// The article assumes clean animation data. Where a clip's own data jumps
// inside one frame interval (a joint flipping near 180 degrees, a
// zero-pose frame, a teleport), the jump is found by a spike test on the
// data (DetectEvents), reported, and the intervals whose samples read it
// are left out of the checks of that joint (and, for operations that go
// through the hierarchy, of its descendants). No tolerance changes.
// `kinelab verify` prints the report; the animsys tests assert it.
package verify

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// H is the half step (s) of the central difference: 1/16 of a 60 fps
// frame, small enough that the O(h^2) truncation error of the reference is
// ~1e-5 of the velocities here, large enough that float32 rounding of the
// poses (~6e-8 of a value) divided by 2h stays near 1e-4 per unit of value.
// Clips above 125 fps use an eighth of their frame time instead, so that
// the stencil t-2h .. t+2h fits in half a frame interval.
const H = 1e-3

// MaxIntervals is the most frame intervals checked per clip: longer clips
// are checked on MaxIntervals intervals spread evenly over them.
const MaxIntervals = 2000

// Quantity is a velocity kind of a pose.
type Quantity int

// The three velocities of a pose.
const (
	Linear  Quantity = iota // m/s
	Angular                 // rad/s
	Scalar                  // natural-log scale per second
)

var quantityNames = [3]string{"linear", "angular", "scalar"}
var quantityUnits = [3]string{"m/s", "rad/s", "1/s"}

func (q Quantity) String() string { return quantityNames[q] }

// Unit is the unit of the velocity.
func (q Quantity) Unit() string { return quantityUnits[q] }

// Tolerance is the largest error accepted for a velocity v of each
// quantity: Abs[q] + Rel |v|, in the quantity's unit. A negative Abs means
// the quantity is not checked (reported only).
type Tolerance struct {
	Abs [3]float64
	Rel float64
	// FirstOrder marks operations whose velocities are themselves a
	// first-order finite difference over a step delta (TwoBoneIK): their
	// error is ~delta/2 times the acceleration, amplified by the
	// operation's own nonlinearity, so no fixed tolerance bounds it.
	// What they promise is convergence: at every sample, with a step ten
	// times finer (Case.Refine), the error must shrink at least five times
	// (first order gives ten), give or take the tolerance: fine error <=
	// coarse error / 5 + Abs + Rel |v| (+ the reference's truncation). The
	// tolerance covers the float32 noise of the finer step itself: the
	// IK works on world positions, resolved to ~1e-6 m at 12 m from the
	// origin, ~2.5e-6 rad on a 0.4 m bone, 2.5e-3 rad/s over 1 ms.
	FirstOrder bool
}

// Read is a clip a case samples as a live function of its time t: at
// Time (s), by cubic sampling (frames k-1 .. k+2 of interval k) or, if
// Linear, by linear sampling (frames k, k+1). A sampled clip is smooth
// only within a frame interval, so the harness keeps each sample's
// stencil inside one interval of every clip read, and a data jump in the
// frames read leaves the sample out.
type Read struct {
	Clip   *animsys.Clip
	Time   float32
	Linear bool
}

// Case is one operation under test: Eval writes the operation's output pose
// at time t (s) for the given clips. Eval must give every input its own
// consistent motion in t.
type Case struct {
	Name    string // Go name, e.g. "SampleCubic"
	Article string // the article's function, e.g. "op_sample_cubic"
	Space   string // "local" or "world": which pose Eval outputs
	Tol     Tolerance
	Why     string // why the tolerance is what it is
	// Hierarchy marks cases whose output at a joint depends on the
	// joint's ancestors (world poses, look-at, IK): a data jump at a joint
	// also leaves its descendants out.
	Hierarchy bool
	// Times returns the times (s) to check with clip a, in at most n of
	// its frame intervals; nil means IntervalTimes(a, n). The harness
	// moves a time by up to 3/8 of a frame where its stencil would
	// straddle a frame boundary of a clip read or a Restart.
	Times func(a *animsys.Clip, n int) []float32
	// Reads lists the clips sampled live at t; nil means clip a at t,
	// cubic. Cases that read no clip (the kineform algebra) return none.
	Reads func(a, b *animsys.Clip, t float32) []Read
	// Restart (s), when > 0: the case's output restarts (jumps) at every
	// multiple of Restart, e.g. the chain's inertialization, so no stencil
	// may contain one.
	Restart float32
	// Seams, for cases that blend two rotations along the shortest arc
	// (quat_slerp_shortest in op_blend), returns an evaluator writing, per
	// joint, the w of rhs.rot lhs.rot^-1 for the two rotations blended at
	// time t. Where it changes sign inside a stencil the two rotations
	// pass 180 degrees apart and the shortest arc switches sides: the
	// blend's output jumps there, as the article's blend does. That is the
	// operation's own discontinuity, reported as a Seam and left out for
	// the joint (and, with Hierarchy, its descendants), not an error.
	Seams func(a, b *animsys.Clip) func(w []float32, t float32)
	// New prepares the case for a clip pair and returns its evaluator.
	New func(a, b *animsys.Clip) func(out *animsys.Pose, t float32)
	// Refine, for FirstOrder cases, is New with a ten times finer step.
	Refine func(a, b *animsys.Clip) func(out *animsys.Pose, t float32)
}

// Where names one checked sample.
type Where struct {
	Clip  string  `json:"clip"`
	Time  float64 `json:"time"`  // s, the operation's time
	Frame int     `json:"frame"` // the clip frame starting the interval sampled
	Joint string  `json:"joint"`
}

func (w Where) String() string {
	return fmt.Sprintf("%s t=%.4fs frame %d %s", w.Clip, w.Time, w.Frame, w.Joint)
}

// Stat is the error of one operation and quantity.
type Stat struct {
	Op       string  `json:"op"`
	Article  string  `json:"article"`
	Space    string  `json:"space"`
	Quantity string  `json:"quantity"`
	Unit     string  `json:"unit"`
	Max      float64 `json:"max"`
	Mean     float64 `json:"mean"`
	Scale    float64 `json:"scale"`     // max |velocity| seen, for context
	Tol      float64 `json:"tolerance"` // absolute part of the tolerance
	TolRel   float64 `json:"tolerance_rel"`
	Worst    float64 `json:"worst"` // max error / tolerance; pass when <= 1
	// At is the worst sample: of Worst when checked, else of Max.
	At      Where `json:"at"`
	Checked bool  `json:"checked"`
	Pass    bool  `json:"pass"`
	Samples int   `json:"samples"`
	// Excluded counts the samples (time x joint) left out because the
	// frames they read hold a data jump (Report.Excluded).
	Excluded int `json:"excluded"`
	// AtSeam counts the samples left out because the operation's blend
	// switches sides inside the stencil (Report.Seams).
	AtSeam int `json:"at_seam"`
	// FineMax, for first-order operations, is Max with a ten times finer
	// step; they pass when at every sample the fine error is within a
	// fifth of the coarse error plus the tolerance.
	FineMax float64 `json:"fine_max,omitempty"`
	Why     string  `json:"why"` // the tolerance's reason
}

// Report is the result of a verification run.
type Report struct {
	Clips []string `json:"clips"`
	H     float64  `json:"h"`
	Stats []Stat   `json:"stats"`
	// Excluded are the data jumps found in the clips; samples that read
	// them are left out (Stat.Excluded).
	Excluded []DataEvent `json:"excluded"`
	// Seams are the samples where an operation's shortest-arc blend
	// switches sides (Case.Seams), left out (Stat.AtSeam).
	Seams []Seam `json:"seams"`
	Pass  bool   `json:"pass"`
}

// Seam is a sample at which an operation's shortest-arc blend switches
// sides for a joint: its output jumps there by design.
type Seam struct {
	Op string `json:"op"`
	Where
	Reason string `json:"reason"`
}

func (s Seam) String() string { return fmt.Sprintf("%s at %s: %s", s.Op, s.Where, s.Reason) }

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
	rep := Report{H: H, Pass: true, Excluded: []DataEvent{}, Seams: []Seam{}}
	taints := map[*animsys.Clip]*taint{}
	for _, c := range clips {
		rep.Clips = append(rep.Clips, c.Name)
		ev := DetectEvents(skel, c)
		rep.Excluded = append(rep.Excluded, ev...)
		taints[c] = newTaint(skel.Parents, c, ev)
	}
	for _, cs := range cases {
		var acc [3]accum
		for i, a := range clips {
			b := clips[(i+1)%len(clips)]
			rep.Seams = append(rep.Seams, checkCase(&acc, cs, skel, a, b, taints, n)...)
		}
		for q := Quantity(0); q < 3; q++ {
			st := acc[q].stat(cs, q)
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

func (a *accum) stat(cs Case, q Quantity) Stat {
	st := Stat{Op: cs.Name, Article: cs.Article, Space: cs.Space, Quantity: q.String(),
		Unit: q.Unit(), Max: a.max, Scale: a.scale, Tol: cs.Tol.Abs[q], TolRel: cs.Tol.Rel,
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
// interval of every clip the case reads and contains no restart.
func (cs *Case) fits(a, b *animsys.Clip, t, h float32) bool {
	lo, hi := cs.reads(a, b, t-2*h), cs.reads(a, b, t+2*h)
	for i := range lo {
		if interval(lo[i].Clip, lo[i].Time) != interval(hi[i].Clip, hi[i].Time) {
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
// The central difference errs by about h^2/6 times the third derivative,
// which fast motion (a running foot, a snapping wrist in mocap) makes
// larger than the tolerance. That error is estimated from a second
// difference over 2h (four times the error, so the two differ by three
// times it) and added to the allowance: the check then measures the
// operation, not the reference. So is the reference's error from the
// float32 resolution of the times the operation samples (timeRes).
func checkCase(acc *[3]accum, cs Case, skel *animsys.Skeleton, a, b *animsys.Clip, taints map[*animsys.Clip]*taint, intervals int) []Seam {
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
		h := coarse.eval(t, h1, cs.Tol)
		if fine != nil {
			fine.eval1(&fine.p, t)
			fine.around(t, h)
		}
		rel := max(cs.Tol.Rel, cs.timeRes(a, b, t, h))
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
				ef, noise := -1.0, 0.0
				if fine != nil {
					f := fine.errs[3*j+int(q)]
					ef, trunc, noise = f.e, f.trunc, f.noise
				}
				allow := -1.0
				if cs.Tol.Abs[q] >= 0 {
					allow = cs.Tol.Abs[q] + trunc + rel*s + noise
				}
				acc[q].add(e, ef, allow, s, w)
			}
		}
	}
	return found
}

// timeRes is the relative error of the central difference at t with step
// h from the float32 resolution of the times the operation samples: each
// clip read at time s rounds s (when it is not t itself) and s /
// frameTime, at both ends of the stencil, by up to half a float32 ulp.
// Over the sampled step 2h' (h' = h times the playback rate) that is (ulp(s)
// + ulp(s/frameTime) frameTime) / 2h' of the velocity: 1e-3 at 10 s of a
// 60 fps clip (Tolerance.Rel), 2.5e-3 at 23 s of a 30 fps one.
func (cs *Case) timeRes(a, b *animsys.Clip, t, h float32) float64 {
	lo, hi := cs.reads(a, b, t-h), cs.reads(a, b, t+h)
	var res float64
	for i, r := range lo {
		hs := math.Abs(float64(hi[i].Time-r.Time)) / 2
		if hs == 0 {
			continue
		}
		ft := r.Clip.FrameTime
		u := ulp32(r.Time/ft) * float64(ft)
		if r.Time != t-h {
			u += ulp32(r.Time)
		}
		res = max(res, u/(2*hs))
	}
	return res
}

// ulp32 is the spacing of float32 values at |x|.
func ulp32(x float32) float64 {
	x = float32(math.Abs(float64(x)))
	return float64(math.Nextafter32(x, float32(math.Inf(1))) - x)
}

// stencil evaluates a case at t-2h, t-h, t, t+h, t+2h.
type stencil struct {
	eval1 func(*animsys.Pose, float32)
	p     animsys.Pose    // at t
	q     [4]animsys.Pose // at t-2h, t-h, t+h, t+2h
	inv   [2]float32      // 1 / (ts[2] - ts[1]), 1 / (ts[3] - ts[0])
	errs  []sampleErr     // per joint and quantity, j*3 + q
}

// sampleErr is the error of a propagated velocity against the central
// difference, the estimated truncation error of that difference, the
// difference's magnitude, and the rounding noise of the propagated
// velocity itself; the error is NaN if either is not finite.
type sampleErr struct{ e, trunc, scale, noise float64 }

func newStencil(n int, eval func(*animsys.Pose, float32)) *stencil {
	s := &stencil{eval1: eval, errs: make([]sampleErr, 3*n)}
	animsys.NewPoses(n, &s.p, &s.q[0], &s.q[1], &s.q[2], &s.q[3])
	return s
}

// eval evaluates the stencil at t with step h, and returns the step
// used: halved, down to h/4, while the estimated truncation error of the
// central difference exceeds half the tolerance at any joint. Where the
// motion is violent (a flailing thumb at 400 rad/s, a knee landing a hop)
// the difference at h = 1 ms is past its O(h^2) regime and its estimate
// of its own error falls short; each halving divides that error by four.
// Below h/4, float32 rounding of world positions (1e-6 m at 12 m) over 2h
// would approach the tolerance itself.
func (s *stencil) eval(t, h float32, tol Tolerance) float32 {
	s.eval1(&s.p, t)
	s.around(t, h)
	for lo := h / 2; h > lo && s.coarse(tol); {
		h /= 2
		s.around(t, h)
	}
	return h
}

// coarse reports whether the estimated truncation error at some joint
// exceeds its tolerance.
func (s *stencil) coarse(tol Tolerance) bool {
	for i, e := range s.errs {
		if q := i % 3; tol.Abs[q] >= 0 && e.trunc > tol.Abs[q]+tol.Rel*e.scale {
			return true
		}
	}
	return false
}

// around evaluates t-2h, t-h, t+h, t+2h and the errors of the velocities
// at t.
func (s *stencil) around(t, h float32) {
	ts := [4]float32{t - 2*h, t - h, t + h, t + 2*h}
	for i := range s.q {
		s.eval1(&s.q[i], ts[i])
	}
	s.inv = [2]float32{1 / (ts[2] - ts[1]), 1 / (ts[3] - ts[0])}
	for j := range s.p.Pos {
		for q := Quantity(0); q < 3; q++ {
			s.errs[3*j+int(q)] = s.err(j, q)
		}
	}
}

// diff is the finite-difference velocity of quantity q of joint j from
// pose a to pose b, times inv.
func diff(a, b *animsys.Pose, j int, q Quantity, inv float32) mgl32.Vec3 {
	switch q {
	case Linear:
		return b.Pos[j].Sub(a.Pos[j]).Mul(inv)
	case Angular:
		return mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(b.Rot[j], a.Rot[j]))).Mul(inv)
	}
	if b.Scl[j] == a.Scl[j] {
		return mgl32.Vec3{} // most joints: no logs
	}
	return mathx.Vec3Log(mathx.Vec3Div(b.Scl[j], a.Scl[j])).Mul(inv)
}

// err is the sampleErr of the propagated velocity q of joint j.
func (s *stencil) err(j int, q Quantity) sampleErr {
	ref := diff(&s.q[1], &s.q[2], j, q, s.inv[0])
	ref2 := diff(&s.q[0], &s.q[3], j, q, s.inv[1])
	prop := [3]mgl32.Vec3{s.p.Vel[j], s.p.Ang[j], s.p.Svl[j]}[q]
	if !mathx.Vec3Finite(prop) || !mathx.Vec3Finite(ref) || !mathx.Vec3Finite(ref2) {
		return sampleErr{e: math.NaN()}
	}
	return sampleErr{vecDist(prop, ref), vecDist(ref2, ref) / 3, vecDist(ref, mgl32.Vec3{}), s.noise(j, q, prop)}
}

// noise estimates the float32 rounding noise of the propagated velocity v
// of joint j (quantity q) from the velocities the stencil's five poses
// propagated: their fourth difference v(-2) - 4v(-1) + 6v(0) - 4v(1) +
// v(2) is h^4 times the fourth derivative (nothing, at h = 1 ms) plus
// sqrt(70) times the noise of one sample. It returns three times that
// noise. It matters for an operation whose velocity is itself a finite
// difference over a short step (TwoBoneIK at 1 ms: ~20 float32 roundings
// of rotations over 1 ms, ~2e-3 rad/s); for exact operations it is ~0.
func (s *stencil) noise(j int, q Quantity, v mgl32.Vec3) float64 {
	at := func(p *animsys.Pose) mgl32.Vec3 { return [3]mgl32.Vec3{p.Vel[j], p.Ang[j], p.Svl[j]}[q] }
	var d4 float64
	for k := 0; k < 3; k++ {
		x := float64(at(&s.q[0])[k]) - 4*float64(at(&s.q[1])[k]) + 6*float64(v[k]) - 4*float64(at(&s.q[2])[k]) + float64(at(&s.q[3])[k])
		d4 += x * x
	}
	return 3 * math.Sqrt(d4/70)
}

// vecDist is |a - b| in float64.
func vecDist(a, b mgl32.Vec3) float64 {
	var e float64
	for k := 0; k < 3; k++ {
		d := float64(a[k]) - float64(b[k])
		e += d * d
	}
	return math.Sqrt(e)
}

// String formats a stat as one line of the text report, ending with its
// worst sample.
func (s Stat) String() string {
	verdict := "ok"
	switch {
	case !s.Checked:
		verdict = "info"
	case !s.Pass:
		verdict = "FAIL"
	}
	tol := "-"
	if s.Checked {
		tol = fmt.Sprintf("%.0e+%.0e|v|", s.Tol, s.TolRel)
	}
	if s.FineMax > 0 {
		tol = fmt.Sprintf("1st order: %.2e at step/10", s.FineMax)
	}
	worst := ""
	if s.Checked {
		worst = fmt.Sprintf(" %.2fx", s.Worst)
	}
	return fmt.Sprintf("%-20s %-6s %-8s %-6s max %.2e mean %.2e  tol %-14s %-5s%s |v|<=%.2f  worst: %s",
		s.Op, s.Space, s.Quantity, s.Unit, s.Max, s.Mean, tol, verdict, worst, s.Scale, s.At)
}

// IntervalTimes returns one time in every frame interval of clip c, 0.37
// of the way through it (so that t-2h and t+2h fall in the same interval:
// sampling has a velocity or acceleration kink at every frame), for at
// most n intervals spread evenly over the clip.
func IntervalTimes(c *animsys.Clip, n int) []float32 {
	return FractionTimes(c, 0.37, 1, n)
}

// FractionTimes returns the times t at which clip c is sampled at rate x t
// a fraction frac of the way through each of its frame intervals (at most
// n, spread evenly): t = (k + frac) frameTime / rate.
func FractionTimes(c *animsys.Clip, frac, rate float32, n int) []float32 {
	k := c.Frames - 1
	m := max(1, min(k, n))
	times := make([]float32, m)
	for i := range times {
		f := i * k / m
		times[i] = (float32(f) + frac) * c.FrameTime / rate
	}
	return times
}
