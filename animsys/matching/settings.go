package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// Input is what the player asks for, in the world's ground plane (x, z).
type Input struct {
	// Move is the direction of travel, length at most 1 (0 stands still).
	Move mgl32.Vec2
	// Run asks for the run speed instead of the walk speed.
	Run bool
	// Face is the direction to face; zero faces the way the character moves.
	Face mgl32.Vec2
}

// Settings are a Matcher's parameters. Those in metres (speeds,
// ForceChange, Sync.Distance) are a human's: the matcher multiplies them
// by its database's Unit, so they fit a figure of any size.
type Settings struct {
	Set Set
	// Transition is how the matcher blends into the frame a search
	// found: any kind but animsys.TransitionBlend, which would need the
	// old clip kept playing (given it, the matcher cuts).
	Transition animsys.TransitionKind
	// Halflife (s) of spring inertialization and of dead blending's
	// velocity decay; the Inertial feature and the exact cost assume it.
	Halflife float32
	// BlendTime (s) of cubic inertialization and of dead blending.
	BlendTime float32
	// SearchPeriod (s) between searches; a change of the desired velocity
	// of ForceChange m/s, or of the facing of 45°, searches at once.
	SearchPeriod float32
	ForceChange  float32
	// Near (s): frames of the playing clip this close to the playing one
	// are skipped (carrying on is costed as the bound instead).
	Near float32
	// Rerank is how many of the Inertial search's best the Exact set
	// re-ranks.
	Rerank int
	// Brute searches by brute force instead of the index.
	Brute bool
	// Speeds (m/s, times Database.Unit): forward walking and running; sideways and backwards
	// travel is capped at SideSpeed and BackSpeed.
	WalkSpeed, RunSpeed, SideSpeed, BackSpeed float32
	// Half-lives (s) of the springs that predict the trajectory: on the
	// velocity, and on the facing angle.
	VelHalflife, FaceHalflife float32
	// Bias is how much (in the set's cost) the best frame must beat
	// carrying on by for the matcher to transition, and BiasShare by what
	// share of carrying on's cost besides: calm over restless.
	Bias, BiasShare float32
	Sync            SyncSettings
	Lock            LockSettings
	// Idle: while the input asks for no motion and the simulation is
	// about to stop, the matcher plays the database's idle stretch
	// (Database.IdleFrom..IdleTo), then holds its last frame, and does not
	// search, so standing does not search its way through walk clips. It
	// is entered and left with the set transition (Matcher.Idle).
	Idle bool
	Rate RateSettings
	// Warp: stride and orientation warping (Warps).
	Warp WarpSettings
}

// RateSettings are the playback rate (Matcher.Rate): the clip plays at the
// ratio of the simulation's speed to the clip's own root speed (both on
// the spot, the clip turning: of their turn rates), eased by the scale
// spring of the scalar-velocity article and kept within RateMin..RateMax,
// so a database without the asked speed plays its nearest clip faster or
// slower instead of sliding the root under the feet. A turn on the spot
// played by the ratio of speeds ran at 0.7 (its root's sway is faster
// than a standing simulation's 0), its facing 2-4° further behind.
type RateSettings struct {
	On bool
	// Halflife (s) of the rate's spring.
	Halflife float32
}

// The playback rate's bounds: within them a gait still reads as itself (a
// walk at 0.7 is a slower walk, at 1.4 a brisker one: the speeds a person
// walks at span about that ratio at one cadence); beyond, it reads as slow
// motion or a film run fast, and the search must find a clip of the speed
// instead.
const (
	RateMin = 0.7
	RateMax = 1.4
	// rateFloor (m/s for a human, times Database.Unit) is added to both
	// speeds of the ratio: a clip standing still (an idle, a turn on the
	// spot) has no speed to divide by, and its rate's goal is then 1
	// while the simulation stands too.
	rateFloor = 0.1
)

// SyncSettings are the synchronisation of the animated root with the
// simulation (the reference controller's "adjustment" and "clamping").
// With both off the simulation stands where the character stands, as a
// matcher without it does.
type SyncSettings struct {
	// Adjust pulls the root towards the simulation: a damper of
	// Halflife (position) and RotHalflife (facing), at most Ratio of the
	// root's own speed and turn rate, so the feet do not visibly slide.
	Adjust                bool
	Halflife, RotHalflife float32
	Ratio                 float32
	// Clamp keeps the root within Distance (m, times Database.Unit) and
	// Angle (rad) of the simulation, whatever the animation does.
	Clamp           bool
	Distance, Angle float32
	// Hold: where the clamp's distance has been reached for longer than
	// HoldAfter (s) without a break, the simulation is held back to it
	// (the reference's synchronisation, bounded) rather than the root
	// dragged on (its clamping). The root then moves only by its root
	// motion and the adjustment, so a character the database cannot move
	// as asked (the captures of ../shared/locomotion have no running
	// turn) falls behind the input instead of skating after it: 37 cm/s
	// of ankle sliding on their circle dragged, 7 held. A shorter lag (a
	// transition's, a sharp turn's: 0.25-0.6 s on the zigzag of either
	// set, against 10 s on the captures' circle) is dragged, as the
	// reference does: held, it would leave the character behind the
	// input on every corner (the embedded zigzag's trajectory error 14
	// cm above its floor, against 3 dragged). HoldAfter's default, 1 s,
	// clears the zigzag's longest corners with room (0.5 s left the
	// embedded zigzag 3.05 cm above its floor, 1 s 2.90, as dragged); the
	// captures' circle then drags 1 s of each 10 s run (ankle 8.8 cm/s,
	// against 7.1 at 0.5 s). The facing is clamped on the root either way.
	Hold      bool
	HoldAfter float32
}

// DefaultSettings are a Matcher's settings to start with.
func DefaultSettings() Settings {
	return Settings{Set: InertialSet, Transition: animsys.TransitionSpring, Halflife: 0.1, BlendTime: 0.3,
		SearchPeriod: 0.1, ForceChange: 1, Near: 0.2, Rerank: 16,
		WalkSpeed: 1.4, RunSpeed: 3.6, SideSpeed: 1.1, BackSpeed: 1.0,
		VelHalflife: 0.25, FaceHalflife: 0.2, Bias: 0.1, BiasShare: 0.3,
		Sync: SyncSettings{Adjust: true, Halflife: 0.1, RotHalflife: 0.2, Ratio: 0.5, Clamp: true, Distance: 0.15, Angle: math.Pi / 2, Hold: true, HoldAfter: 1},
		Lock: LockSettings{On: true, Toes: true, Radius: 1, Halflife: 0.1},
		Idle: true, Rate: RateSettings{On: true, Halflife: 0.1},
		Warp: WarpSettings{Stride: true, Orient: true, Halflife: 0.15, Turn: 1}}
}
