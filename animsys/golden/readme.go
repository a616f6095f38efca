package golden

import (
	"fmt"
	"strings"
)

// Readme is the README.md written beside the golden files: what each file
// holds and the conventions and tolerance to test a port against.
func Readme() string {
	var b strings.Builder
	b.WriteString(`# kinelab golden reference data

Inputs and expected outputs of every velocity-propagating operation of
"Propagating Velocities through Animation Systems" and every spring of
"Perfect Tracking with Springs", "Scalar Velocity" and "Inertialization
Transition Cost" (Daniel Holden), as computed by kinelab's animsys, for
anyone porting the articles to test their port against. Written by
` + "`kinelab golden DIR`" + ` (package kinelab/animsys/golden);
` + "`kinelab golden --check DIR`" + ` reproduces every file with animsys.

Each ` + "`OP.json`" + ` holds one operation: ` + "`article`, `section`, `function`" + ` (the
article's name for it), ` + "`animsys`" + ` (the Go function that produced it),
` + "`notes`" + ` (its units and formula, and where animsys differs from the
article's listing), ` + "`tolerance`" + `, and ` + "`cases`" + `, each with a ` + "`name`" + `,
its ` + "`inputs`" + ` and its ` + "`expected`" + ` outputs. Every input a case needs is in
the file: the pose cases on the bench-spec clips (docs/bench-spec.md: the
23-joint skeleton, clip A from seed 1, clip B from seed 2, sampled between
frames) carry the poses or the frames they read, so nothing needs
generating. Edge cases are named: half-life 0, dt 0, rotations 179.5
degrees apart, zero scalar velocity, ends of clips and blends.

## Conventions

- Units: lengths in metres, times, durations and half-lives in seconds,
  angles in radians. Linear velocities in m/s, angular velocities in rad/s.
- Vectors are ` + "`[x, y, z]`" + `. Quaternions are ` + "`[w, x, y, z]`" + ` (w first), unit
  length, Hamilton products; ` + "`a * b`" + ` rotates by b then by a, and q rotates v as
  q v q^-1. A scaled angle-axis is axis times angle (rad);
  ` + "`quat_from_scaled_angle_axis(v) = [cos(|v|/2), sin(|v|/2) v/|v|]`" + `.
- Angular velocities are on the world (left) side: over dt a rotation q
  becomes ` + "`quat_from_scaled_angle_axis(ang dt) * q`" + `. In a local pose (each joint
  relative to its parent) that is the parent's frame.
- Scalar velocities of poses and kineforms (` + "`svl`" + `) are natural-log scale per
  second: a scale grows as ` + "`scl exp(svl t)`" + `. The spring package's scale spring
  and ` + "`scalar_velocity.json`" + `'s base2 values count doublings per second (base
  2, as the scalar-velocity article): multiply a natural-log rate by 1/ln 2.
- Weight rates (` + "`alpha_vel`" + `) are per second. The article's op_blend and
  op_additive_inplace take the weight's change over one tick of dt and
  divide by dt: pass ` + "`alpha_vel * dt`" + ` and dt.
- Poses list joints with parents before children; ` + "`parents`" + ` is -1 for a root.
  A pose is local unless the file says global (bk.json's input, fk.json's
  output, finite_diff.json).
- A half-life of 0 means "snap to the goal" (no division by zero); dt 0
  leaves a spring's state unchanged. Durations are read as 1e-8 s at least.

## Where animsys goes beyond the listings

A port of the listings as printed will not match every file; these are
the places, each also in the file's notes:

- Where a rotation is ` + "`quat_from_scaled_angle_axis(v)`" + ` of a moving v (blend,
  additive, inertialization, cubic sampling), its angular velocity is
  ` + "`J(v) dv/dt`" + `, J the exp map's derivative (exp_map_dx.json), where the article
  adds dv/dt itself: exact only for small or parallel v, off by up to
  ~0.25 rad/s in a blend of the bench clips and ~0.65 rad/s at the start of
  an inertialization. inertialize_offset.json stores in ` + "`ang`" + ` the rate of the
  offset's scaled angle-axis, ` + "`J(r)^-1 (src.ang - rot dst.ang)`" + `.
- bk and kform_div divide by the parent's scale and keep the expansion term
  in the parent's frame: the exact inverse of op_fk. The article's op_bk
  agrees only for unit, constant parent scales.
- Cubic sampling is the article's "sample four poses instead of two",
  which it does not list: sample_cubic.json's notes define it.
- Two-bone IK's static solve is animsys's own (TwoBoneIKStatic); the
  angular velocities of the two joints it turns are the article's
  single-frame finite difference, and every other velocity is kept rather
  than finite-differenced with them.

## Tolerance

A port passes a case when every expected number is reproduced within

    |got - want| <= abs + rel |want|

with abs and rel from the file's ` + "`tolerance`" + ` (abs in the number's unit):
` + fmt.Sprintf("abs %g, rel %g", DefaultTolerance.Abs, DefaultTolerance.Rel) + ` unless the file states more, which its notes
explain: abs 1e-3 where velocities are differences of positions over a
frame (sample_linear, sample_cubic, finite_diff) or accumulate over 90
steps (tracking_sequence), 5e-3 for two_bone_ik's finite difference over
10 ms. Booleans, integers and strings must be equal. kinelab's own test
reproduces every file with its inputs moved by two float32 ulps (the
rounding a different but correct float32 implementation makes) within
this tolerance, while a wrong or missing term (a leverage, an expansion, a
weight rate, an exp-map derivative) costs 1e-2 of a velocity and more
(animsys/verify). Nearer 180 degrees than these cases, a rotation's axis
is ill-conditioned: at 179 degrees two ulps of input move a look-at's
angular velocity by 1e-2 rad/s.

## Files

| file | article | function | animsys |
| --- | --- | --- | --- |
`)
	for _, o := range Ops() {
		m := o.Meta()
		fmt.Fprintf(&b, "| %s.json | %s | %s | %s |\n", m.Op, m.Article, cell(m.Function), cell(m.Animsys))
	}
	return b.String()
}

// cell escapes a table cell's pipes.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
