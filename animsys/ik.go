package animsys

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Two-bone IK (propagating-velocities, "Finite Difference").

// TwoBoneJoints names the three joints of a two-bone chain, e.g. hip, knee
// and heel: Mid's parent must be Root and End's parent Mid. Hinge, when not
// zero, is the axis the chain bends about in Mid's own frame (a knee's or
// elbow's hinge): the IK bends a straight or nearly straight chain about
// it, always to its side, where the chain's own bend plane is undefined
// or dominated by noise (see TwoBoneIKStatic).
type TwoBoneJoints struct {
	Root, Mid, End int
	Hinge          mgl32.Vec3
}

// TwoBoneIKStatic bends and turns the chain j of the local pose so that its
// end joint reaches target (world, m), given the global pose from FK of
// local (op_two_bone_ik_static). Only the local rotations of j.Root and
// j.Mid change; velocities are untouched (see TwoBoneIK). Targets out of
// reach are clamped to the reachable distance.
//
// The mid joint turns about the chain's bend axis until the law of cosines
// gives the root-to-target distance, then the root turns the end onto the
// target along the shortest arc.
func TwoBoneIKStatic(local, global *Pose, parents []int, j TwoBoneJoints, target mgl32.Vec3) {
	j.need("TwoBoneIKStatic", parents)
	need("TwoBoneIKStatic", "local", local, transforms, len(parents), "len(parents)")
	need("TwoBoneIKStatic", "global", global, transforms, len(parents), "len(parents)")
	a, b, c := global.Pos[j.Root], global.Pos[j.Mid], global.Pos[j.End]
	ab, cb := a.Sub(b), c.Sub(b)
	lab, lcb := ab.Len(), cb.Len()
	lat := mathx.Clamp(target.Sub(a).Len(), abs32(lab-lcb)*1.0001+1e-6, (lab+lcb)*0.9999)

	// Bend: the interior angle at the mid joint, now and wanted.
	axis := cb.Cross(ab)
	want := lawOfCosines(lab, lcb, lat)
	var bend mgl32.Quat
	if j.Hinge != (mgl32.Vec3{}) {
		bend = hingeBend(global.Rot[j.Mid], j.Hinge, ab, cb, axis, lab, lcb, want)
	} else {
		now := atan2f(axis.Len(), ab.Dot(cb))
		if axis.Len() < 1e-6*lab*lcb {
			// Straight chain: bend about the mid joint's own x axis.
			axis = mathx.QuatMulVec3(global.Rot[j.Mid], mgl32.Vec3{1, 0, 0})
		}
		bend = mathx.QuatFromScaledAngleAxis(mathx.Vec3Normalize(axis).Mul(now - want))
	}
	cNew := b.Add(mathx.QuatMulVec3(bend, cb))

	// Swing: the root turns the bent chain's end onto the target.
	swing := mathx.QuatBetween(cNew.Sub(a), target.Sub(a))

	rootRot := mathx.QuatMul(swing, global.Rot[j.Root])
	if p := parents[j.Root]; p >= 0 {
		local.Rot[j.Root] = mathx.QuatInvMul(global.Rot[p], rootRot)
	} else {
		local.Rot[j.Root] = rootRot
	}
	local.Rot[j.Mid] = mathx.QuatInvMul(global.Rot[j.Root], mathx.QuatMul(bend, global.Rot[j.Mid]))
}

// TwoBoneIK is TwoBoneIKStatic with velocities by a single-frame finite
// difference (op_two_bone_ik): the local pose is extrapolated delta seconds
// back along its velocities (ExtrapolatePrev into localTemp), both poses go
// through FKStatic and the IK — the earlier one towards the target moved
// back by delta heelVel — and the angular velocities of the two joints the
// IK turns (j.Root, j.Mid) become the finite difference of the two over
// delta (s; the article uses 0.01). No pose from the previous frame is
// needed. localTemp, globalCurr and globalTemp are scratch poses of the
// same size; globalCurr is left holding FK of the pose before the IK.
//
// Every other velocity is kept as it was. The article finite-differences
// the whole pose, which gives them back (up to float32 noise) only while
// a joint turns less than pi in delta: a joint faster than pi/delta (314
// rad/s at 0.01 s, as a flailing thumb in a real capture) came back
// aliased, off by hundreds of rad/s.
func TwoBoneIK(localCurr, localTemp, globalCurr, globalTemp *Pose, parents []int,
	j TwoBoneJoints, heelPos, heelVel mgl32.Vec3, delta float32) {
	n := len(parents)
	j.need("TwoBoneIK", parents)
	need("TwoBoneIK", "localCurr", localCurr, wholePose, n, "len(parents)")
	need("TwoBoneIK", "localTemp", localTemp, wholePose, n, "len(parents)")
	need("TwoBoneIK", "globalCurr", globalCurr, transforms, n, "len(parents)")
	need("TwoBoneIK", "globalTemp", globalTemp, transforms, n, "len(parents)")
	ExtrapolatePrev(localTemp, localCurr, delta)
	FKStatic(globalCurr, localCurr, parents)
	FKStatic(globalTemp, localTemp, parents)
	TwoBoneIKStatic(localCurr, globalCurr, parents, j, heelPos)
	TwoBoneIKStatic(localTemp, globalTemp, parents, j, heelPos.Sub(heelVel.Mul(delta)))
	inv := 1 / delta
	for _, i := range [2]int{j.Root, j.Mid} {
		localCurr.Ang[i] = mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(localCurr.Rot[i], localTemp.Rot[i]))).Mul(inv)
	}
}

