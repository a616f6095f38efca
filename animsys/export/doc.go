// Package export writes the exact velocities of a clip out of kinelab:
// every frame (or a chosen rate) and every joint of a BVH file or an
// embedded clip, its local and world position, rotation and scale and the
// propagated linear, angular and scalar velocities (world and local),
// optionally beside their finite differences, as CSV or as a NumPy .npz
// archive. It is what `kinelab export` runs.
//
// A BVH file is read as the app reads it (units, up axis and rest frames
// detected or chosen, bvh.File.ClipWith), one frame at a time: an export
// holds four frames of input and three of output whatever the file's
// length. Each output frame is sampled (animsys.SampleCubicFrame, or
// SampleLinearFrame: op_sample_linear) between the four frames around
// it, then animsys.FK gives the world pose with its velocities (op_fk).
//
// # Conventions
//
//   - Positions in the output unit (metres unless asked otherwise), linear
//     velocities in that unit per second.
//   - Rotations are unit quaternions, w first (w, x, y, z); each joint's
//     quaternions keep one sign along the clip.
//   - Angular velocities in rad/s on the world side: over dt a rotation q
//     becomes exp(ang dt) q. A local angular velocity is in the parent's
//     frame.
//   - Scalar velocities in natural-log scale per second: a scale grows as
//     scl exp(svl t). BVH files have no scale channel: their scales are 1,
//     their scalar velocities 0.
//   - Every joint of the file's skeleton is exported, End Sites included
//     (the tips of head, hands and feet, each named "<parent>_End", with
//     no channels of its own); the end_site array marks them.
//   - The velocities are the exact time derivatives of the sampled curve.
//     At the source's last frame they are the curve's as it arrives there
//     (SampleCubicFrame with alpha 1), not the rest that a sampler holds
//     past a clip's end. At the first and last frame the curve's tangent
//     takes a ghost frame that carries the motion on (animsys's sampling:
//     one-sided, or across the wrap of a clip that loops as a whole), so
//     the velocities there are the motion's: the neighbouring interval's
//     rate, as the one-sided finite difference gives. A glTF animation's curves are
//     sampled exactly, at k / (frames - 1) of their end, and its last
//     frame at the end itself with the derivatives its curves end with
//     (animsys.CurvesEnd).
//   - The finite differences (Options.FD) are central differences of the
//     exported frames, (x[k+1] - x[k-1]) / (t[k+1] - t[k-1]) as
//     op_finite_diff computes them (angular: the scaled angle-axis of
//     rot[k+1] rot[k-1]^-1), one-sided at the first and last frame.
package export
