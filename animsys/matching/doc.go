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
// bounding boxes over the frames, exactly as brute force would. A Matcher
// plays the database for one character from an Input (desired movement
// and facing) each tick, without allocating. Its Update runs its stages
// in the frame's order, each a small type that owns its state:
//
//   - Simulation: the character the input moves (critical springs on
//     velocity and facing) and its predicted Trajectory; the prediction
//     carries on a steady turn of the input (a stick swept round, a
//     facing turned on the spot: Simulation.GoalTurn, FaceTurn).
//   - Playback: the clip and time playing, at the rate the simulation
//     asks (the ratio of the speeds, or of the turn rates for a turn on
//     the spot; the scalar-velocity article's scale spring, bounded,
//     every velocity scaled by it: Settings.Rate), and the inertialized
//     transition into it.
//   - Rest: with nothing asked and the simulation about to stop, the
//     character stands in the stance nearest where its feet are (a frame
//     with both feet down and both heels on the floor, Database.StanceFor,
//     held; or the idle stretch, played then held) and does not search.
//   - Searcher: a search when due, a transition only when the best frame
//     beats carrying on by a bias (Settings.Bias, BiasShare), never to one
//     near the frame playing; where the path travels and turns, a second
//     search on the path unbent by what the root may turn beyond the clip
//     (WarpSettings.Turn), dearer by a radian's cost, so a database
//     without the asked curve plays a straight clip bent round it
//     (Searcher.Bent).
//   - RootSync: the root moved by the output's root motion, then adjusted
//     towards the simulation and kept near it, the root dragged through a
//     short lag and the simulation held back where the root cannot keep
//     up (Settings.Sync).
//   - Warps: stride warping (the travel and the feet's distance from the
//     hips along it scaled towards the asked speed) and orientation
//     warping (the direction of travel, the hips and legs with it, turned
//     towards the asked one, the turn unwound up the spine), each amount
//     on a spring whose rate enters every velocity.
//   - Feet: ankles and toes locked where the frames label them in contact
//     (Database.Contact and ToeContact, from the captures' joint heights
//     and speeds relative to the figure's size): the two-bone IK with
//     velocities places the ankle, the foot turns (LookAt) so a held toe
//     stays on its point and a heel lifts about it, a held toe pivots
//     about its heel where the body turns over the foot, legs that cross
//     step apart, a foot landing in the air comes down, releases are
//     inertialized and lift a foot that moves far (FootLock,
//     Settings.Lock).
//   - Displacement: what each transition cost the feet.
//
// Eval replays a scripted input (Path) and Meter measures a run: foot
// sliding on the lock's own labels and, for the ankles and the toes, on a
// second definition of contact labelled from the source clips apart from
// the lock (Database.Truth), trajectory error, transitions moving and
// idle, bone lengths, red against blue, search time; EvalEach hands over
// every tick (TickRecord) for a dump.
//
// Units: metres, seconds, radians; y is up and characters face +z in their
// root's frame.
package matching
