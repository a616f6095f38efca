package bvh

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

func indexOf(names []string, n string) int {
	for i, m := range names {
		if m == n {
			return i
		}
	}
	return -1
}

func dist(a, b mgl32.Vec3) float64 {
	d := a.Sub(b)
	return math.Sqrt(float64(d.Dot(d)))
}

// Parse, Write, Parse: End Sites come back as End Sites, and a file in
// ZXY order keeps its values (to float32 rounding of the rotations).
func TestWriteStable(t *testing.T) {
	f := mustParse(t, "testdata/basic.bvh")
	write := func(f *File) []byte {
		sk, c := f.Skeleton(1), f.Clip(1, "")
		var buf bytes.Buffer
		if err := Write(&buf, &sk, &c, 1); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	first := write(f)
	g, err := Parse(bytes.NewReader(first), "first.bvh")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Joints) != len(f.Joints) || g.EndSites() != 2 || g.Frames != 3 || g.FrameTime != f.FrameTime {
		t.Fatalf("read back %d joints, %d End Sites, %d frames, %g s", len(g.Joints), g.EndSites(), g.Frames, g.FrameTime)
	}
	for i, v := range f.Motion {
		if math.Abs(float64(v-g.Motion[i])) > 1e-4 {
			t.Fatalf("value %d: %g, read back %g\n%s", i, v, g.Motion[i], first)
		}
	}
	if !strings.Contains(string(first), "\t\tJOINT Head\n\t\t{\n\t\t\tOFFSET 0 15 0\n\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n\t\t\tEnd Site\n\t\t\t{\n\t\t\t\tOFFSET 0 8 0\n\t\t\t}\n") {
		t.Fatalf("layout:\n%s", first)
	}
}

func TestWriteErrors(t *testing.T) {
	good := func() (animsys.Skeleton, animsys.Clip) {
		sk := animsys.Skeleton{Names: []string{"a", "b"}, Parents: []int{-1, 0}, Offsets: make([]mgl32.Vec3, 2)}
		return sk, animsys.NewClip("c", 2, 2, 0.1)
	}
	for _, tc := range []struct {
		name  string
		edit  func(*animsys.Skeleton, *animsys.Clip)
		scale float32
		want  string
	}{
		{"bad parents", func(sk *animsys.Skeleton, c *animsys.Clip) { sk.Parents[0] = 1 }, 1, "parent"},
		{"no joints", func(sk *animsys.Skeleton, c *animsys.Clip) { *sk = animsys.Skeleton{}; c.Joints = 0 }, 1, "no joints"},
		{"joints differ", func(sk *animsys.Skeleton, c *animsys.Clip) { c.Joints = 3 }, 1, "has 3 joints"},
		{"short clip", func(sk *animsys.Skeleton, c *animsys.Clip) { c.Frames = 3 }, 1, "need 6"},
		{"frame time", func(sk *animsys.Skeleton, c *animsys.Clip) { c.FrameTime = 0 }, 1, "frame time"},
		{"scale", func(sk *animsys.Skeleton, c *animsys.Clip) {}, -1, "scale"},
		{"huge offset", func(sk *animsys.Skeleton, c *animsys.Clip) { sk.Offsets[1][0] = 1e38 }, 0.01, "offset"},
		{"nan position", func(sk *animsys.Skeleton, c *animsys.Clip) {
			p := c.PosAt(1, 1)
			p[1] = float32(math.NaN())
			c.SetPos(1, 1, p)
		}, 1, "position"},
		{"zero rotation", func(sk *animsys.Skeleton, c *animsys.Clip) { c.Rot[2] = mgl32.Quat{} }, 1, "rotation"},
	} {
		sk, c := good()
		tc.edit(&sk, &c)
		err := Write(&bytes.Buffer{}, &sk, &c, tc.scale)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error about %s", tc.name, err, tc.want)
		}
	}
	sk, c := good()
	if err := Write(&bytes.Buffer{}, &sk, &c, 1); err != nil {
		t.Fatal(err)
	}
}

// Names lose what would break the file; empty ones get a name.
func TestWriteNames(t *testing.T) {
	sk := animsys.Skeleton{Names: []string{" a{b}\r\nc ", ""}, Parents: []int{-1, 0}, Offsets: make([]mgl32.Vec3, 2)}
	c := animsys.NewClip("c", 1, 2, 0.1)
	var buf bytes.Buffer
	if err := Write(&buf, &sk, &c, 1); err != nil {
		t.Fatal(err)
	}
	f, err := Parse(&buf, "")
	if err != nil {
		t.Fatal(err)
	}
	if f.Joints[0].Name != "a_b___c" || f.Joints[1].Name != "Joint1" || f.Joints[2].Name != "Joint1_End" {
		t.Fatalf("%+v", f.Joints)
	}
}

// A skeleton not in depth-first order, with two roots, is written depth
// first and reads back with the same parents and poses.
func TestWriteReorders(t *testing.T) {
	sk := animsys.Skeleton{
		Names:   []string{"a", "b", "c", "d", "prop"},
		Parents: []int{-1, 0, 0, 1, -1},
		Offsets: []mgl32.Vec3{{0, 1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, -1, 0}, {2, 0, 0}},
	}
	c := animsys.NewClip("c", 2, 5, 0.1)
	for f := range 2 {
		for j := range 5 {
			c.SetPos(f, j, sk.Offsets[j])
			c.Rot[c.At(f, j)] = mgl32.QuatRotate(float32(f+j)/3, mgl32.Vec3{1, 2, 3}.Normalize())
		}
	}
	c.SetPos(1, 3, mgl32.Vec3{0, -1.5, 0}) // d stretches: six channels
	var buf bytes.Buffer
	if err := Write(&buf, &sk, &c, 1); err != nil {
		t.Fatal(err)
	}
	f, err := Parse(&buf, "")
	if err != nil {
		t.Fatal(err)
	}
	sk2, c2 := f.Skeleton(1), f.Clip(1, "")
	if got := strings.Join(sk2.Names, " "); got != "a b d d_End c c_End prop prop_End" {
		t.Fatalf("joints %s", got)
	}
	if f.Joints[2].Order() != "Xposition Yposition Zposition Zrotation Xrotation Yrotation" || f.Roots() != 2 {
		t.Fatalf("d: %s, %d roots", f.Joints[2].Order(), f.Roots())
	}
	for j, n := range sk.Names {
		k := indexOf(sk2.Names, n)
		if p := sk.Parents[j]; p >= 0 && sk2.Names[sk2.Parents[k]] != sk.Names[p] {
			t.Errorf("parent of %s", n)
		}
		for fr := range 2 {
			a, b := c.At(fr, j), c2.At(fr, k)
			if dist(c.PosAt(fr, j), c2.PosAt(fr, k)) > 1e-6 || quatAngle(c.Rot[a], c2.Rot[b]) > 1e-6 {
				t.Errorf("frame %d joint %s: %v %v, read back %v %v", fr, n, c.PosAt(fr, j), c.Rot[a], c2.PosAt(fr, k), c2.Rot[b])
			}
		}
	}
}
