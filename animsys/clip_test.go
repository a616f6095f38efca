package animsys

import (
	"testing"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// A clip's positions and scales read back as written, whichever joints got
// a track; Prepare keeps a track only for a joint that changes, and then
// samples as before (the same bits as the unprepared clip).
func TestClipTracks(t *testing.T) {
	const frames, joints = 6, 4
	c := NewClip("t", frames, joints, 0.1)
	want := func(f, j int) (mgl32.Vec3, mgl32.Vec3) {
		p, s := mgl32.Vec3{float32(j), 1, 0}, mgl32.Vec3{1, 1, 1}
		switch j {
		case 1: // moves
			p[2] = float32(f * f)
		case 2: // set frame by frame, but to one value
		case 3: // scales
			s = s.Mul(1 + 0.1*float32(f))
		}
		return p, s
	}
	for f := 0; f < frames; f++ {
		for j := 0; j < joints; j++ {
			p, s := want(f, j)
			c.SetPos(f, j, p)
			c.SetScl(f, j, s)
		}
	}
	plain := c // shares the tracks; Prepare below makes new ones
	c.Prepare()
	for f := 0; f < frames; f++ {
		for j := 0; j < joints; j++ {
			p, s := want(f, j)
			if c.PosAt(f, j) != p || c.SclAt(f, j) != s || plain.PosAt(f, j) != p {
				t.Fatalf("frame %d joint %d: %v %v, want %v %v", f, j, c.PosAt(f, j), c.SclAt(f, j), p, s)
			}
		}
	}
	if len(c.pos.joints) != 1 || c.pos.joints[0] != 1 || len(c.scl.joints) != 1 || c.scl.joints[0] != 3 {
		t.Fatalf("tracks: positions %v, scales %v; want [1] and [3]", c.pos.joints, c.scl.joints)
	}
	if !c.prepared() {
		t.Fatal("no sampling cache")
	}
	a, b := NewPose(joints), NewPose(joints)
	for _, tm := range []float32{-0.05, 0, 0.137, 0.25, 0.49, 0.5, 0.7} {
		SampleCubic(&a, &c, tm)
		SampleCubic(&b, &plain, tm)
		for j := 0; j < joints; j++ {
			if a.Kform(j) != b.Kform(j) {
				t.Fatalf("t %v joint %d: prepared %+v, unprepared %+v", tm, j, a.Kform(j), b.Kform(j))
			}
		}
	}

	// CopyJoint copies a tracked and an untracked joint; SetPosAll holds a
	// joint still.
	d := NewClip("d", frames, 2, 0.1)
	d.CopyJoint(0, &c, 3)
	d.CopyJoint(1, &c, 1)
	d.Prepare()
	c.SetPosAll(1, mgl32.Vec3{7, 7, 7})
	c.Prepare()
	for f := 0; f < frames; f++ {
		p1, _ := want(f, 1)
		p3, s3 := want(f, 3)
		if c.PosAt(f, 1) != (mgl32.Vec3{7, 7, 7}) || d.PosAt(f, 0) != p3 || d.SclAt(f, 0) != s3 || d.PosAt(f, 1) != p1 ||
			d.Rot[d.At(f, 0)] != c.Rot[c.At(f, 3)] {
			t.Fatalf("frame %d: held %v, copied %v %v %v", f, c.PosAt(f, 1), d.PosAt(f, 0), d.SclAt(f, 0), d.PosAt(f, 1))
		}
	}
	if len(c.pos.joints) != 0 || len(d.pos.joints) != 1 || len(d.scl.joints) != 1 {
		t.Fatalf("tracks after SetPosAll %v, after CopyJoint %v %v", c.pos.joints, d.pos.joints, d.scl.joints)
	}
}

// After TrackAll, writing any frame allocates nothing, and the clip holds
// what it held.
func TestClipTrackAll(t *testing.T) {
	c := NewClip("w", 4, 3, 0.1)
	c.SetPos(2, 1, mgl32.Vec3{1, 2, 3})
	c.TrackAll()
	for f := 0; f < 4; f++ {
		for j := 0; j < 3; j++ {
			want := mgl32.Vec3{}
			if f == 2 && j == 1 {
				want = mgl32.Vec3{1, 2, 3}
			}
			if c.PosAt(f, j) != want || c.SclAt(f, j) != (mgl32.Vec3{1, 1, 1}) {
				t.Fatalf("frame %d joint %d: %v %v", f, j, c.PosAt(f, j), c.SclAt(f, j))
			}
		}
	}
	v := float32(0)
	if a := testing.AllocsPerRun(100, func() {
		v++
		for j := 0; j < 3; j++ {
			c.SetPos(int(v)%4, j, mgl32.Vec3{v, 0, 0})
			c.SetScl(int(v)%4, j, mgl32.Vec3{v, v, v})
		}
	}); a != 0 {
		t.Errorf("%v allocations writing a frame", a)
	}
}

// TrackAll costs a few allocations whatever the number of joints: one
// per joint copied the layout each time, quadratic in joints (an export of
// 10,000 joints spent half a minute there).
func TestClipTrackAllLinear(t *testing.T) {
	for _, joints := range []int{3, 3000} {
		c := NewClip("wide", 4, joints, 0.1)
		c.SetPos(1, joints-1, mgl32.Vec3{1, 0, 0}) // one joint tracked already
		a := testing.AllocsPerRun(5, func() {
			d := c // a copy: TrackAll must not share the new layout with c
			d.TrackAll()
			if d.PosAt(1, joints-1) != (mgl32.Vec3{1, 0, 0}) || d.PosAt(2, 0) != (mgl32.Vec3{}) {
				t.Fatalf("%d joints: TrackAll changed what the clip holds", joints)
			}
		})
		if a > 12 {
			t.Errorf("%d joints: TrackAll made %v allocations, want a few whatever the joints", joints, a)
		}
		if len(c.pos.joints) != 1 {
			t.Errorf("%d joints: TrackAll on a copy changed the original's tracks: %d", joints, len(c.pos.joints))
		}
	}
}

// A clip whose cache would exceed MaxCacheBytes has none, and samples as
// it would with one.
func TestPrepareCacheBound(t *testing.T) {
	const joints = 64
	frames := MaxCacheBytes/(int(unsafe.Sizeof(rotRec{}))*blocks(joints)) + 2
	c := NewClip("long", frames, joints, 1.0/120)
	for f := 0; f < frames; f++ {
		c.SetPos(f, 0, mgl32.Vec3{float32(f) * 0.01, 1, 0})
		c.Rot[c.At(f, 5)] = mgl32.QuatRotate(float32(f)*0.01, mgl32.Vec3{1, 0, 0})
	}
	c.Prepare()
	if c.prepared() || c.recs != nil {
		t.Fatalf("a %d-frame clip of %d joints has a cache of %d blocks", frames, joints, len(c.recs))
	}
	short := NewClip("short", 600, joints, 1.0/120)
	for f := 0; f < short.Frames; f++ {
		short.SetPos(f, 0, c.PosAt(f, 0))
		short.Rot[short.At(f, 5)] = c.Rot[c.At(f, 5)]
	}
	short.Prepare()
	if !short.prepared() {
		t.Fatal("a short clip has no cache")
	}
	a, b := NewPose(joints), NewPose(joints)
	for _, tm := range []float32{0.01, 1.234, 4.9} {
		SampleCubic(&a, &c, tm)
		SampleCubic(&b, &short, tm)
		for j := 0; j < joints; j++ {
			if a.Kform(j) != b.Kform(j) {
				t.Fatalf("t %v joint %d: uncached %+v, cached %+v", tm, j, a.Kform(j), b.Kform(j))
			}
		}
	}
}
