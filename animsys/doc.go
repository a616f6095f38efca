// Package animsys is kinelab's animation core: poses, kineforms and every
// pose operation of "Propagating Velocities through Animation Systems"
// (Daniel Holden, 2023; docs/articles.md), each propagating its velocities,
// so a character's velocities are known on any frame — the frame it
// teleports or resets included — without keeping the previous pose.
//
// It is plain Go on mathgl's float32 types: no raylib, no globals, and no
// allocation in any per-tick operation (allocate poses once with NewPose).
// Operations write their output into their first argument, like the
// article's op_ functions. Each is written once, beside the article's
// listing (the table below), on mathx's lane types: a loop over blocks of
// mathx.Lanes joints (eight in one AVX2 register with GOEXPERIMENT=simd,
// one otherwise), or, for FK, over the joints one at a time, as a joint
// needs its parent's result. A Skeleton lists parents before children.
// Each operation checks once, at its door, that its poses hold the joints
// it needs (len(parents), its first pose's, the clip's), in the memory
// NewPose gives them (room for whole blocks), and panics naming itself
// when one does not ("animsys.FK: local pose has 3 joints, want 23
// (len(parents))"); inside, it trusts them.
//
// # Units and conventions
//
//   - Positions in metres, linear velocities in m/s.
//   - Rotations are unit quaternions; angular velocities in rad/s, on the
//     world side (in the parent's frame for a local pose): over dt a
//     rotation q becomes from_scaled_angle_axis(ang dt) q.
//   - Scales are per axis; scalar velocities are natural-log scale per
//     second (log(scl1/scl0)/dt), so a scale grows as scl exp(svl t).
//   - Times and durations in seconds; weight rates (alphaVel) in 1/s. The
//     article passes weight changes per tick with a dt and divides by it
//     again; animsys passes rates per second.
//
// # Where animsys goes beyond the article's listings
//
// Every velocity here is the exact time derivative of what the operation
// outputs, which `kinelab verify` and the tests check against a fine
// central difference. Five places needed more than the listings:
//
//   - BK and KformDiv divide by the parent scale and keep the expansion term
//     in the local frame: the exact inverse of op_fk. The article's op_bk
//     listing agrees only for unit, constant parent scales.
//   - Where a rotation is built as from_scaled_angle_axis(v) of a moving v
//     (blend, additive, inertialization, cubic sampling), its angular
//     velocity is J(v) dv/dt, J the derivative of the exponential map
//     (mathx.QuatFromScaledAngleAxisDx), and the rate of a logged rotation
//     is J^-1 applied to its angular velocity. The article uses dv/dt
//     itself, exact only when v and its rate are parallel; on the bench
//     clips that leaves errors up to ~0.25 rad/s in a two-way blend and
//     ~0.65 rad/s at the start of an inertialization.
//   - Accordingly InertializeOffset stores in Offset.Ang the rate of the
//     offset's scaled angle-axis, so the inertialized pose starts with the
//     source's angular velocity exactly.
//   - Cubic sampling takes each tangent from the deltas between the frames
//     either side of an interval. Past a clip's first and last frames the
//     article clamps: the ghost frame repeats the end frame, and the
//     velocity at a clip's first and last frame comes out half the
//     motion's. Here the ghost frame carries the motion on (the
//     interval's own delta: one-sided), or, for a clip that loops as a
//     whole (Clip.Wraps), is the frame across the wrap; sampling at the
//     clip's end time gives the last frame with the velocity the motion
//     ends with, and only past it holds the frame at rest.
//   - ExtrapolateDecayed turns a joint by at most half a turn in total
//     (MaxExtrapolatedTurn), scaling down angular velocities faster than
//     that allows: the listing spins a very fast joint (50 rad/s in a real
//     capture's first frame) round several times, and DeadBlend's
//     shortest-arc blend then reverses each time it passes the far side.
//
// # Article function -> Go name (units of the velocities)
//
//	struct pose                        Pose (m, rad, -, m/s, rad/s, 1/s)
//	struct kform                       Kform (same units)
//	kform_mul                          KformMul
//	kform_div                          KformDiv
//	kform_inv                          KformInv
//	kform_inv_mul                      KformInvMul
//	kform_mul_inv                      KformMulInv
//	kform_mul_dir                      KformMulDir (direction)
//	kform_mul_pos                      KformMulPos (m)
//	kform_mul_vel                      KformMulVel (m/s)
//	kform_from_pos_vel                 KformFromPosVel (m, m/s)
//	(rotation kineform)                KformFromRotAng (rad/s)
//	kform_pos_vel_normalize            KformPosVelNormalize (1/s)
//	kform_rot_ang_between              KformRotAngBetween (rad/s)
//	(projections)                      KformPosOnly, KformRotOnly, KformSclOnly
//	op_sample_linear                   SampleLinear (m/s, rad/s, 1/s)  sample.go: sampleFrame, linearAt
//	(cubic sampling, described)        SampleCubic (m/s, rad/s, 1/s)   sample.go: sampleFrame, hermiteAt
//	(sampling by frame and fraction)   SampleLinearFrame, SampleCubicFrame
//	(a clip's exact curves: glTF)      Clip.Curves, CurvesClip, CurvePieces
//	(playback rate)                    TimeScale
//	(in-place root)                    RemoveGlobalRoot
//	op_fk                              FK (world m/s, rad/s, 1/s)      fk.go
//	op_fk_static                       FKStatic
//	op_bk                              BK (local m/s, rad/s, 1/s)      fk.go
//	op_finite_diff                     FiniteDiff (m/s, rad/s, 1/s)    finitediff.go
//	op_finite_diff_inplace             FiniteDiffInPlace
//	op_extrapolate_prev                ExtrapolatePrev
//	smoothstep_blend_alpha             SmoothstepBlendAlpha
//	smoothstep_blend_alpha_dx          SmoothstepBlendAlphaVel (1/s, not per tick)
//	op_blend_static                    BlendStatic
//	op_blend                           Blend (alphaVel in 1/s)         blend.go
//	op_additive_inplace_static         AdditiveStatic (world side)
//	op_additive_inplace                Additive (world side, alphaVel 1/s)  additive.go
//	op_additive_local_inplace_static   AdditiveLocalStatic (local side)
//	(local side with weight rate)      AdditiveLocal
//	(offset at a transition)           InertializeOffset
//	op_inertialize                     Inertialize (cubic, duration s) inertialize.go: inertialize
//	(cubic decay coefficients)         CubicDecayWeights (-, s, 1/s, -)
//	(critical spring inertializer)     InertializeCritical (half-life s)
//	(any decay weights)                InertializeWeights
//	op_extrapolate_decayed             ExtrapolateDecayed (half-life s)
//	op_dead_blending                   DeadBlend
//	(a transition between clips)       Transition: cut, two-way blend, cubic and spring
//	                                   inertialization, dead blending (TransitionKind)
//	op_lookat_static                   LookAtStatic
//	op_lookat                          LookAt (rad/s)
//	op_two_bone_ik_static              TwoBoneIKStatic
//	op_two_bone_ik                     TwoBoneIK (finite difference over delta s)
//	quat_mul, quat_mul_vec3, ...       mathx.SoaQuat (Mul, MulInv, InvMul, MulVec3, InvMulVec3, Abs),
//	                                   mathx.QuatMul4, Rotor4 (one joint, FK)
//	quat_from_scaled_angle_axis(_dx)   mathx.ExpAt, SoaExp.Quat, SoaExp.Jacobian
//	quat_to_scaled_angle_axis(_dx)     mathx.SoaQuat.ToScaledAngleAxis, mathx.ToScaledAngleAxisDx
//	sqrtf_dx, cross_dx, dot_dx         mathx.SqrtDx, mathx.CrossDx, mathx.DotDx
//	normalize_dx                       mathx.NormalizeDx
//	quat_normalize_dx                  mathx.QuatNormalizeDx
//	quat_between_dx                    mathx.QuatBetweenDx
//	quat_delta_to_angular_velocity     mathx.QuatDeltaToAngularVelocity (rad/s)
//
// The article's per-joint forms of the pose operations, on mathx's plain
// functions, are the tests' oracles (reference_test.go): plain_test.go
// holds every operation to its own within a stated tolerance.
//
// # The benchmark chain
//
// BenchSkeleton, GenerateBenchClip, RandomAdditive, BenchChain and
// BenchCharacter implement docs/bench-spec.md: one tick samples two clips
// (cubic), blends them and adds an additive pose with moving weights,
// inertializes, runs FK, then a finite difference against the previous
// tick and BK of it. A BenchCharacter is the benchmark's; the characters
// the labs animate are package character's. Package crowd ticks many
// BenchCharacters; package verify checks every velocity.
//
// # Data jumps
//
// The article assumes clean data. DetectEvents finds the frame intervals
// where a clip's own data jumps (a joint flipping near 180 degrees, a
// zero-pose frame, a teleport), so that a lab can mark them and verify can
// leave the samples that read them out of its checks.
//
// # Speed
//
// Nothing allocates per tick. Speed comes from the types the operations
// are written on, as ozz-animation's comes from its SoaFloat3 and
// SoaQuaternion: with GOEXPERIMENT=simd on amd64 a mathx.SoaFloat is
// eight float32s in an AVX2 register and each operation runs eight joints
// at a time, a block's AoS channels transposed in and out as it loads and
// stores them; FK runs a joint at a time on one SSE register across its
// components (mathx.JVec, JQuat). That build needs a CPU with AVX2 and
// says so at start otherwise. Built without the experiment, or for
// another architecture, the same code runs one joint a block on float32s.
// Both builds compute the same float32 operations in the same order, so
// the same bits (internal/lanebits). Beyond a polynomial's range (a
// rotation of more than 45 degrees to log, an exp-map argument of 1 rad or
// more) a block takes the general form, so no scalar path remains.
//
// A Clip stores every joint's rotation but a position or scale track only
// for the joints whose position or scale changes; Clip.Prepare caches the
// tangents sampling would recompute, blocks of Lanes joints by component,
// up to MaxCacheBytes a clip. A BenchCharacter keeps only the four poses
// that outlive a tick, in one block (BenchCharacterBytes); the rest live
// in a BenchScratch that the characters one goroutine ticks share
// (BenchCharacter.TickWith), so a crowd's working set stays small.
package animsys
