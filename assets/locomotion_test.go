package assets

import (
	"math"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// The set is built once for all the tests (about 0.1 s), and its world
// poses (FK of every frame) once more for those that need them.
var loco = sync.OnceValues(func() ([]animsys.Clip, []locoInfo) { return buildLocomotion() })

var locoWorld = sync.OnceValue(func() [][]animsys.Pose {
	clips, _ := loco()
	sk := Humanoid()
	out := make([][]animsys.Pose, len(clips))
	local := animsys.NewPose(NumJoints)
	for k := range clips {
		c := &clips[k]
		out[k] = make([]animsys.Pose, c.Frames)
		for f := range out[k] {
			// Only positions and rotations are read (FKStatic also writes
			// scales): three slices a frame, a few tens of MB in all, with
			// the room past the joints FKStatic reads and writes a Vec3 in
			// (mathx.PaddedLen, as NewPose makes it).
			m := mathx.PaddedLen(NumJoints)
			g := animsys.Pose{Pos: make([]mgl32.Vec3, NumJoints, m), Rot: make([]mgl32.Quat, NumJoints, m),
				Scl: make([]mgl32.Vec3, NumJoints, m)}
			c.Frame(&local, f)
			animsys.FKStatic(&g, &local, sk.Parents)
			out[k][f] = g
		}
	}
	return out
})

func TestLocomotionSizeAndValues(t *testing.T) {
	start := time.Now()
	fresh := Locomotion()
	t.Logf("built %d clips in %v", len(fresh), time.Since(start))
	clips, _ := loco()
	total := 0
	for k, c := range clips {
		total += c.Frames
		t.Logf("%-18s %6d frames (%.1f s)", c.Name, c.Frames, c.Duration())
		if c.Joints != NumJoints || c.FrameTime != float32(1.0/60) || c.LoopEnd != c.LoopStart {
			t.Errorf("%s: %d joints, frame time %v, loop [%v, %v]", c.Name, c.Joints, c.FrameTime, c.LoopStart, c.LoopEnd)
		}
		// Deterministic: a second build is the same, value for value.
		d := &fresh[k]
		if d.Name != c.Name || d.Frames != c.Frames {
			t.Fatalf("second build differs: %s %d vs %s %d", d.Name, d.Frames, c.Name, c.Frames)
		}
		for f := 0; f < c.Frames; f++ {
			for j := 0; j < c.Joints; j++ {
				q := c.Rot[c.At(f, j)]
				p, s := c.PosAt(f, j), c.SclAt(f, j)
				if !mathx.QuatFinite(q) || !mathx.Vec3Finite(p) || !mathx.Vec3Finite(s) {
					t.Fatalf("%s frame %d joint %d: not finite", c.Name, f, j)
				}
				if l := math.Sqrt(float64(mathx.QuatDot(q, q))); math.Abs(l-1) > 1e-5 {
					t.Fatalf("%s frame %d joint %d: rotation of length %v", c.Name, f, j, l)
				}
				if q != d.Rot[d.At(f, j)] || p != d.PosAt(f, j) || s != d.SclAt(f, j) {
					t.Fatalf("%s frame %d joint %d: second build differs", c.Name, f, j)
				}
			}
		}
	}
	t.Logf("total %d frames (%.1f s)", total, float64(total)/60)
	if total < 26000 {
		t.Errorf("%d frames in all, want at least 26000", total)
	}
}

// percentile is the p-th percentile (0-1) of xs, which it sorts.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	return xs[min(len(xs)-1, int(p*float64(len(xs))))]
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / math.Max(1, float64(len(xs)))
}

func horiz(v mgl32.Vec3) float64 { return math.Hypot(float64(v[0]), float64(v[2])) }

