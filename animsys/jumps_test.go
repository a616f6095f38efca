package animsys_test

import (
	"kinelab/animsys"
	"kinelab/internal/animtest"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Clean motion, however fast, is not a data jump: swings of 2.5 rad at 3
// Hz (47 rad/s, 1.6 rad a frame at 30 fps), a steady spin of 2.8 rad a
// frame, a joint that starts spinning from rest, a root running at 10 m/s
// at 24 fps.
func TestDetectEventsCleanFastClip(t *testing.T) {
	skel := animtest.ChainSkeleton(5)
	for _, tc := range []struct {
		name string
		fps  float64
		pose func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat)
	}{
		{"swing 47 rad/s at 30 fps", 30, animtest.SmoothMotion(&skel, 1.4, 2.5, 3)},
		{"spin 2.8 rad a frame", 60, func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
			return skel.Offsets[j], animtest.Rot(mgl32.Vec3{0.2, 1, 0}, 2.8*float64(f*j))
		}},
		{"spin from rest", 30, func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
			return skel.Offsets[j], animtest.Rot(mgl32.Vec3{1, 0, 0}, 20*math.Max(0, t-1))
		}},
		{"run 10 m/s at 24 fps", 24, func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
			p := skel.Offsets[j]
			if j == 0 {
				p = mgl32.Vec3{0, 1, float32(10 * t)}
			}
			return p, animtest.Rot(mgl32.Vec3{1, 0, 0}, 0.5*math.Sin(8*t))
		}},
	} {
		c := animtest.SynthClip(tc.name, &skel, 120, tc.fps, tc.pose)
		if ev := animsys.DetectEvents(&skel, c); len(ev) != 0 {
			t.Errorf("%s: flagged %v", tc.name, ev)
		}
	}
}

// A first frame unlike the rest at most joints (a T-pose row, as cgspeed's
// CMU conversions start with) is named as such.
func TestDetectEventsRestFrame(t *testing.T) {
	skel := animtest.ChainSkeleton(6)
	base := animtest.SmoothMotion(&skel, 1.4, 0.3, 1)
	c := animtest.SynthClip("tpose", &skel, 100, 120, func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
		p, r := base(f, j, t)
		if f == 0 && j > 0 {
			r = animtest.Rot(mgl32.Vec3{0, 0, 1}, 0.4+0.1*float64(j)).Mul(r)
		}
		return p, r
	})
	ev := animsys.DetectEvents(&skel, c)
	if len(ev) != 5 {
		t.Fatalf("%d events, want the 5 rotating joints at frame 0: %v", len(ev), ev)
	}
	for _, e := range ev {
		if e.Frame != 0 || !strings.Contains(e.Reason, "frame 0 is unlike its neighbours at 5 joints") {
			t.Errorf("%v", e)
		}
	}
}

// A one-frame 170 degree flip, a zero-pose frame and a root teleport are
// found, at their frames and joints, with a reason naming what they are.
func TestDetectEventsJumps(t *testing.T) {
	skel := animtest.ChainSkeleton(5)
	base := animtest.SmoothMotion(&skel, 1.4, 0.4, 1)
	bend := animtest.Rot(mgl32.Vec3{1, 0, 0.2}, 1) // every joint 0.6 rad or more from identity
	c := animtest.SynthClip("jumps", &skel, 200, 120, func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
		p, r := base(f, j, t)
		r = bend.Mul(r)
		switch {
		case f == 40 && j == 2:
			r = animtest.Rot(mgl32.Vec3{0.3, 0.2, 1}, 170*math.Pi/180).Mul(r)
		case f == 100 && j > 0:
			r = mgl32.QuatIdent()
		case f >= 150 && j == 0:
			p = p.Add(mgl32.Vec3{2, 0, 0})
		}
		return p, r
	})
	ev := animsys.DetectEvents(&skel, c)
	has := func(frame int, joint, reason string) bool {
		for _, e := range ev {
			if e.Frame == frame && e.Joint == joint && strings.Contains(e.Reason, reason) {
				return true
			}
		}
		return false
	}
	for _, w := range []struct {
		frame         int
		joint, reason string
	}{
		{39, "j2", "near-180 degree flip"}, {40, "j2", "near-180 degree flip"},
		{99, "j1", "frame 100 is a zero pose"}, {100, "j3", "frame 100 is a zero pose"},
		{149, "j0", "teleport"},
	} {
		if !has(w.frame, w.joint, w.reason) {
			t.Errorf("no event at frame %d %s (%s); found:\n%v", w.frame, w.joint, w.reason, ev)
		}
	}
	for _, e := range ev {
		if e.Frame < 39 || (e.Frame > 40 && e.Frame < 99) || (e.Frame > 100 && e.Frame != 149) {
			t.Errorf("unexpected event %v", e)
		}
	}
}
