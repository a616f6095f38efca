package velocities

import (
	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/animtest"
	"kinelab/internal/fixture"
	"kinelab/internal/mocap"
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/internal/apptest"
)

// A BVH character runs through the lab with red and blue agreeing as for
// the default character.
func TestLabOnBVHCharacter(t *testing.T) {
	dir := t.TempDir()
	walk, run := animtest.WriteDefaultBVH(t, dir, "walk"), animtest.WriteDefaultBVH(t, dir, "run")
	ch, err := character.Load([]string{walk, run}, bvh.ReadOptions{})
	if ch == nil || err != nil {
		t.Fatalf("no character: %v", err)
	}
	l := newLab(ch)
	l.S.LookAt, l.S.IK, l.S.Additive = true, true, true
	var worst float32
	for i := 0; i < 600; i++ {
		l.Update(1.0 / 60)
		if !apptest.PoseFinite(&l.global) || !mathx.Finite(l.Max) {
			t.Fatalf("tick %d: non-finite pose", i)
		}
		if l.Event == "" && i > 1 {
			worst = max(worst, l.Mean)
		}
	}
	// Mean |red - blue| (m/s) as for the default character (~0.05).
	if worst > 0.5 {
		t.Errorf("BVH character: mean |red-blue| up to %v m/s", worst)
	}
}

// A character from a file whose root is the pelvis (an Entity root added
// below it, carrying the root motion) runs with look-at and IK on and
// stays finite.
func TestLabOnPelvisRootCharacter(t *testing.T) {
	ch, err := character.Load([]string{"../../../animsys/bvh/testdata/basic.bvh"}, bvh.ReadOptions{})
	if ch == nil || err != nil {
		t.Fatalf("basic.bvh: %v", err)
	}
	l := newLab(ch)
	l.S.LookAt, l.S.IK = true, true
	for i := 0; i < 300; i++ {
		l.Update(1.0 / 60)
		if !apptest.PoseFinite(&l.global) || !mathx.Finite(l.Max) {
			t.Fatalf("tick %d: non-finite pose", i)
		}
	}
}

// TestPlayModesMarkEnds: a clip that does not loop seamlessly marks the
// tick it crosses its end, and only that tick, in each play mode: a wrap
// each time round, a turn at each end of ping-pong, one end when clamped
// (after which the pose rests and red and blue are both zero). Away from
// those ticks red and blue agree as on the rest of the clip.
func TestPlayModesMarkEnds(t *testing.T) {
	ch := apptest.FixtureCharacter(t, fixture.Mixamo()) // a 2 s walk, no loop markers
	for _, c := range []struct {
		mode  animsys.PlayMode
		event string
	}{{animsys.PlayLoop, "wrap"}, {animsys.PlayPingPong, "turn"}, {animsys.PlayClamp, "end"}} {
		l := newLab(ch)
		l.S.Play = c.mode
		n := loopLen(&l.clips[0])
		ticks := int(2.5 * n * 60)
		events, unmarked := 0, []float32{}
		afterEnd := float32(0) // max |red - blue| once clamped
		for i := 0; i < ticks; i++ {
			l.Update(1.0 / 60)
			switch {
			case l.Event == c.event:
				events++
			case l.Event != "":
				t.Errorf("%v: tick %d: event %q", c.mode, i, l.Event)
			case events > 0 && c.mode == animsys.PlayClamp:
				afterEnd = max(afterEnd, l.Max)
			case i > 0:
				unmarked = append(unmarked, l.Mean)
			}
		}
		want := int(2.5 * n * 60 / (n * 60))
		if c.mode == animsys.PlayClamp {
			want = 1
		}
		if events != want {
			t.Errorf("%v: %d %q events in %.1f s of a %.2f s clip, want %d", c.mode, events, c.event, 2.5*n, n, want)
		}
		if afterEnd != 0 {
			t.Errorf("clamped: red and blue differ by up to %v after the end, want a pose at rest", afterEnd)
		}
		slices.Sort(unmarked)
		if med, top := unmarked[len(unmarked)/2], unmarked[len(unmarked)-1]; top > 5*med+0.05 {
			t.Errorf("%v: unmarked ticks' mean |red - blue| up to %.3f m/s, median %.3f", c.mode, top, med)
		}
	}
}

// TestMocapRedBlue: on every real file, in every play mode, red and blue
// agree away from the marked ticks as a first-order finite difference
// should: their mean difference falls at least three times when the tick
// is ten times shorter (a wrong propagated velocity would not fall). Not
// ten times: a 60 Hz tick spans two frames of a 120 fps capture, whose
// accelerations (a cubic's jump at every frame, and mocap's are noisy)
// partly cancel in the backward difference; at 600 Hz it sees each.
func TestMocapRedBlue(t *testing.T) {
	for _, path := range mocap.Need(t) {
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []animsys.PlayMode{animsys.PlayLoop, animsys.PlayClamp, animsys.PlayPingPong} {
			var means [2]float64
			for k, hz := range []float32{60, 600} {
				l := newLab(ch)
				l.S.Play = mode
				dur := min(1.2*loopLen(&l.clips[0]), 12)
				sum, cnt := 0.0, 0
				for i := 0; i < int(dur*hz); i++ {
					l.Update(1 / hz)
					if i > 0 && l.Event == "" {
						sum += float64(l.Mean)
						cnt++
					}
				}
				means[k] = sum / float64(cnt)
			}
			t.Logf("%s %v: mean |red - blue| %.4f m/s at 60 Hz, %.4f at 600 Hz (%.1fx)", mocap.Base(path), mode, means[0], means[1], means[0]/means[1])
			if means[1] > means[0]/3 {
				t.Errorf("%s %v: mean |red - blue| %.4f m/s at 60 Hz, %.4f at 600 Hz", mocap.Base(path), mode, means[0], means[1])
			}
		}
	}
}

// TestDataJumpMarked: a joint that flips 170 degrees for one frame of the
// clip (a capture glitch) marks the ticks whose samples read it as "data
// jump" events; the largest |red - blue| of the run is on one of them, and
// no tick far from it is marked.
func TestDataJumpMarked(t *testing.T) {
	ch := apptest.FixtureCharacter(t, fixture.Mixamo())
	c := &ch.Clips[0]
	const bad = 30 // frame
	j := ch.Arm.Mid
	flip := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 0, 170 * math.Pi / 180})
	c.Rot[c.At(bad, j)] = mathx.QuatMul(flip, c.Rot[c.At(bad, j)])
	c.Prepare()
	l := newLab(ch)
	worst, worstEvent := float32(0), ""
	marked := 0
	for i := 0; i < int(loopLen(c)*60)-2; i++ {
		l.Update(1.0 / 60)
		frame := l.clipTime(l.cur, l.tCur, l.S.Play) / c.FrameTime
		if l.Event == "data jump" {
			marked++
			if frame < bad-4 || frame > bad+5 {
				t.Errorf("tick %d at frame %.1f marked, %d frames from the jump", i, frame, int(frame)-bad)
			}
		}
		if i > 0 && l.Mean > worst {
			worst, worstEvent = l.Mean, l.Event
		}
	}
	if marked == 0 || worstEvent != "data jump" {
		t.Errorf("%d ticks marked; the largest |red - blue| (%.2f m/s) is on a tick marked %q", marked, worst, worstEvent)
	}
}
