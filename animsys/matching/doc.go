// Package matching is motion matching built from kinelab's parts: a
// database of clips with features per frame, a search over them, and a
// controller that steers one character through it — a trajectory predicted
// by critical springs on velocity and facing (perfect-tracking-with-
// springs), inertialized transitions with velocities propagated through
// them (propagating-velocities), and three ways of costing a transition
// (inertialization-transition-cost):
//
//   - Standard: foot positions and velocities with weights, as motion
//     matching usually does.
//   - Inertial: article 4's feature 2·pos/y + vel/y² (y the half-damping of
//     the inertializer's half-life) in place of foot position and velocity:
//     its distance is the absolute integral of the decaying offset when it
//     does not cross zero.
//   - Exact: the Inertial search's best N re-ranked by the exact
//     inertialized displacement (spring.TransitionCost) of the feet.
//
// A Database is built once from a Source (a skeleton, its clips and the
// joints that matter); its Index answers searches by a k-d tree of
// bounding boxes over the frames, exactly as brute force would. A Matcher plays the
// database for one character from an Input (desired movement and facing)
// each tick, without allocating. Eval replays a scripted input (Path) and
// measures foot sliding, trajectory error, transitions and search time.
//
// Units: metres, seconds, radians; y is up and characters face +z in their
// root's frame.
package matching
