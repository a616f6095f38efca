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
// data (animsys.DetectEvents), reported, and the intervals whose samples
// read it are left out of the checks of that joint (and, for operations
// that go through the hierarchy, of its descendants). No tolerance changes.
// `kinelab verify` prints the report; the animsys tests assert it.
package verify

import (
	"math"
	"sync"

	"kinelab/animsys"
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

// MaxJointIntervals bounds the joints times the intervals checked per
// clip by default (Intervals): the work of MaxIntervals intervals of a
// 32-joint skeleton, about 4 s here. A check costs about 70 us a joint
// and interval, all cases together, so a 10,000-joint hierarchy checked
// on every interval of a 100-frame clip took 60 s, and longer clips more.
const MaxJointIntervals = 64_000

// Intervals is the most frame intervals to check per clip for a skeleton
// of joints joints: MaxIntervals, fewer where the joints would take more
// than MaxJointIntervals of work, never fewer than 4.
func Intervals(joints int) int {
	return max(4, min(MaxIntervals, MaxJointIntervals/max(joints, 1)))
}

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

// abs is the absolute tolerance of quantity q for a character size times
// the bench skeleton's (LengthScale): linear velocities, and the rounding
// of the positions they are differenced from, scale with the character;
// rotations and log scales do not.
func (t Tolerance) abs(q Quantity, size float64) float64 {
	if q == Linear && t.Abs[q] >= 0 {
		return t.Abs[q] * size
	}
	return t.Abs[q]
}

// LengthScale is the size of skel's character over the bench skeleton's
// (animsys.BenchSkeleton, whose clips the tolerances were derived on): the
// largest extent, along x, y or z, of its joints in its rest pose (the
// Bind pose, else its offsets unrotated). It scales exactly with the
// character, whatever its rig: 0.01 for a bench figure in metres read as
// centimetres, 100 the other way. 1 for a skeleton of no extent.
func LengthScale(skel *animsys.Skeleton) float64 {
	e := restExtent(skel)
	if e == 0 {
		return 1
	}
	return e / benchExtent()
}

// benchExtent is restExtent of the bench skeleton, measured once.
var benchExtent = sync.OnceValue(func() float64 {
	sk := animsys.BenchSkeleton()
	return restExtent(&sk)
})

// restExtent is the largest extent along an axis of skel's joints in its
// rest pose (m).
func restExtent(skel *animsys.Skeleton) float64 {
	n := skel.Len()
	if n == 0 {
		return 0
	}
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	if skel.Bind != nil && skel.Bind.Len() >= n {
		local.CopyFrom(skel.Bind)
	} else {
		copy(local.Pos, skel.Offsets)
	}
	animsys.FKStatic(&global, &local, skel.Parents)
	lo, hi := global.Pos[0], global.Pos[0]
	for _, p := range global.Pos {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	e := 0.0
	for k := 0; k < 3; k++ {
		e = max(e, float64(hi[k])-float64(lo[k]))
	}
	if math.IsNaN(e) || math.IsInf(e, 0) {
		return 0
	}
	return e
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