// The planted foot does not slide. The planner says which point of each
// foot bears on the ground in every frame: the heel (a point 5 cm behind
// and below the ankle, in the foot's frame) while the foot rolls down
// after heel strike, the ankle while flat, the toe joint while the heel
// rises; that point's world position must stay put while the kind of
// contact lasts. By construction it does exactly, up to float32 rounding
// of a root up to a few hundred metres out (1e-5 m a frame, 0.1 cm/s) and
// the IK's clamping of an ankle out of reach, which is what the bounds
// catch: a mean below 0.5 cm/s and a 99th percentile below 2 cm/s are
// invisible; an out-of-reach stance slides tens of cm/s.
//
// The planner-blind measure is logged too: the ankle within 2 cm of its
// lowest height in the clip. It also counts motion that is not sliding:
// the ankle swinging about the heel or toe as the foot rolls (5 cm levers
// at up to 5 rad/s) and the swinging foot skimming in to land or out after
// lift-off, most in the run (its feet land and leave fast and low). So its
// bound only catches gross sliding: a mean below 30 cm/s, where a foot
// skating with the body would show its 100-450 cm/s.
func TestLocomotionFeetPlanted(t *testing.T) {
	clips, infos := loco()
	world := locoWorld()
	heel := mgl32.Vec3{0, -ankleH, -heelBack}
	for k := range clips {
		c, info, w := &clips[k], infos[k], world[k]
		var planted, low []float64
		for i, foot := range [2][2]int{{LeftFoot, LeftToe}, {RightFoot, RightToe}} {
			point := func(f int, kind uint8) mgl32.Vec3 {
				switch kind {
				case contactHeel:
					return w[f].Pos[foot[0]].Add(mathx.QuatMulVec3(w[f].Rot[foot[0]], heel))
				case contactToe:
					return w[f].Pos[foot[1]]
				}
				return w[f].Pos[foot[0]]
			}
			lowest := math.Inf(1)
			for f := range w {
				lowest = min(lowest, float64(w[f].Pos[foot[0]][1]))
			}
			for f := 0; f+1 < c.Frames; f++ {
				if kind := info.contact[f][i]; kind != contactAir && kind == info.contact[f+1][i] {
					planted = append(planted, 100*horiz(point(f+1, kind).Sub(point(f, kind)))/float64(c.FrameTime))
				}
				y0, y1 := float64(w[f].Pos[foot[0]][1]), float64(w[f+1].Pos[foot[0]][1])
				if y0 < lowest+0.02 && y1 < lowest+0.02 {
					low = append(low, 100*horiz(w[f+1].Pos[foot[0]].Sub(w[f].Pos[foot[0]]))/float64(c.FrameTime))
				}
			}
		}
		pm, p99, pmax := mean(planted), percentile(planted, 0.99), percentile(planted, 1)
		lm, l95 := mean(low), percentile(low, 0.95)
		t.Logf("%-18s contact point: mean %.3f p99 %.3f max %.3f cm/s | ankle within 2 cm of lowest: mean %.2f p95 %.2f cm/s",
			c.Name, pm, p99, pmax, lm, l95)
		if pm > 0.5 || p99 > 2 {
			t.Errorf("%s: planted feet slide, mean %.3f cm/s, 99th percentile %.3f cm/s", c.Name, pm, p99)
		}
		if lm > 30 {
			t.Errorf("%s: low ankles move %.2f cm/s on average", c.Name, lm)
		}
	}
}

// The feet stay above the ground (the ankle 5 cm above the sole, the toe
// joint on it: neither more than 1 cm below y = 0), and the knees only bend
// forward, about their own x axis, never past 2.6 rad.
func TestLocomotionLegs(t *testing.T) {
	clips, _ := loco()
	world := locoWorld()
	for k := range clips {
		c, w := &clips[k], world[k]
		lowest := float32(math.Inf(1))
		kmin, kmax, off := math.Inf(1), math.Inf(-1), 0.0
		hmin := math.Inf(1)
		for f := 0; f < c.Frames; f++ {
			for _, j := range []int{LeftFoot, LeftToe, RightFoot, RightToe} {
				y := w[f].Pos[j][1]
				if j == LeftFoot || j == RightFoot {
					y -= ankleH
				}
				lowest = min(lowest, y)
			}
			for _, j := range []int{LeftLeg, RightLeg} {
				r := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(c.Rot[c.At(f, j)]))
				kmin, kmax = min(kmin, float64(r[0])), max(kmax, float64(r[0]))
				off = max(off, math.Hypot(float64(r[1]), float64(r[2])))
			}
			hmin = min(hmin, float64(c.PosAt(f, Hips)[1]))
		}
		t.Logf("%-18s lowest sole %.4f m, knee %.3f to %.3f rad, hips down to %.3f m", c.Name, lowest, kmin, kmax, hmin)
		if lowest < -0.01 {
			t.Errorf("%s: a foot goes %.3f m below the ground", c.Name, -lowest)
		}
		if kmin < 0 || kmax > 2.6 || off > 1e-4 {
			t.Errorf("%s: knee rotation x in [%.3f, %.3f] rad, off-axis %.2g rad; want a forward bend in [0, 2.6]", c.Name, kmin, kmax, off)
		}
		if hmin < 0.75 {
			t.Errorf("%s: the hips sink to %.3f m", c.Name, hmin)
		}
	}
}

