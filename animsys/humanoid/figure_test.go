package humanoid

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/internal/fixture"
)

func TestSideOf(t *testing.T) {
	for _, c := range []struct {
		name string
		side Side
		ok   bool
	}{
		{"LeftFoot", Left, true}, {"mixamorig:RightHand", Right, true}, {"Character1_LeftArm", Left, true},
		{"LFoot", Left, true}, {"RThumb", Right, true}, {"lFoot", Left, true}, {"rShin", Right, true},
		{"Bip01 L Foot", Left, true}, {"Bip01 R Thigh", Right, true}, {"l_foot", Left, true}, {"R_Hand", Right, true},
		{"foot_l", Left, true}, {"Foot_R", Right, true}, {"foot.L", Left, true}, {"hand-r", Right, true},
		{"Hips", Left, false}, {"LowerBack", Left, false}, {"Head", Left, false}, {"lowerneck", Left, false},
		{"RHipJoint", Right, true}, {"L", Left, false}, {"Ribs", Left, false}, {"Left_Right", Left, false},
	} {
		s, ok := SideOf(c.name)
		if ok != c.ok || (ok && s != c.side) {
			t.Errorf("SideOf(%q) = %v, %v; want %v, %v", c.name, s, ok, c.side, c.ok)
		}
	}
}

// design returns a fixture's joints (End Sites too) and their design-pose
// positions, as one frame.
func design(s fixture.Spec) (parents []int, names []string, frame []mgl32.Vec3) {
	for _, j := range s.Joints {
		parents, names, frame = append(parents, j.Parent), append(names, j.Name), append(frame, j.Pos)
	}
	return parents, names, frame
}

// TestClassifyConventions: every exporter convention's feet, hands, head,
// hips and knees are found by name; stripped of names, by the tree's shape,
// the same joints.
func TestClassifyConventions(t *testing.T) {
	for _, s := range fixture.All() {
		parents, names, frame := design(s)
		f, err := Classify(parents, names, [][]mgl32.Vec3{frame})
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		name := func(j int) string {
			if j < 0 {
				return "(none)"
			}
			return strings.ToLower(names[j])
		}
		for side := Left; side <= Right; side++ {
			for _, c := range []struct {
				l     Limb
				words []string
			}{{f.Legs[side], []string{"foot", "ankle"}}, {f.Arms[side], []string{"hand", "wrist"}}} {
				if !hasAny(name(c.l.End), c.words) {
					t.Errorf("%s: %s extremity %s, want one of %v", s, side, name(c.l.End), c.words)
				}
				if sd, ok := SideOf(names[c.l.End]); !ok || sd != side {
					t.Errorf("%s: %s extremity %s is on the %v side", s, side, name(c.l.End), sd)
				}
				if c.l.Upper < 0 || c.l.Mid < 0 || parents[c.l.End] < 0 {
					t.Errorf("%s: %s limb without a two-bone chain: %+v", s, side, c.l)
				}
			}
		}
		if !strings.Contains(name(f.Head), "head") || !f.ByName {
			t.Errorf("%s: head %s, by name %v", s, name(f.Head), f.ByName)
		}
		if k := name(f.Legs[Left].Mid); !hasAny(k, []string{"leg", "knee", "shin", "calf"}) || strings.Contains(k, "up") {
			t.Errorf("%s: left knee %s", s, k)
		}
		// Without names, by shape: the same extremities and chains.
		g, err := Classify(parents, nil, [][]mgl32.Vec3{frame})
		if err != nil {
			t.Errorf("%s without names: %v", s, err)
			continue
		}
		if g.ByName || g.Hips != f.Hips || !sameLimbs(g, f, parents) {
			t.Errorf("%s without names: hips %s legs %v %v, by name: hips %s legs %v %v", s,
				name(g.Hips), name(g.Legs[0].End), name(g.Legs[1].End), name(f.Hips), name(f.Legs[0].End), name(f.Legs[1].End))
		}
	}
}

