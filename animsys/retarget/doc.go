// Package retarget plays one figure's motion on another: a capture on a
// game character, with exact velocities. A Map is built once from the
// two figures as package humanoid reads them (which joints are the hips,
// spine, neck, head, arms, legs and feet: New asks the Figure, it never
// matches names itself) and turns a pose of the source into a pose of the
// target, velocities included, allocating nothing (Map.Pose).
//
// # The map
//
//   - Joints are paired along the figure's chains: the spine from the hips
//     to the chest and from the chest to the head, each leg from where it
//     leaves the hips through the thigh, knee, ankle and toe, each arm
//     from the clavicle through the shoulder, elbow and hand. The named
//     joints (hips, chest, head, thigh, knee, ankle, toe, shoulder,
//     elbow, hand) pair with each other; the joints between two of them
//     pair by their place along the chain (their share of its length), as
//     many as the shorter chain has. Every target joint left unpaired
//     (fingers, a twist joint, a prop, the joints beside the body) holds
//     its rest pose in its parent's frame; an unpaired source joint's turn
//     reaches the target through the next paired joint below it, whose
//     world rotation includes it.
//   - Rest poses are aligned by constant offsets: both figures are
//     brought into humanoid's bind pose (Figure.BindPose: upright, facing
//     +Z, legs straight, arms in an A-pose, feet forward) and each paired
//     target joint keeps the turn that takes the source joint's world
//     rotation there to its own: target world rotation = source world
//     rotation x offset. A T-pose source drives an A-pose target so.
//   - The hips move as the source's scaled by leg length (Map.Scale, the
//     target's thigh and shin over the source's) and lifted so that each
//     figure standing straight stands on its own floor; the target's root
//     (the Entity) carries the hips' ground projection, as every kinelab
//     character's does.
//
// The offsets and the scale are constants, so the map is linear in the
// rates: an angular velocity turns by the offset of its parent, the hips'
// velocity scales, and forward kinematics with velocities (animsys.FK)
// gives the target's exact world velocities. No frame is differenced.
//
// # Feet
//
// Where the target's legs are not the source's proportions (a wider
// pelvis, a longer shin), rotations alone slide its feet. With Map.Feet
// each ankle is then put where the source's stood, scaled, by the legs'
// two-bone IK (animsys.TwoBoneIK, op_two_bone_ik), its velocity the IK's
// finite difference over a tenth of a millisecond, as the matching lab's
// foot lock does; the foot keeps the source's world rotation. A foot
// hanging from a root bone that the rig's IK carries at the end of the
// shin (humanoid.Limb.Carried: robot.glb) is placed there.
//
// # Clips and characters
//
// A retargeted clip (Map.Clip) is an animsys.Clip on the target's
// skeleton whose Curves sample the source clip and map it (Curves), so
// any op samples it exactly, at any time; its frames hold the map at the
// source's frame times. Onto makes a character of a target with the
// clips of a source character mapped onto it.
package retarget