func TestLocomotionHasNoDataEvents(t *testing.T) {
	clips, _ := loco()
	sk := Humanoid()
	for k := range clips {
		for _, e := range animsys.DetectEvents(&sk, &clips[k]) {
			t.Errorf("%v", e)
		}
	}
}

// rootMotion is a clip's root per frame: velocity in the character's frame
// (x left, z forward, m/s, central differences), unwrapped yaw (rad) and
// its rate (rad/s).
type rootMotion struct {
	side, fwd, yaw, yawRate []float64
}

func rootOf(c *animsys.Clip) rootMotion {
	n := c.Frames
	m := rootMotion{make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)}
	for f := 0; f < n; f++ {
		fw := mathx.QuatMulVec3(c.Rot[c.At(f, Entity)], mgl32.Vec3{0, 0, 1})
		y := math.Atan2(float64(fw[0]), float64(fw[2]))
		if f > 0 {
			y = m.yaw[f-1] + wrapPi(y-m.yaw[f-1])
		}
		m.yaw[f] = y
	}
	for f := 0; f < n; f++ {
		a, b := max(f-1, 0), min(f+1, n-1)
		dt := float64(b-a) * float64(c.FrameTime)
		v := c.PosAt(b, Entity).Sub(c.PosAt(a, Entity)).Mul(float32(1 / dt))
		y := m.yaw[f]
		m.fwd[f] = float64(v[0])*math.Sin(y) + float64(v[2])*math.Cos(y)
		m.side[f] = float64(v[0])*math.Cos(y) - float64(v[2])*math.Sin(y)
		m.yawRate[f] = (m.yaw[b] - m.yaw[a]) / dt
	}
	return m
}

func clipNamed(t *testing.T, name string) *animsys.Clip {
	clips, _ := loco()
	for k := range clips {
		if clips[k].Name == name {
			return &clips[k]
		}
	}
	t.Fatalf("no clip %q", name)
	return nil
}

