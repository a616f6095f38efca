package bvh

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx/mathx64"
)

// quatAngle is the angle (radians) between the rotations a and b, sign
// ignored, computed without acos's loss of precision near 0.
func quatAngle(a, b mgl32.Quat) float64 {
	d := [4]float64{float64(a.W - b.W), float64(a.V[0] - b.V[0]), float64(a.V[1] - b.V[1]), float64(a.V[2] - b.V[2])}
	s := [4]float64{float64(a.W + b.W), float64(a.V[0] + b.V[0]), float64(a.V[1] + b.V[1]), float64(a.V[2] + b.V[2])}
	n := min(math.Sqrt(d[0]*d[0]+d[1]*d[1]+d[2]*d[2]+d[3]*d[3]), math.Sqrt(s[0]*s[0]+s[1]*s[1]+s[2]*s[2]+s[3]*s[3]))
	return 4 * math.Asin(min(n/2, 1))
}

var axes = [3]mgl32.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// Each joint's rotation is the product of its channels in the listed order.
func TestChannelOrders(t *testing.T) {
	f := mustParse(t, "testdata/channel_orders.bvh")
	c := f.Clip(0.01, "")
	if c.Name != "channel_orders" || c.Frames != 2 || c.Joints != 6 || c.FrameTime != 0.0083333 {
		t.Fatalf("clip %q: %d frames of %d joints every %g s", c.Name, c.Frames, c.Joints, c.FrameTime)
	}
	for fr := 0; fr < c.Frames; fr++ {
		for j := range f.Joints {
			want := mgl32.QuatIdent()
			for k, ch := range f.Joints[j].Channels {
				if ch.IsRotation() {
					want = want.Mul(mgl32.QuatRotate(mgl32.DegToRad(f.Value(fr, j, k)), axes[ch.Axis()]))
				}
			}
			if a := quatAngle(c.Rot[c.At(fr, j)], want); a > 1e-6 {
				t.Errorf("frame %d joint %s: rotation off by %g rad", fr, f.Joints[j].Name, a)
			}
		}
	}
	// The root's position channels come last and replace OFFSET 1 2 3.
	if p := c.PosAt(0, 0); p.Sub(mgl32.Vec3{0.04, 0.05, 0.06}).Len() > 1e-7 {
		t.Errorf("root position %v", p)
	}
	if p := c.PosAt(1, 3); p != f.Joints[3].Offset.Mul(0.01) {
		t.Errorf("joint C position %v, want its offset", p)
	}
}

// "Zrotation Xrotation Yrotation" 90 90 0 is Rz(90)*Rx(90): it takes +y to
// +z (Rx first turns y to z, which Rz keeps); the other order would give -x.
func TestIntrinsicOrder(t *testing.T) {
	const src = "ROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\nMOTION\nFrames: 1\nFrame Time: 1\n90 90 0\n"
	f, err := Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	c := f.Clip(1, "")
	if v := c.Rot[0].Rotate(mgl32.Vec3{0, 1, 0}); v.Sub(mgl32.Vec3{0, 0, 1}).Len() > 1e-6 {
		t.Fatalf("+y goes to %v, want +z", v)
	}
}

func TestPositionChannels(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []mgl32.Vec3 // the last frame's positions, file units
	}{
		// Spine has only Yposition, Arm Xposition and Zposition: the other
		// components stay at the offset.
		{"joint_positions.bvh", []mgl32.Vec3{{0, 90, 0}, {1, 12, 2}, {22, 0, -3}, {25, 0, 0}}},
		{"six_channels.bvh", []mgl32.Vec3{{5, 91, -2}, {0, 11, 0}, {1, 29, 0}, {0, 20, 0}}},
	} {
		f := mustParse(t, "testdata/"+tc.file)
		c := f.Clip(0.5, "")
		for j, w := range tc.want {
			if p := c.PosAt(c.Frames-1, j); p != w.Mul(0.5) {
				t.Errorf("%s joint %s: %v, want %v", tc.file, f.Joints[j].Name, p, w.Mul(0.5))
			}
		}
		sk := f.Skeleton(0.5)
		if err := sk.Validate(); err != nil || sk.Offsets[1] != f.Joints[1].Offset.Mul(0.5) {
			t.Errorf("%s: skeleton %v, offset %v", tc.file, err, sk.Offsets[1])
		}
	}
}

// A joint spinning about y through 720 degrees keeps its quaternions on
// one side: each frame's is within 90 degrees (dot > 0) of the last.
func TestSignContinuity(t *testing.T) {
	var b strings.Builder
	b.WriteString("ROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\nMOTION\nFrames: 49\nFrame Time: 0.1\n")
	for i := 0; i <= 48; i++ {
		fmt.Fprintf(&b, "5 10 %d\n", 15*i)
	}
	f, err := Parse(strings.NewReader(b.String()), "")
	if err != nil {
		t.Fatal(err)
	}
	c := f.Clip(1, "")
	for i := 1; i < c.Frames; i++ {
		if p, q := c.Rot[i-1], c.Rot[i]; p.Dot(q) <= 0 {
			t.Fatalf("frame %d: %v after %v", i, q, p)
		}
	}
}

