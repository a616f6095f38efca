package character

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/bvh"
	"kinelab/animsys/humanoid"
	"kinelab/internal/fixture"
	"kinelab/internal/mocap"
)

// The views frame a character by its extent over its clip (Height, Size,
// Middle), not by one frame: a clip whose first or last frame flings a
// hand metres away (a glitch in its channels) is framed as the same clip
// without it, within 2%, where framing by the first frame saw a figure
// 7 m large and put the camera 4 times as far.
func TestFramingOutlierFrame(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []fixture.Spec{fixture.Mixamo(), fixture.Bandai()} {
		path := fixture.File(t, dir, s)
		clean, err := Load([]string{path}, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c := &clean.Clips[clean.Start]
		for _, fr := range []int{0, c.Frames - 1} {
			ch, err := Load([]string{path}, bvh.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c := &ch.Clips[ch.Start]
			hand := ch.Figure.Arms[humanoid.Left].End
			c.SetPos(fr, hand, c.PosAt(fr, hand).Add(mgl32.Vec3{5, 5, 5}))
			c.Prepare()
			pos, _ := humanoid.ClipFrames(&ch.Skel, c, c.Frames)
			if d := pos[fr][hand].Sub(pos[fr][ch.Hips]).Len(); d < 5 {
				t.Fatalf("%s: frame %d: the hand is %.2f m from the hips; the outlier did not take", s, fr, d)
			}
			ch.standing()
			near := func(a, b float32) bool { return a >= 0.98*b && a <= 1.02*b }
			if !near(ch.Size, clean.Size) || !near(ch.Height, clean.Height) || ch.Middle.Sub(clean.Middle).Len() > 0.02*clean.Size {
				t.Errorf("%s: frame %d flung: size %.3f, height %.3f, middle %v; without it %.3f, %.3f, %v",
					s, fr, ch.Size, ch.Height, ch.Middle, clean.Size, clean.Height, clean.Middle)
			}
		}
	}
}

// Every locomotion capture stands on the joints above its hips (the
// Entity, and Bandai's static joint_Root wherever the run passes it): they
// are ground, no bone of the body, and the figure is framed at its own
// size. Five Bandai runs and dashes, leaning into the run, read a joint
// above their hips as part of the body (four were framed 3.4-5.1 m large).
func TestLocomotionRootsOnGround(t *testing.T) {
	for _, path := range mocap.NeedLocomotion(t) {
		ch, err := Load([]string{path}, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for a := ch.Skel.Parents[ch.Hips]; a >= 0; a = ch.Skel.Parents[a] {
			if !ch.Figure.Ground[a] {
				t.Errorf("%s: %s, above the hips, is read as part of the body", ch.Name, ch.Skel.Names[a])
			}
		}
		if ch.Size < 1 || ch.Size > 2.1 {
			t.Errorf("%s: framed at a size of %.2f m; want 1-2.1 m", ch.Name, ch.Size)
		}
	}
}
