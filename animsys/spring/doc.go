// Package spring holds springs, dampers and the signal tools built on them:
// tracking springs, scalar-velocity integration and the inertialization
// transition cost.
//
// The pieces, each named after the article function it implements so the
// code can be read beside the articles (docs/articles.md):
//
//   - Dampers and springs: [DamperExact], [SpringDamperExact] (any stiffness
//     and damping, with goal velocity), [CriticalSpringDamperExact],
//     [SimpleSpringDamperExact], the inertializer's decay spring
//     [DecaySpringDamperExact] and its [CriticalDecayWeights], and the
//     rotation and scale versions [QuatSpringDamperExact] and
//     [ScaleSpringDamperExact]; conversions [HalflifeToDamping],
//     [FrequencyToStiffness] and their inverses.
//   - Tracking springs ("Perfect Tracking with Springs"): the lerp-gain,
//     half-life and exact dt-invariant updates with their no-acceleration
//     and position-only variants, as plain functions and as the [Tracker],
//     [HalflifeTracker] and [ExactTracker] structs; finite-difference and
//     clipped targets; and [CutTracker], which follows a sampled stream
//     across known cuts.
//   - Scalar velocity ("Scalar Velocity"): naive, natural and base-2
//     integration and differentiation of scales, the three eerp forms, and
//     half-life / doublelife conversions.
//   - Transition cost ("Inertialization Transition Cost"): [TransitionCost]
//     (the exact displacement), [TransitionCostApprox] and its
//     motion-matching [TransitionCostFeature], [DecayZeroCrossing] and the
//     [TransitionCostBaseline] it is compared with.
//
// Units: time in seconds, velocities in units per second, angular velocities
// in radians per second (in the frame the rotations are expressed in) and
// scalar (scale) velocities in doublings per second (base 2).
//
// Conventions: a half-life h maps to damping 4 ln2 / h, and the critical
// spring decays with y = damping/2 = 2 ln2 / h (the distance of a spring
// released at rest halves after about 1.2 h; the damper's halves after
// exactly h). A half-life below [mathx.Eps] means "snap to the goal" and is
// checked first, so it snaps even when dt is zero. Otherwise dt <= 0 leaves
// the state unchanged.
//
// Everything is float32 at the boundary, pure and allocation-free, so it can
// run every tick. The closed forms are evaluated in float64 and saturate at
// ±math.MaxFloat32 on the way out: finite inputs never give NaN or Inf.
package spring