func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		in    string
		units Units
		scale float32
	}{{"m", Metres, 1}, {"Meters", Metres, 1}, {"cm", Centimetres, 0.01}, {"centimetres", Centimetres, 0.01}, {" in ", Inches, 0.0254}, {"INCHES", Inches, 0.0254}} {
		u, err := ParseUnits(tc.in)
		if err != nil || u != tc.units || u.Scale() != tc.scale {
			t.Errorf("ParseUnits(%q) = %v, %v", tc.in, u, err)
		}
	}
	if _, err := ParseUnits("ft"); err == nil {
		t.Error("ParseUnits(ft) succeeded")
	}
	// Factors from a micrometre to a kilometre per unit; past them, and
	// a float32 denormal, are refused with the range.
	for in, ok := range map[string]bool{"1e-6": true, "1000": true, "9e-7": false, "1e-40": false, "1001": false} {
		_, err := ParseUnits(in)
		if (err == nil) != ok || err != nil && !strings.Contains(err.Error(), "from 1e-06 to 1000") {
			t.Errorf("ParseUnits(%q): %v; want taken %v", in, err, ok)
		}
	}
	if Metres.String() != "m" || Centimetres.String() != "cm" || Inches.String() != "in" {
		t.Error("String")
	}
	// A 1.6 m figure (the humanoid, see TestRoundTripEmbeddedClips) and a
	// small one in each unit.
	for _, tc := range []struct {
		height float32 // file units
		want   Units
	}{{1.6, Metres}, {0.9, Metres}, {2.2, Metres}, {160, Centimetres}, {110, Centimetres}, {210, Centimetres}, {63, Inches}, {40, Inches}, {85, Inches}} {
		src := fmt.Sprintf("ROOT a\n{\nOFFSET 0 0 0\nEnd Site { OFFSET 0 %g 0 }\n}\nMOTION\nFrames: 0\nFrame Time: 1\n", tc.height)
		f, err := Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatal(err)
		}
		if u := DetectUnits(f); u != tc.want {
			t.Errorf("height %g: %v, want %v", tc.height, u, tc.want)
		}
	}
}

// With every offset zero the rest pose is a point: the first frame
// measures the skeleton.
func TestHeightFirstFrame(t *testing.T) {
	const src = "ROOT a\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\nJOINT b\n{\nOFFSET 0 0 0\n" +
		"CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\nEnd Site { OFFSET 0 0 0 }\n}\n}\n" +
		"MOTION\nFrames: 1\nFrame Time: 1\n0 90 0 0 80 0 0 0 0\n"
	f, err := Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	if d := Detect(f); d.Height != 80 || d.Units != Inches {
		t.Fatalf("height %g, units %v", d.Height, d.Units)
	}
}

// zxy is Rz*Rx*Ry, as a joint with channels Zrotation Xrotation Yrotation
// reads.
func zxy(z, x, y float64) mathx64.Quat {
	return mathx64.QuatZ(z).Mul(mathx64.QuatX(x)).Mul(mathx64.QuatY(y))
}

// eulerZXY recovers Rz*Rx*Ry for random rotations and at and near gimbal
// lock, to float64 precision (2e-8 rad at lock).
func TestEulerZXY(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var qs []mgl32.Quat
	for range 2000 {
		q := mgl32.Quat{W: float32(rng.NormFloat64()), V: mgl32.Vec3{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}}
		qs = append(qs, q.Normalize())
	}
	for _, x := range []float64{math.Pi / 2, -math.Pi / 2} {
		for _, dx := range []float64{0, 1e-9, -1e-9, 1e-7, -1e-7, 1e-4} {
			z, y := rng.Float64()*6-3, rng.Float64()*6-3
			qs = append(qs, zxy(z, x+dx, y).UnitF32())
		}
	}
	qs = append(qs, mgl32.QuatIdent(), mgl32.Quat{W: -1}, mgl32.Quat{V: mgl32.Vec3{0, 0, 1}}, mgl32.Quat{W: 2}) // unnormalised too
	for _, q := range qs {
		z, x, y, ok := eulerZXY(q)
		if !ok || math.Abs(x) > math.Pi/2 {
			t.Fatalf("%v: %g %g %g %v", q, z, x, y, ok)
		}
		g := zxy(z, x, y)
		got := [4]float64{g.W, g.X, g.Y, g.Z}
		w := [4]float64{float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])}
		l := math.Sqrt(w[0]*w[0] + w[1]*w[1] + w[2]*w[2] + w[3]*w[3])
		d, s := 0.0, 0.0
		for k := range 4 {
			d += (got[k] - w[k]/l) * (got[k] - w[k]/l)
			s += (got[k] + w[k]/l) * (got[k] + w[k]/l)
		}
		if a := 4 * math.Asin(math.Sqrt(min(d, s))/2); a > 2e-8 {
			t.Errorf("%v: ZXY %g %g %g is off by %g rad", q, z, x, y, a)
		}
	}
	for _, q := range []mgl32.Quat{{}, {W: float32(math.NaN())}, {W: float32(math.Inf(1))}} {
		if _, _, _, ok := eulerZXY(q); ok {
			t.Errorf("%v accepted", q)
		}
	}
}
