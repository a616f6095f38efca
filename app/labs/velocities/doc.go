// Package velocities is kinelab's Velocities lab (tab 1, --lab velocities).
// It shows the article "Propagating Velocities through Animation Systems"
// (docs/articles.md).
//
// On screen: the default
// character's clips go through the whole chain — sampling, a transition
// (cut, two-way blend, cubic or spring inertialization, dead blending), an
// additive, the character's root, look-at and two-bone IK — and forward
// kinematics with velocities. Each joint shows its propagated velocity (red)
// beside the finite difference against the previous frame (blue).
//
// What the user can do: play the idle, walk, run and lean clips and switch
// between them by cut, two-way blend, cubic or spring inertialization or
// dead blending (N, or the clip buttons); fade a waving-arm additive in on
// the world or local side (A); turn on head look-at (L) and two-bone IK on
// a leg or a hand (I), and Ctrl+drag their targets; show world linear,
// angular or scalar velocity, local angular velocity or backward kinematics
// of the finite difference (V), on every joint or one (J); and press
// Teleport (T), Reset (R) or Skip frames (K) to make the blue finite
// difference spike while the red stays right. W drops the velocity a
// changing blend weight adds. A plot tracks the mean and max |red - blue|;
// --csv writes them with the picked joint's vectors. BVH files (command
// line or dropped on the window) replace the character; the timeline
// plays its clip looped, clamped or ping-ponged and scrubs it. Every tick
// whose finite difference reads across a jump is marked on the plot as an
// event: teleport, reset, skip, scrub, a clip's wrap, end or turn, and a
// data jump (a frame where the capture itself jumps, animsys.DetectEvents).
package velocities
