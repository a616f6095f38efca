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
// with the velocities the operation propagated at t. It reports, per
// operation and quantity, the max and mean error over joints, times and
// clips, in m/s, rad/s and natural-log scale per second, against a stated
// tolerance. `kinelab verify` prints the report; the animsys tests assert it.
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
const H = 1e-3

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
	// What they promise is convergence: with a step ten times finer
	// (Case.Refine) the error must shrink at least five times (first
	// order gives ten), or already be within Abs.
	FirstOrder bool
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
	// Times returns the times (s) to check on clip a; nil means
	// MidFrameTimes(a, 24).
	Times func(a *animsys.Clip) []float32
	// New prepares the case for a clip pair and returns its evaluator.
	New func(a, b *animsys.Clip) func(out *animsys.Pose, t float32)
	// Refine, for FirstOrder cases, is New with a ten times finer step.
	Refine func(a, b *animsys.Clip) func(out *animsys.Pose, t float32)
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
	Checked  bool    `json:"checked"`
	Pass     bool    `json:"pass"`
	Samples  int     `json:"samples"`
	// FineMax, for first-order operations, is Max with a ten times finer
	// step; they pass when FineMax <= Max / 5 or FineMax <= Tol.
	FineMax float64 `json:"fine_max,omitempty"`
	Why     string  `json:"why"` // the tolerance's reason
}

// Report is the result of a verification run.
type Report struct {
	Clips []string `json:"clips"`
	H     float64  `json:"h"`
	Stats []Stat   `json:"stats"`
	Pass  bool     `json:"pass"`
}

// Run checks every case over the clips (each clip paired with the next one
// for two-input operations) and returns the report. clips must share one
// skeleton and have at least 5 frames.
func Run(cases []Case, clips []*animsys.Clip) Report {
	rep := Report{H: H, Pass: true}
	for _, c := range clips {
		rep.Clips = append(rep.Clips, c.Name)
	}
	for _, cs := range cases {
		var acc, fine [3]accum
		for i, a := range clips {
			b := clips[(i+1)%len(clips)]
			times := MidFrameTimes(a, 24)
			if cs.Times != nil {
				times = cs.Times(a)
			}
			checkCase(&acc, cs.New(a, b), a.Joints, times, cs.Tol)
			if cs.Tol.FirstOrder {
				checkCase(&fine, cs.Refine(a, b), a.Joints, times, cs.Tol)
			}
		}
		for q := Quantity(0); q < 3; q++ {
			st := acc[q].stat(cs, q)
			if cs.Tol.FirstOrder && st.Checked {
				f := fine[q].stat(cs, q)
				st.FineMax = f.Max
				st.Worst = math.Min(f.Worst, f.Max/math.Max(st.Max/5, 1e-12))
				st.Pass = !acc[q].nan && !fine[q].nan && st.Worst <= 1
			}
			if st.Checked && !st.Pass {
				rep.Pass = false
			}
			rep.Stats = append(rep.Stats, st)
		}
	}
	return rep
}

type accum struct {
	max, sum, scale, worst float64
	n                      int
	nan                    bool
}

func (a *accum) add(prop, ref mgl32.Vec3, abs, rel float64) {
	if !mathx.Vec3Finite(prop) || !mathx.Vec3Finite(ref) {
		a.nan = true
		return
	}
	var e, s float64
	for k := 0; k < 3; k++ {
		d := float64(prop[k]) - float64(ref[k])
		e += d * d
		s += float64(ref[k]) * float64(ref[k])
	}
	e, s = math.Sqrt(e), math.Sqrt(s)
	a.max = math.Max(a.max, e)
	a.scale = math.Max(a.scale, s)
	a.sum += e
	a.n++
	if abs >= 0 {
		a.worst = math.Max(a.worst, e/(abs+rel*s))
	}
}

func (a *accum) stat(cs Case, q Quantity) Stat {
	st := Stat{Op: cs.Name, Article: cs.Article, Space: cs.Space, Quantity: q.String(),
		Unit: q.Unit(), Max: a.max, Scale: a.scale, Tol: cs.Tol.Abs[q], TolRel: cs.Tol.Rel,
		Worst: a.worst, Samples: a.n, Why: cs.Why}
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

// checkCase compares propagated velocities with the central difference at
// each time. The difference divides by the float32 times actually used:
// (t+h) - (t-h) is exact in float32, 2h after rounding is not.
//
// The central difference errs by about h^2/6 times the third derivative,
// which fast motion (a running foot, a snapping wrist in mocap) makes
// larger than the tolerance. That error is estimated from a second
// difference over 2h (four times the error, so the two differ by three
// times it) and added to the allowance: the check then measures the
// operation, not the reference.
func checkCase(acc *[3]accum, eval func(*animsys.Pose, float32), joints int, times []float32, tol Tolerance) {
	p := animsys.NewPose(joints)
	var q [4]animsys.Pose // at t-2h, t-h, t+h, t+2h
	for i := range q {
		q[i] = animsys.NewPose(joints)
	}
	for _, t := range times {
		ts := [4]float32{t - 2*H, t - H, t + H, t + 2*H}
		for i := range q {
			eval(&q[i], ts[i])
		}
		eval(&p, t)
		inv1, inv2 := 1/(ts[2]-ts[1]), 1/(ts[3]-ts[0])
		for j := 0; j < joints; j++ {
			lin := func(a, b *animsys.Pose, inv float32) mgl32.Vec3 { return b.Pos[j].Sub(a.Pos[j]).Mul(inv) }
			ang := func(a, b *animsys.Pose, inv float32) mgl32.Vec3 {
				return mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(b.Rot[j], a.Rot[j]))).Mul(inv)
			}
			scl := func(a, b *animsys.Pose, inv float32) mgl32.Vec3 {
				return mathx.Vec3Log(mathx.Vec3Div(b.Scl[j], a.Scl[j])).Mul(inv)
			}
			for k, d := range [3]func(a, b *animsys.Pose, inv float32) mgl32.Vec3{lin, ang, scl} {
				ref, ref2 := d(&q[1], &q[2], inv1), d(&q[0], &q[3], inv2)
				prop := [3]mgl32.Vec3{p.Vel[j], p.Ang[j], p.Svl[j]}[k]
				allow := tol.Abs[k] + float64(ref2.Sub(ref).Len())/3
				acc[k].add(prop, ref, allow, tol.Rel)
			}
		}
	}
}

// String formats a stat as one line of the text report.
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
	return fmt.Sprintf("%-20s %-6s %-8s %-6s max %.2e mean %.2e  tol %-14s %-5s |v|<=%.2f",
		s.Op, s.Space, s.Quantity, s.Unit, s.Max, s.Mean, tol, verdict, s.Scale)
}

// MidFrameTimes returns n times spread over the clip, half a second in from
// each end, each 0.37 of the way between two frames so that t-h and t+h
// fall in the same frame interval (linear sampling has a velocity kink at
// every frame).
func MidFrameTimes(c *animsys.Clip, n int) []float32 {
	first, last := int(0.5/c.FrameTime), c.Frames-1-int(0.5/c.FrameTime)
	if last <= first {
		first, last = 0, c.Frames-2
	}
	times := make([]float32, n)
	for i := range times {
		f := first + (last-first)*i/max(n-1, 1)
		times[i] = (float32(f) + 0.37) * c.FrameTime
	}
	return times
}
