package assets

import (
	"math"
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

var gaits = map[string]Gait{"idle": Idle, "walk": Walk, "run": Run, "lean left": LeanLeft, "lean right": LeanRight}

func TestClipsAreDeterministicAndValid(t *testing.T) {
	a, b := Clips(), Clips()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two builds of the default clips differ")
	}
	sk := Humanoid()
	if err := sk.Validate(); err != nil || sk.Len() != NumJoints {
		t.Fatalf("humanoid: %v, %d joints", err, sk.Len())
	}
	for _, c := range append(a, Additives()...) {
		if c.Joints != NumJoints || len(c.Rot) != c.Frames*c.Joints {
			t.Fatalf("%s: %d joints, %d rotations for %d frames", c.Name, c.Joints, len(c.Rot), c.Frames)
		}
		for i, q := range c.Rot {
			if l := math.Sqrt(float64(q.W*q.W + q.V.Dot(q.V))); math.Abs(l-1) > 1e-5 {
				t.Fatalf("%s: rotation %d has length %v", c.Name, i, l)
			}
		}
	}
}

// Each loop is seamless: the pose one loop apart is the same (the root
// only moves on by Speed * Period), and cubic-sampled velocities just
// before the loop's end match those just after its start.
func TestClipsLoopSeamlessly(t *testing.T) {
	for _, c := range append(Clips(), Additives()...) {
		start, n := c.Loop()
		f0, f1 := int(math.Round(float64(start/c.FrameTime))), int(math.Round(float64((start+n)/c.FrameTime)))
		speed := float32(0)
		if g, ok := gaits[c.Name]; ok {
			speed = g.Speed
		}
		for j := 0; j < c.Joints; j++ {
			p0, p1 := c.PosAt(f0, j), c.PosAt(f1, j)
			if j == Entity {
				p1 = p1.Sub(mgl32.Vec3{0, 0, speed * n})
			}
			if d := p1.Sub(p0).Len(); d > 1e-5 {
				t.Errorf("%s joint %d: position %v m apart across the loop", c.Name, j, d)
			}
			r := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.Rot[c.At(f1, j)], c.Rot[c.At(f0, j)])))
			if r.Len() > 1e-5 {
				t.Errorf("%s joint %d: rotation %v rad apart across the loop", c.Name, j, r.Len())
			}
		}
		a, b := animsys.NewPose(c.Joints), animsys.NewPose(c.Joints)
		const eps = 1e-5 // s on either side of the seam
		animsys.SampleCubic(&a, &c, start+n-eps)
		animsys.SampleCubic(&b, &c, start+eps)
		for j := 0; j < c.Joints; j++ {
			// Velocities change by at most acceleration * 2 eps across
			// the seam; 0.05 m/s and rad/s allows 2500 m/s^2 (rad/s^2),
			// far above the clips' accelerations, far below a seam's jump.
			if d := a.Vel[j].Sub(b.Vel[j]).Len(); d > 0.05 {
				t.Errorf("%s joint %d: linear velocity jumps %v m/s at the seam", c.Name, j, d)
			}
			if d := a.Ang[j].Sub(b.Ang[j]).Len(); d > 0.05 {
				t.Errorf("%s joint %d: angular velocity jumps %v rad/s at the seam", c.Name, j, d)
			}
		}
	}
}

// The feet stay near the floor: over each loop the lowest of the foot and
// toe joints is within a few centimetres of y = 0, never far below it.
func TestFeetStayNearTheFloor(t *testing.T) {
	sk := Humanoid()
	local, global := animsys.NewPose(NumJoints), animsys.NewPose(NumJoints)
	for _, c := range Clips() {
		start, n := c.Loop()
		lowest, highest := float32(math.Inf(1)), float32(math.Inf(-1))
		for k := 0; k < 60; k++ {
			animsys.SampleCubic(&local, &c, start+n*float32(k)/60)
			animsys.FKStatic(&global, &local, sk.Parents)
			low := float32(math.Inf(1))
			for _, j := range []int{LeftFoot, LeftToe, RightFoot, RightToe} {
				low = min(low, global.Pos[j][1])
			}
			lowest, highest = min(lowest, low), max(highest, low)
		}
		if lowest < -0.04 || highest > 0.15 {
			t.Errorf("%s: the lower foot's height ranges over [%.3f, %.3f] m, want within [-0.04, 0.15]", c.Name, lowest, highest)
		}
	}
}
