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
	Circle Path = iota // round a 3 m circle, walking, then running, every 10 s
	Zigzag             // legs of 2 s turning 60° left and right, running every fourth
	StopGo             // go 3 s, stop 2 s; each go turns 90° and alternates walk, run, a side step and a back step
	Random             // every 1-3 s a new direction, speed (stand, walk, run) and sometimes a fixed facing (strafe)
	NumPaths
)

// PathNames are the paths' names on the command line.
var PathNames = [NumPaths]string{"circle", "zigzag", "stop-go", "random"}

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
	return 0, fmt.Errorf("path %q: want circle, zigzag, stop-go or random", name)
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
	}
	return Input{}
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

// Metrics are what Eval measures of one run.
type Metrics struct {
	Set    string `json:"set"`
	Path   string `json:"path"`
	Frames int    `json:"database_frames"`
	// FootSliding (cm/s): the mean ground speed of a foot whose height is
	// within ContactHeight of its lowest in the run (its 1st percentile).
	FootSliding float64 `json:"foot_sliding_cm_per_s"`
	// TrajectoryError (cm): the mean distance between where the root was
	// predicted to be 1 s ahead and where it was 1 s later.
	TrajectoryError float64 `json:"trajectory_error_1s_cm"`
	// TransitionsPerSecond, and the mean inertialized displacement of the
	// feet per transition (cm·s, ∫ Σ|output - target| dt, both feet).
	TransitionsPerSecond float64 `json:"transitions_per_s"`
	Displacement         float64 `json:"displacement_per_transition_cm_s"`
	// Search times (µs): with the index, and by brute force on the same
	// queries.
	SearchMedian float64 `json:"search_median_us"`
	SearchP99    float64 `json:"search_p99_us"`
	BruteMedian  float64 `json:"brute_median_us"`
	BruteP99     float64 `json:"brute_p99_us"`
	// Same reports whether brute force chose every frame the index chose.
	Same bool `json:"brute_force_same"`
}

// ContactHeight (m): a foot this close to its lowest height is on the
// ground (the 2 cm).
const ContactHeight = 0.02

// EvalTick is the tick (s) of an evaluation run.
const EvalTick = 1.0 / 60

// Eval replays path for seconds (at EvalTick) through a Matcher on db with
// settings s, then again by brute force, and measures the run.
func Eval(db *Database, s Settings, path Path, seconds float32, seed uint32) Metrics {
	s.Brute = false
	m, frames := run(db, s, path, seconds, seed, true)
	s.Brute = true
	b, bframes := run(db, s, path, seconds, seed, false)
	m.BruteMedian, m.BruteP99 = b.SearchMedian, b.SearchP99
	m.Same = len(frames) == len(bframes)
	for i := 0; m.Same && i < len(frames); i++ {
		m.Same = frames[i] == bframes[i]
	}
	return m
}

// run plays one evaluation; it returns the metrics and the frame chosen at
// every transition.
func run(db *Database, s Settings, path Path, seconds float32, seed uint32, measure bool) (Metrics, []int) {
	m := NewMatcher(db, s)
	ticks := int(seconds/EvalTick + 0.5)
	ahead := int(math.Round(1 / EvalTick))
	heights := [2][]float32{make([]float32, ticks), make([]float32, ticks)}
	speeds := [2][]float32{make([]float32, ticks), make([]float32, ticks)}
	roots := make([]mgl32.Vec3, ticks)
	preds := make([]mgl32.Vec3, ticks)
	var chosen []int
	prev := [2]mgl32.Vec3{m.World.Pos[db.Feet[0]], m.World.Pos[db.Feet[1]]}
	for k := 0; k < ticks; k++ {
		m.Update(path.Input(float32(k)*EvalTick, seed), EvalTick)
		if m.Transited {
			chosen = append(chosen, m.Frame())
		}
		for f, j := range db.Feet {
			p := m.World.Pos[j]
			d := p.Sub(prev[f])
			heights[f][k] = p[1]
			speeds[f][k] = float32(math.Hypot(float64(d[0]), float64(d[2]))) / EvalTick
			prev[f] = p
		}
		roots[k], preds[k] = m.RootPos, m.Predicted[PathPoints-1]
	}
	out := Metrics{Set: s.Set.String(), Path: path.String(), Frames: db.Frames}
	out.SearchMedian, out.SearchP99, _ = m.SearchStats()
	if !measure {
		return out, chosen
	}
	var slide float64
	var n int
	for f := range heights {
		// The foot's lowest is the 1st percentile of its height: one dip
		// during a blend must not set the floor that decides which ticks
		// count as standing.
		sorted := slices.Clone(heights[f])
		slices.Sort(sorted)
		lo := sorted[len(sorted)/100]
		for k, h := range heights[f] {
			if k > 0 && h <= lo+ContactHeight {
				slide += float64(speeds[f][k])
				n++
			}
		}
	}
	if n > 0 {
		out.FootSliding = 100 * slide / float64(n)
	}
	var e float64
	for k := 0; k+ahead < ticks; k++ {
		e += float64(preds[k].Sub(roots[k+ahead]).Len())
	}
	if ticks > ahead {
		out.TrajectoryError = 100 * e / float64(ticks-ahead)
	}
	out.TransitionsPerSecond = float64(m.Transitions) / float64(seconds)
	if d := m.Displacements; len(d) > 0 {
		var sum float64
		for _, x := range d {
			sum += float64(x)
		}
		out.Displacement = 100 * sum / float64(len(d))
	}
	return out, chosen
}