// need panics, naming op, unless j's joints are joints of parents, each
// the parent of the next.
func (j TwoBoneJoints) need(op string, parents []int) {
	n := len(parents)
	if j.Root < 0 || j.Mid < 0 || j.End < 0 || j.Root >= n || j.Mid >= n || j.End >= n ||
		parents[j.Mid] != j.Root || parents[j.End] != j.Mid {
		panic(fmt.Sprintf("animsys.%s: chain %d, %d, %d is no root, mid and end joint of the %d joints of parents",
			op, j.Root, j.Mid, j.End, n))
	}
}

// hingeBlend is the sine of the bend (about 3 degrees) beyond which a
// chain's own bend plane decides its bend axis; straighter, the hinge does,
// blended smoothly in between so the axis never jumps.
const hingeBlend = 0.05

// hingeBend is the rotation of the lower bone cb about the mid joint that
// makes the interior angle between ab and cb want, for a chain with a
// hinge (TwoBoneJoints.Hinge, in the mid joint's frame whose rotation is
// midRot); cross is cb x ab. The axis is perpendicular to cb: the chain's
// bend plane normal turned to the hinge's side when the chain is clearly
// bent, the hinge (made perpendicular to cb) when it is straight. For any
// axis n perpendicular to cb the angle is exact: rotating cb by d about n
// gives ab.cb' = A cos d + B sin d with A = ab.cb, B = ab.(n x cb), which
// is lab lcb cos(want) at d = atan2(B, A) - atan2(sqrt((lab sin want)^2 -
// (ab.n)^2), lab cos want) — the root that ends on the hinge's side. With
// n the bend plane's normal this is the plain law of cosines' now - want.
func hingeBend(midRot mgl32.Quat, hinge, ab, cb, cross mgl32.Vec3, lab, lcb, want float32) mgl32.Quat {
	u := cb.Mul(1 / lcb)
	perp := func(v mgl32.Vec3) mgl32.Vec3 { return v.Sub(u.Mul(v.Dot(u))) }
	n := perp(mathx.QuatMulVec3(midRot, hinge))
	for _, alt := range []mgl32.Vec3{{1, 0, 0}, {0, 0, 1}, {0, 1, 0}} {
		if n.Len() > 0.1*hinge.Len() {
			break
		}
		n = perp(mathx.QuatMulVec3(midRot, alt)) // a hinge along the bone: any axis across it
	}
	n = mathx.Vec3Normalize(n)
	if l := cross.Len(); l > 0 {
		np := cross.Mul(1 / l)
		if np.Dot(n) < 0 {
			np = np.Mul(-1)
		}
		w := mathx.Smoothstep(mathx.Clamp(l/(lab*lcb)/hingeBlend, 0, 1))
		n = mathx.Vec3Normalize(n.Mul(1 - w).Add(np.Mul(w)))
	}
	phi := atan2f(ab.Dot(n.Cross(cb)), ab.Dot(cb))
	sw, cw := mathx.Sincos(want)
	an := ab.Dot(n)
	alpha := atan2f(mathx.Sqrt(max(0, lab*sw*lab*sw-an*an)), lab*cw)
	return mathx.QuatFromScaledAngleAxis(n.Mul(phi - alpha))
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// atan2f is float32 atan2(y, x).
func atan2f(y, x float32) float32 { return float32(math.Atan2(float64(y), float64(x))) }

// lawOfCosines is the angle (rad) between sides a and b of a triangle
// whose third side is c, in its half-angle form 2 atan2(sqrt((c - a + b)
// (c + a - b)), sqrt((a + b - c) (a + b + c))): unlike acos((a^2 + b^2 -
// c^2) / 2ab), which near a straight (pi) or folded (0) chain resolves the
// angle only to sqrt(float32 epsilon) ~ 3e-4 rad, it keeps the angle's
// float32 precision there. a, b > 0 and |a - b| < c < a + b.
func lawOfCosines(a, b, c float32) float32 {
	return 2 * atan2f(mathx.Sqrt((c-a+b)*(c+a-b)), mathx.Sqrt((a+b-c)*(a+b+c)))
}
