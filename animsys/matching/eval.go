package matching

import (
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// Path is a scripted input: what a player asks for over time, so runs
// can be replayed and compared.
type Path int

// The scripted paths.
const (
	Circle Path = iota // round a 3 m circle (a human's; times Database.Unit), walking, then running, every 10 s
	Zigzag             // legs of 2 s turning 60° left and right, running every fourth
	StopGo             // go 3 s, stop 2 s; each go turns 90° and alternates walk, run, a side step and a back step
	Random             // every 1-3 s a new direction, speed (stand, walk, run) and sometimes a fixed facing (strafe)
	Spin               // on the spot, the facing turned steadily (the lab's Q and E) at 0.8-2.5 rad/s, left and right, a second's pause between
	Stand              // nothing asked, the whole run: the character stands where it started
	NumPaths
)

// PathNames are the paths' names on the command line.
var PathNames = [NumPaths]string{"circle", "zigzag", "stop-go", "random", "spin", "stand"}

func (p Path) String() string {
	if p >= 0 && p < NumPaths {
		return PathNames[p]
	}
	return fmt.Sprintf("Path(%d)", int(p))
}

// ParsePath reads a path's name.
func ParsePath(name string) (Path, error) {
	for i, n := range PathNames {
		if n == name {
			return Path(i), nil
		}
	}
	return 0, fmt.Errorf("path %q: want circle, zigzag, stop-go, random, spin or stand", name)
}

// Input is path p's input at time t (s); seed varies Random.
func (p Path) Input(t float32, seed uint32) Input {
	dir := func(a float64) mgl32.Vec2 { return mgl32.Vec2{float32(math.Sin(a)), float32(math.Cos(a))} }
	switch p {
	case Circle:
		const r = 3.0
		run := int(t/10)%2 == 1
		// The heading turns at speed/r rad/s; it is integrated piecewise
		// so it stays continuous when the speed changes.
		full := math.Floor(float64(t) / 20)
		rem := float64(t) - 20*full
		a := full*10*(1.4+3.6)/r + math.Min(rem, 10)*1.4/r + math.Max(rem-10, 0)*3.6/r
		return Input{Move: dir(a), Run: run}
	case Zigzag:
		leg := int(t / 2)
		a := math.Pi / 3
		if leg%2 == 1 {
			a = -a
		}
		return Input{Move: dir(a), Run: leg%4 == 3}
	case StopGo:
		k := int(t / 5)
		if math.Mod(float64(t), 5) >= 3 {
			return Input{}
		}
		a := float64(k%4) * math.Pi / 2
		switch k % 4 {
		case 1:
			return Input{Move: dir(a), Run: true}
		case 2: // a side step: facing the way the last leg went
			return Input{Move: dir(a), Face: dir(a - math.Pi/2)}
		case 3: // a back step
			return Input{Move: dir(a), Face: dir(a + math.Pi)}
		}
		return Input{Move: dir(a)}
	case Random:
		// Segments of 1-3 s, each drawn from a hash of its number and seed.
		var start float32
		for k := uint32(0); ; k++ {
			h := hash(seed, k)
			d := 1 + 2*unit(h)
			if t < start+d || k > 1e6 {
				in := Input{}
				switch u := unit(hash(h, 1)); {
				case u < 0.15: // stand
				case u < 0.7:
					in.Move = dir(2 * math.Pi * float64(unit(hash(h, 2))))
				default:
					in.Move, in.Run = dir(2*math.Pi*float64(unit(hash(h, 2)))), true
				}
				if !in.Run && unit(hash(h, 3)) < 0.25 {
					in.Face = dir(2 * math.Pi * float64(unit(hash(h, 4))))
				}
				return in
			}
			start += d
		}
	case Spin:
		return Input{Face: dir(spinYaw(float64(t)))}
	}
	return Input{}
}

// spinTurns are the Spin path's 20 s cycle: how long (s) the facing
// turns at what rate (rad/s, + left).
var spinTurns = [...]struct{ dur, rate float64 }{
	{1, 0}, {4, 1.5}, {1, 0}, {3, -2.5}, {1, 0}, {5, 0.8}, {1, 0}, {4, -1.5},
}

// spinYaw is the Spin path's facing (rad) at time t (s): the turns
// integrated.
func spinYaw(t float64) float64 {
	var cycle, yaw float64
	for _, s := range spinTurns {
		cycle += s.dur
		yaw += s.dur * s.rate
	}
	n := math.Floor(t / cycle)
	a, rem := n*yaw, t-n*cycle
	for _, s := range spinTurns {
		d := math.Min(rem, s.dur)
		a += d * s.rate
		if rem -= d; rem <= 0 {
			break
		}
	}
	return a
}

// hash mixes two words (a small integer hash, for repeatable scripts).
func hash(a, b uint32) uint32 {
	x := a*0x9E3779B9 ^ (b + 0x7F4A7C15)
	x ^= x >> 16
	x *= 0x85EBCA6B
	x ^= x >> 13
	x *= 0xC2B2AE35
	x ^= x >> 16
	return x
}

// unit maps a hash to [0, 1).
func unit(h uint32) float32 { return float32(h>>8) / (1 << 24) }

// Metrics are what Eval measures of one run (Meter).
type Metrics struct {
	Set  string `json:"set"`
	Path string `json:"path"`
	// Controller is "database" or "learned" (Matcher.UseNetworks), and
	// MemoryBytes what it holds to make its poses and choose them: the
	// clips' frames and the database's features and index, or the
	// networks and their anchors.
	Controller  string `json:"controller"`
	MemoryBytes int    `json:"memory_bytes"`
	LearnedMetrics

	Frames  int     `json:"database_frames"`
	Seconds float64 `json:"seconds"`
	FeetMetrics
	// TrajectoryError (cm): the mean distance between where the root was
	// predicted to be 1 s ahead and where it was 1 s later.
	// SimTrajectoryError (cm) is the same for a simulation the
	// synchronisation never moves (Meter.free): the part of the error the
	// input's own changes make (a prediction holds the input as it is),
	// which no matching can remove; the trajectory error's floor. SyncDistance
	// (cm) is the mean distance from the root to the simulation.
	TrajectoryError    float64 `json:"trajectory_error_1s_cm"`
	SimTrajectoryError float64 `json:"simulation_trajectory_error_1s_cm"`
	SyncDistance       float64 `json:"sync_distance_cm"`
	// TransitionsPerSecond over the run, and apart while moving and
	// while idle (0 for under a second of either): idle is asked to
	// stand and at rest (the simulation slower than RestSpeed);
	// IdleSeconds how long.
	TransitionsPerSecond float64 `json:"transitions_per_s"`
	TransitionsMoving    float64 `json:"transitions_per_s_moving"`
	TransitionsIdle      float64 `json:"transitions_per_s_idle"`
	IdleSeconds          float64 `json:"idle_s"`
	// TransitionsSettled is TransitionsIdle over the idle ticks after
	// the run's first SettleTime (0 for under a second of them): what
	// standing does once it has settled.
	TransitionsSettled float64 `json:"transitions_per_s_idle_settled"`
	// Displacement: the mean inertialized displacement of the feet per
	// transition (cm·s, ∫ Σ|output - target| dt, both feet).
	Displacement float64 `json:"displacement_per_transition_cm_s"`
	// BoneLengthError (mm): the largest difference over the run between a
	// bone's length in the output and in the database.
	BoneLengthError float64 `json:"bone_length_error_mm"`
	// RedBlue (m/s): the mean |propagated - finite difference| world
	// velocity over the joints and ticks (the lab's red and blue lines).
	RedBlue float64 `json:"red_blue_mean_m_per_s"`
	SearchTiming
}

// LearnedMetrics are a learned controller's own figures (nil for the
// database controller). LearnedVelocity (m/s) is the mean over joints
// and ticks of |the decompressor's velocity - the exact velocity of the
// pose it plays| (FK of each in the character's frame), and LearnedPose
// (cm) the mean distance of a joint of the pose it plays to the same
// joint of the database frame its state stands for (Matcher.Frame; the
// root motion aside).
type LearnedMetrics struct {
	LearnedVelocity *float64 `json:"learned_velocity_error_m_per_s,omitempty"`
	LearnedPose     *float64 `json:"learned_pose_error_cm,omitempty"`
}

// FeetMetrics are the feet's figures of a run.
type FeetMetrics struct {
	// FootSliding (cm/s) is the lock's own readout: the mean ground speed
	// of the output's ankles over a tick whose frame playing labels the
	// foot in contact by the lock's labels (Database.Contact), as did the
	// tick before (the tick a foot lands it still arrives). Those labels
	// drive the lock, so with locking on this reads how well the lock
	// holds what it holds, not whether the feet stand when the captured
	// feet stood: AnkleSliding and ToeSliding measure that. ContactShare
	// is the share of foot-ticks so labelled.
	FootSliding  float64 `json:"foot_sliding_cm_per_s"`
	ContactShare float64 `json:"contact_share"`
	// AnkleSliding and ToeSliding (cm/s): the mean ground speed of the
	// output's ankles, and of its toes, over the ticks whose frame
	// playing, and the tick before's, label that joint in contact by the
	// second definition (Database.Truth: labelled from the source clips'
	// toe speeds and joint heights, which the lock never reads). Nil,
	// left out of the JSON, for a figure without toe joints (no labels)
	// or a run with no tick so labelled. AnkleContactShare and
	// ToeContactShare are the shares of foot-ticks so labelled.
	AnkleSliding      *float64 `json:"ankle_sliding_cm_per_s,omitempty"`
	ToeSliding        *float64 `json:"toe_sliding_cm_per_s,omitempty"`
	AnkleContactShare float64  `json:"ankle_contact_share"`
	ToeContactShare   float64  `json:"toe_contact_share"`
	// AnkleSkating and ToeSkating (cm/s) need no labels: the foot
	// skating of Zhang et al. 2018 (mode-adaptive neural networks), the
	// mean over foot-ticks of a joint's ground speed weighted by
	// 2 - 2^(h/H) while its height h above its floor is under H
	// (skateHeight): all of the speed on the floor, none at H. A floor is
	// the joint's 5th-percentile height over the database (Database
	// truth floors). Beside the sliding on labels, these read the same
	// for any controller: the learned controller's labels are those of a
	// database frame its pose only approximates. ToeSkating is nil for a
	// figure without toes.
	AnkleSkating float64  `json:"ankle_skating_cm_per_s"`
	ToeSkating   *float64 `json:"toe_skating_cm_per_s,omitempty"`
	// Level (a share, 0-1): of the idle ticks in the run's last
	// LevelWindow, those with both ankles within LevelHeight of one
	// height (two feet down, neither heel up); nil with none.
	Level *float64 `json:"ankles_level_share,omitempty"`
	// Turned (a share, 0-1): of the foot-ticks, those whose foot (ankle
	// to toe, in space) points more than 90° from the clip's own foot as
	// the clip plays it: a leg twisted round, crossed over the other, or
	// a foot standing on its heel, toes raised. Nil for a figure without
	// toes.
	Turned *float64 `json:"feet_turned_share,omitempty"`
}

// SearchTiming is a run's search times.
type SearchTiming struct {
	// Search times (µs): with the index, and by brute force on the same
	// queries.
	SearchMedian float64 `json:"search_median_us"`
	SearchP99    float64 `json:"search_p99_us"`
	BruteMedian  float64 `json:"brute_median_us"`
	BruteP99     float64 `json:"brute_p99_us"`
	// Same reports whether brute force chose every frame the index chose.
	Same bool `json:"brute_force_same"`
}

// RestSpeed (m/s for a human, times Database.Unit) and RestTurn (rad/s):
// a simulation slower than RestSpeed and turning slower than RestTurn,
// asked to stand (the facing not turned faster than RestTurn either:
// Simulation.FaceTurn), is at rest: its ticks count as idle. A turn on the
// spot (the Spin path, a new facing on Random) is motion, not standing.
const (
	RestSpeed = 0.1
	RestTurn  = 0.2
)

// EvalTick is the tick (s) of an evaluation run.
const EvalTick = 1.0 / 60

// Eval replays path for seconds (at EvalTick) through a Matcher on db with
// settings s, then again by brute force, and measures the run.
func Eval(db *Database, s Settings, path Path, seconds float32, seed uint32) Metrics {
	return EvalEach(db, s, path, seconds, seed, nil)
}

// EvalEach is Eval calling each, when not nil, after every tick of the
// first run (the index's) with what the meter saw (Meter.Last): for a
// dump of the run tick by tick.
func EvalEach(db *Database, s Settings, path Path, seconds float32, seed uint32, each func(*TickRecord)) Metrics {
	return EvalWith(db, nil, s, path, seconds, seed, each)
}

// EvalWith is EvalEach for the learned controller of networks nets (nil:
// the database's), which does not search: its run is not repeated by
// brute force (Same is false, the brute times 0). Networks that do not
// fit db (Networks.Fits) panic: check them first.
func EvalWith(db *Database, nets *Networks, s Settings, path Path, seconds float32, seed uint32, each func(*TickRecord)) Metrics {
	s.Brute = false
	m, frames := run(db, nets, s, path, seconds, seed, each)
	if nets != nil {
		return m
	}
	s.Brute = true
	b, bframes := run(db, nil, s, path, seconds, seed, nil)
	m.BruteMedian, m.BruteP99 = b.SearchMedian, b.SearchP99
	m.Same = slices.Equal(frames, bframes)
	return m
}

// run plays one evaluation; it returns the metrics and the frame chosen at
// every transition.
func run(db *Database, nets *Networks, s Settings, path Path, seconds float32, seed uint32, each func(*TickRecord)) (Metrics, []int) {
	m := NewMatcher(db, s)
	if nets != nil {
		if err := m.UseNetworks(nets); err != nil {
			panic("matching: " + err.Error())
		}
	}
	var mt Meter
	mt.Begin(m)
	ticks := int(seconds/EvalTick + 0.5)
	var chosen []int
	for k := 0; k < ticks; k++ {
		in := path.Input(float32(k)*EvalTick, seed)
		m.Update(in, EvalTick)
		if m.Search.Transited {
			chosen = append(chosen, m.Frame())
		}
		mt.Tick(m, in, EvalTick)
		if each != nil {
			each(&mt.Last)
		}
	}
	out := mt.Metrics(m)
	out.Set, out.Path = s.Set.String(), path.String()
	return out, chosen
}
