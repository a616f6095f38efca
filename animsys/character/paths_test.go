package character_test

import (
	"kinelab/animsys/character"
	"kinelab/assets"
	"testing"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/internal/fixture"
	"kinelab/internal/mocap"
)

// reachSpan is, over every frame of clip Start (root at the origin, as the
// labs play it) and 64 points around path p (carried by its joint, as the
// labs carry it), the least and greatest distance from chain j's root to
// the target, over the chain's length on that frame.
func reachSpan(ch *character.Character, j animsys.TwoBoneJoints, p character.Path) (near, far float32) {
	near = 10
	for fr := 0; fr < ch.Clips[ch.Start].Frames; fr++ {
		pose := ch.RootPose(fr)
		frame := animsys.KformIdentity()
		if p.Joint >= 0 {
			frame = pose.Kform(p.Joint)
		}
		l := character.BoneLength(&pose, j)
		for k := 0; k < 64; k++ {
			at := p.Target(frame, float32(k)/64*2*3.14159265/p.Rate)
			d := at.Pos.Sub(pose.Pos[j.Root]).Len() / l
			near, far = min(near, d), max(far, d)
		}
	}
	return near, far
}

// checkReach: both IK chains were found and their targets stay within 85%
// of the chain's reach and beyond 30% of it on every frame of the clip the
// lab opens on (two-bone IK is singular at full reach, and folds flat near
// the root), in front of the figure.
func checkReach(t *testing.T, name string, ch *character.Character) {
	t.Helper()
	for _, c := range []struct {
		what string
		j    animsys.TwoBoneJoints
		p    character.Path
	}{{"leg", ch.Leg, ch.LegPath}, {"arm", ch.Arm, ch.ArmPath}} {
		if c.j.Root < 0 {
			t.Errorf("%s: no %s chain", name, c.what)
			continue
		}
		near, far := reachSpan(ch, c.j, c.p)
		t.Logf("%s: %s target at %.0f%%-%.0f%% of its reach", name, c.what, 100*near, 100*far)
		if far > 0.85 || near < 0.3 {
			t.Errorf("%s: the %s target comes within %.0f%% and goes out to %.0f%% of the chain's reach; want 30%%-85%%",
				name, c.what, 100*near, 100*far)
		}
		pose := ch.RootPose(0)
		frame := animsys.KformIdentity()
		if c.p.Joint >= 0 {
			frame = pose.Kform(c.p.Joint)
		}
		centre := animsys.KformMulPos(frame, c.p.Center).Sub(pose.Pos[c.j.Root])
		if centre.Dot(ch.Facing) <= 0 {
			t.Errorf("%s: the %s path's centre is %v from the chain's root, not in front (facing %v)", name, c.what, centre, ch.Facing)
		}
	}
	if ch.Head >= 0 {
		pose := ch.RootPose(0)
		frame := animsys.KformIdentity()
		if ch.LookPath.Joint >= 0 {
			frame = pose.Kform(ch.LookPath.Joint)
		}
		head := pose.Pos[ch.Head]
		goal := animsys.KformMulPos(frame, ch.LookPath.At(0)).Sub(head)
		if goal.Dot(ch.Facing) < 0.8*goal.Len() || goal.Len() < ch.HipsHeight {
			t.Errorf("%s: the look-at goal is %v from the head, not well ahead of it (facing %v)", name, goal, ch.Facing)
		}
	}
}

// TestPathsInReach: the IK and look-at targets are fitted to every
// exporter convention's figure and every real capture, and the default
// character's own paths are in reach of its chains.
func TestPathsInReach(t *testing.T) {
	checkReach(t, "default", assets.Character())
	dir := t.TempDir()
	for _, s := range fixture.All() {
		ch, err := character.Load([]string{fixture.File(t, dir, s)}, bvh.ReadOptions{})
		if ch == nil {
			t.Fatalf("%s: %v", s, err)
		}
		checkReach(t, s.String(), ch)
	}
	for _, path := range mocap.Files() {
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if ch == nil {
			t.Fatalf("%s: %v", path, err)
		}
		checkReach(t, mocap.Base(path), ch)
	}
}
