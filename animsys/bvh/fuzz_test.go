package bvh

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// FuzzParse checks that no input panics, that every parsed File is
// consistent, and that a parsed file's clip written back and read again
// gives the same poses (for files small enough to do it quickly).
//
//	go test ./animsys/bvh/ -run '^$' -fuzz FuzzParse -fuzztime 5m -parallel 1
func FuzzParse(f *testing.F) {
	for _, path := range fixtures(f) {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file := checkParse(t, b)
		if file != nil && file.Frames*len(file.Joints) <= 20000 {
			checkRoundTrip(t, file)
		}
	})
}

// checkRoundTrip writes f's clip (scale 1) with Write, parses the output
// and compares: the same frames and frame time, every joint of f in the
// same depth-first place (after the extra End Sites Write adds to leaf
// joints) with its parent, name, offset and, in every frame, position
// within 1e-6 + 1e-6 |p| file units and rotation within 1e-5 rad.
func checkRoundTrip(t *testing.T, f *File) {
	t.Helper()
	sk, c := f.Skeleton(1), f.Clip(1, "")
	var buf bytes.Buffer
	if err := Write(&buf, &sk, &c, 1); err != nil {
		t.Fatalf("Write: %v", err)
	}
	g, err := Parse(bytes.NewReader(buf.Bytes()), "written.bvh")
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, buf.Bytes())
	}
	sk2, c2 := g.Skeleton(1), g.Clip(1, "")
	if c2.Frames != c.Frames || c2.FrameTime != c.FrameTime {
		t.Fatalf("%d frames every %g s, read back %d every %g", c.Frames, c.FrameTime, c2.Frames, c2.FrameTime)
	}
	// Where each joint went: Write keeps the depth-first order and adds an
	// End Site after each leaf that is not one.
	pl := newPlan(&sk, &c)
	at := make([]int, sk.Len())
	k := 0
	for _, j := range pl.order {
		at[j] = k
		k++
		if len(pl.children[j]) == 0 && !pl.endSite[j] {
			k++
		}
	}
	if k != sk2.Len() {
		t.Fatalf("%d joints written as %d, read back %d", sk.Len(), k, sk2.Len())
	}
	for j := range sk.Len() {
		k := at[j]
		p, p2 := sk.Parents[j], sk2.Parents[k]
		if p >= 0 && p2 != at[p] || p < 0 && p2 >= 0 {
			t.Fatalf("joint %d (%q): parent %d, read back %d", j, sk.Names[j], p, p2)
		}
		if !pl.endSite[j] && sk2.Names[k] != cleanName(sk.Names[j], j) {
			t.Fatalf("joint %d: name %q, read back %q", j, sk.Names[j], sk2.Names[k])
		}
		if !near(sk.Offsets[j], sk2.Offsets[k]) {
			t.Fatalf("joint %d (%q): offset %v, read back %v", j, sk.Names[j], sk.Offsets[j], sk2.Offsets[k])
		}
		for fr := range c.Frames {
			a, b := c.At(fr, j), c2.At(fr, k)
			if !near(c.PosAt(fr, j), c2.PosAt(fr, k)) {
				t.Fatalf("frame %d joint %d (%q): position %v, read back %v", fr, j, sk.Names[j], c.PosAt(fr, j), c2.PosAt(fr, k))
			}
			if e := quatAngle(c.Rot[a], c2.Rot[b]); !(e <= 1e-5) {
				t.Fatalf("frame %d joint %d (%q): rotation %v, read back %v, %g rad apart", fr, j, sk.Names[j], c.Rot[a], c2.Rot[b], e)
			}
		}
	}
}

// near compares positions written with six decimals and read back as float32.
func near(a, b mgl32.Vec3) bool {
	for k := range 3 {
		if !(math.Abs(float64(a[k]-b[k])) <= 1e-6+1e-6*math.Abs(float64(a[k]))) {
			return false
		}
	}
	return true
}

// Every fixture that parses survives Write and Parse.
func TestRoundTripFixtures(t *testing.T) {
	for _, path := range fixtures(t) {
		if f, err := parseFile(t, path); err == nil {
			t.Run(path, func(t *testing.T) { checkRoundTrip(t, f) })
		}
	}
}
