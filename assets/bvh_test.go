package assets

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/bvh"
)

// Round-trip tolerances of the embedded clips: a position comes back
// within 1e-6 m and a rotation within 1e-6 rad (0.00006 degrees); measured
// 1.2e-7 m and 1.3e-7 rad. bvh.Write prints the shortest decimal that reads
// back as the same float32, so the text itself loses nothing; the error is
// float32's: a value in file units (value/scale, then times scale on the
// way back) and an Euler angle in degrees (float32 holds 180 degrees to
// 1.5e-5 degrees, 2.7e-7 rad), each rounded once.
const (
	roundTripPos = 1e-6 // m
	roundTripRot = 1e-6 // rad
)

// Export the embedded clips, import them and get the same poses: local
// positions and rotations of every joint in every frame, in centimetres,
// metres and inches, with the units detected from the file.
func TestRoundTripEmbeddedClips(t *testing.T) {
	sk := Humanoid()
	for _, units := range []bvh.Units{bvh.Centimetres, bvh.Metres, bvh.Inches} {
		var maxPos, maxRot float64
		for _, c := range Clips() {
			var buf bytes.Buffer
			if err := bvh.Write(&buf, &sk, &c, units.Scale()); err != nil {
				t.Fatal(err)
			}
			f, err := bvh.Parse(&buf, c.Name+".bvh")
			if err != nil {
				t.Fatal(err)
			}
			if u := bvh.DetectUnits(f); u != units {
				t.Errorf("%s in %v: detected %v (height %g)", c.Name, units, u, bvh.Detect(f).Height)
			}
			sk2, c2 := f.Skeleton(units.Scale()), f.Clip(units.Scale(), "")
			if c2.Name != c.Name || c2.Frames != c.Frames || c2.FrameTime != c.FrameTime {
				t.Fatalf("%s: read back %q, %d frames every %g s", c.Name, c2.Name, c2.Frames, c2.FrameTime)
			}
			// The same joints in the same order, each leaf followed by its
			// End Site: LeftToe, LeftToe_End, RightUpLeg, ...
			var names []string
			for j, n := range sk.Names {
				names = append(names, n)
				if j == LeftToe || j == RightToe || j == Head || j == LeftHand || j == RightHand {
					names = append(names, n+"_End")
				}
			}
			if strings.Join(sk2.Names, " ") != strings.Join(names, " ") {
				t.Fatalf("%s: joints %v", c.Name, sk2.Names)
			}
			for j, n := range sk.Names {
				k := slices.Index(sk2.Names, n)
				if p := sk.Parents[j]; p >= 0 && sk2.Names[sk2.Parents[k]] != sk.Names[p] || p < 0 && sk2.Parents[k] >= 0 {
					t.Fatalf("%s: parent of %s", c.Name, n)
				}
				maxPos = max(maxPos, dist(sk.Offsets[j], sk2.Offsets[k]))
				for fr := 0; fr < c.Frames; fr++ {
					a, b := c.At(fr, j), c2.At(fr, k)
					maxPos = max(maxPos, dist(c.PosAt(fr, j), c2.PosAt(fr, k)))
					maxRot = max(maxRot, quatAngle(c.Rot[a], c2.Rot[b]))
				}
			}
		}
		t.Logf("%v: max position error %.2g m, max rotation error %.2g rad", units, maxPos, maxRot)
		if maxPos > roundTripPos || maxRot > roundTripRot {
			t.Errorf("%v: position error %g m (tolerance %g), rotation error %g rad (tolerance %g)",
				units, maxPos, roundTripPos, maxRot, roundTripRot)
		}
	}
}

// The humanoid's layout: six channels on the root Entity and on Hips (its
// position moves), three elsewhere, tips half a bone long.
func TestWriteLayout(t *testing.T) {
	sk := Humanoid()
	c := Clips()[1]
	var buf bytes.Buffer
	if err := bvh.Write(&buf, &sk, &c, bvh.Centimetres.Scale()); err != nil {
		t.Fatal(err)
	}
	f, err := bvh.Parse(&buf, "walk.bvh")
	if err != nil {
		t.Fatal(err)
	}
	six := "Xposition Yposition Zposition Zrotation Xrotation Yrotation"
	for _, j := range f.Joints {
		want := "Zrotation Xrotation Yrotation"
		switch {
		case j.EndSite:
			want = ""
		case j.Name == "Entity" || j.Name == "Hips":
			want = six
		}
		if j.Order() != want {
			t.Errorf("%s: %q, want %q", j.Name, j.Order(), want)
		}
	}
	toe := f.Joints[slices.Index(f.Skeleton(1).Names, "LeftToe_End")]
	if want := sk.Offsets[LeftToe].Mul(50); dist(toe.Offset, want) > 1e-5 {
		t.Errorf("LeftToe_End offset %v, want %v", toe.Offset, want)
	}
}

func dist(a, b mgl32.Vec3) float64 {
	d := a.Sub(b)
	return math.Sqrt(float64(d.Dot(d)))
}

// quatAngle is the angle (rad) between rotations a and b, the shortest
// way, from the chord between them in float64 (as bvh's tests measure it).
func quatAngle(a, b mgl32.Quat) float64 {
	d := [4]float64{float64(a.W - b.W), float64(a.V[0] - b.V[0]), float64(a.V[1] - b.V[1]), float64(a.V[2] - b.V[2])}
	s := [4]float64{float64(a.W + b.W), float64(a.V[0] + b.V[0]), float64(a.V[1] + b.V[1]), float64(a.V[2] + b.V[2])}
	n := min(math.Sqrt(d[0]*d[0]+d[1]*d[1]+d[2]*d[2]+d[3]*d[3]), math.Sqrt(s[0]*s[0]+s[1]*s[1]+s[2]*s[2]+s[3]*s[3]))
	return 4 * math.Asin(min(n/2, 1))
}