// sameLimbs reports whether figures a (read by shape) and b (by name)
// found the same limbs, chest and head.
func sameLimbs(a, b Figure, parents []int) bool {
	for s := range a.Legs {
		if a.Legs[s].End != b.Legs[s].End || a.Arms[s].End != b.Arms[s].End || a.Legs[s].Mid != b.Legs[s].Mid || a.Arms[s].Mid != b.Arms[s].Mid {
			return false
		}
	}
	// Without names a leaf head (no End Site above it) reads as the joint
	// below it: which leaf is an End Site, the tree does not say.
	return a.Chest == b.Chest && (a.Head == b.Head || a.Head >= 0 && b.Head >= 0 && a.Head == parents[b.Head])
}

// A skeleton that is no figure gets an error saying what its shape is: a
// chain standing on its root has no limb on the ground.
func TestClassifyNotAFigure(t *testing.T) {
	chain := []int{-1, 0, 1, 2}
	frame := []mgl32.Vec3{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 3, 0}}
	want := "no limb of the body reaches the ground; its lowest joints (d) stay 100% of its height above the ground"
	if _, err := Classify(chain, []string{"a", "b", "c", "d"}, [][]mgl32.Vec3{frame}); err == nil || err.Error() != want {
		t.Errorf("a chain: %v, want %q", err, want)
	}
	if _, err := Classify(chain, nil, nil); err == nil {
		t.Error("no frames accepted")
	}
}

// TestBindPose: from the design pose turned to lie along Z and face
// anywhere, the bind pose stands on +Y facing +Z, with every bone's length
// kept, every joint where its parent's rotation puts it, legs straight
// down and apart, arms out and down, feet forward.
func TestBindPose(t *testing.T) {
	for _, s := range fixture.All() {
		parents, names, frame := design(s)
		f, err := Classify(parents, names, [][]mgl32.Vec3{frame})
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		// A pose: the design pose lying on its back along Z, turned 2 rad.
		q := mgl32.QuatRotate(2, mgl32.Vec3{0, 0, 1}).Mul(mgl32.QuatRotate(-math.Pi/2, mgl32.Vec3{1, 0, 0}))
		pos, rot := make([]mgl32.Vec3, len(frame)), make([]mgl32.Quat, len(frame))
		for j := range frame {
			pos[j], rot[j] = q.Rotate(frame[j]), q
		}
		bp, br := f.BindPose(parents, pos, rot)
		for j, p := range parents {
			if p < 0 {
				continue
			}
			if d := bp[j].Sub(bp[p]).Len() - pos[j].Sub(pos[p]).Len(); math.Abs(float64(d)) > 1e-4 {
				t.Errorf("%s: bone %s changed length by %v m", s, names[j], d)
			}
			// Rigid: the bone seen from its parent's frame is as it was.
			was := rot[p].Inverse().Rotate(pos[j].Sub(pos[p]))
			now := br[p].Inverse().Rotate(bp[j].Sub(bp[p]))
			if now.Sub(was).Len() > 1e-4 {
				t.Errorf("%s: bone %s is %v in its parent's frame, was %v", s, names[j], now, was)
			}
		}
		dir := func(a, b int) mgl32.Vec3 { return bp[b].Sub(bp[a]).Normalize() }
		if d := dir(f.Hips, f.top()); d[1] < 0.99 {
			t.Errorf("%s: spine points %v, want up", s, d)
		}
		for side, sign := range [2]float32{1, -1} {
			leg, arm := f.Legs[side], f.Arms[side]
			for _, d := range []mgl32.Vec3{dir(leg.Upper, leg.Mid), dir(leg.Mid, leg.End)} {
				if d[1] > -0.9 || d[0]*sign < 0.1 || math.Abs(float64(d[2])) > 1e-3 {
					t.Errorf("%s: %v leg bone points %v, want down and out", s, Side(side), d)
				}
			}
			if leg.Tip >= 0 {
				if d := dir(leg.End, leg.Tip); d[2] < 0.9 {
					t.Errorf("%s: %v foot points %v, want forward", s, Side(side), d)
				}
			}
			want := mgl32.Vec3{sign * cos(armDrop), -sin(armDrop), 0}
			for _, d := range []mgl32.Vec3{dir(arm.Upper, arm.Mid), dir(arm.Mid, arm.End)} {
				if d.Sub(want).Len() > 1e-3 {
					t.Errorf("%s: %v arm bone points %v, want %v", s, Side(side), d, want)
				}
			}
		}
	}
}
