// Package spring holds springs, dampers and the signal tools built on them:
// tracking springs, scalar-velocity integration and the inertialization
// transition cost.
//
// Everything is float32 (mgl32 for vectors and quaternions), pure and
// allocation-free, so it can run every tick. Time is in seconds, velocities
// in units per second, angular velocities in radians per second and scalar
// (scale) velocities in doublings per second (base 2). Each function names the
// article function it implements (damper_exact, spring_damper_exact_stiffness_damping,
// tracking_spring_update_exact, ...) so the code can be read beside the
// articles in kinelab's shared/seeds.
//
// Half-life convention: a half-life h maps to damping 4 ln2 / h, and the
// critical spring decays with y = damping/2 = 2 ln2 / h. A half-life of zero
// (or below [mathx.Eps]) always means "snap to the goal"; it never divides by
// zero.
package spring