// The dance cards cover what they are named for: speeds, sideways and
// backwards motion relative to the facing, turns.
func TestLocomotionCoverage(t *testing.T) {
	type want struct {
		name  string
		check func(m rootMotion, f int) bool
		what  string
		count int // frames (at least) that must pass
	}
	speed := func(m rootMotion, f int) float64 { return math.Hypot(m.fwd[f], m.side[f]) }
	for _, w := range []want{
		{"loco walk", func(m rootMotion, f int) bool { return math.Abs(speed(m, f)-0.7) < 0.05 }, "walking at 0.7 m/s", 60},
		{"loco walk", func(m rootMotion, f int) bool { return speed(m, f) > 1.95 }, "walking at 2 m/s", 60},
		{"loco run", func(m rootMotion, f int) bool { return speed(m, f) > 4.4 }, "running at 4.4 m/s or more", 60},
		{"loco run", func(m rootMotion, f int) bool { return math.Abs(speed(m, f)-2.5) < 0.1 }, "running at 2.5 m/s", 30},
		{"loco strafe", func(m rootMotion, f int) bool { return m.side[f] > 1.1 && math.Abs(m.fwd[f]) < 0.1 }, "strafing left", 60},
		{"loco strafe", func(m rootMotion, f int) bool { return m.side[f] < -1.1 && math.Abs(m.fwd[f]) < 0.1 }, "strafing right", 60},
		{"loco strafe", func(m rootMotion, f int) bool { return m.side[f] > 0.4 && m.fwd[f] < -0.4 }, "a diagonal back-left strafe", 60},
		{"loco back", func(m rootMotion, f int) bool { return m.fwd[f] < -1.1 && math.Abs(m.side[f]) < 0.1 }, "backing at 1.1 m/s", 60},
		{"loco curves", func(m rootMotion, f int) bool { return speed(m, f) > 1 && m.yawRate[f] > 0.75 }, "a tight left curve", 60},
		{"loco curves", func(m rootMotion, f int) bool { return speed(m, f) > 1 && m.yawRate[f] < -0.75 }, "a tight right curve", 60},
		{"loco curves", func(m rootMotion, f int) bool { return speed(m, f) > 2.9 && math.Abs(m.yawRate[f]) > 0.9 }, "a running curve", 60},
		{"loco turns", func(m rootMotion, f int) bool { return speed(m, f) < 0.05 && math.Abs(m.yawRate[f]) > 2 }, "a fast turn on the spot", 20},
		{"loco idle", func(m rootMotion, f int) bool { return speed(m, f) < 0.01 && math.Abs(m.yawRate[f]) < 0.01 }, "standing still", 1800},
	} {
		c := clipNamed(t, w.name)
		m := rootOf(c)
		n := 0
		for f := range m.fwd {
			if w.check(m, f) {
				n++
			}
		}
		if n < w.count {
			t.Errorf("%s: %d frames of %s, want at least %d", w.name, n, w.what, w.count)
		}
	}
	// Turns on the spot reach 180 degrees: some 2 s window turns the facing
	// by pi (to within 1 degree).
	m := rootOf(clipNamed(t, "loco turns"))
	best := 0.0
	for f := 120; f < len(m.yaw); f++ {
		best = max(best, math.Abs(m.yaw[f]-m.yaw[f-120]))
	}
	if best < math.Pi-deg(1) {
		t.Errorf("loco turns: at most %.1f degrees of turn in 2 s, want 180", best*180/math.Pi)
	}
}

// Root motion is C1: its velocity and yaw rate change by at most a plausible
// acceleration between frames (second differences of position and yaw),
// and it stays on the ground, turning about +y only.
func TestLocomotionRootIsSmooth(t *testing.T) {
	clips, _ := loco()
	for k := range clips {
		c := &clips[k]
		m := rootOf(c)
		dt := float64(c.FrameTime)
		maxAcc, maxYawAcc := 0.0, 0.0
		for f := 1; f+1 < c.Frames; f++ {
			p0, p1, p2 := c.PosAt(f-1, Entity), c.PosAt(f, Entity), c.PosAt(f+1, Entity)
			a := p2.Sub(p1.Mul(2)).Add(p0)
			maxAcc = max(maxAcc, float64(a.Len())/(dt*dt))
			maxYawAcc = max(maxYawAcc, math.Abs(m.yaw[f+1]-2*m.yaw[f]+m.yaw[f-1])/(dt*dt))
			if p1[1] != 0 {
				t.Fatalf("%s frame %d: root off the ground at %v", c.Name, f, p1)
			}
			if q := c.Rot[c.At(f, Entity)]; q.V[0] != 0 || q.V[2] != 0 {
				t.Fatalf("%s frame %d: root rotation %v is not about +y", c.Name, f, q)
			}
		}
		t.Logf("%-18s root acceleration up to %.2f m/s^2, yaw acceleration up to %.1f rad/s^2", c.Name, maxAcc, maxYawAcc)
		// 12 m/s^2 is above a sprint start's (about 5-8) and far below a
		// velocity jump's (a 1 m/s step in a frame is 60 m/s^2); likewise
		// 60 rad/s^2 for the yaw (a 1 rad/s step is 60 rad/s^2).
		if maxAcc > 12 || maxYawAcc > 60 {
			t.Errorf("%s: root acceleration %.2f m/s^2, yaw acceleration %.1f rad/s^2", c.Name, maxAcc, maxYawAcc)
		}
	}
}
