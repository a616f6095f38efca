package animsys

import (
	"fmt"
	"math"
	"sort"

	"kinelab/animsys/mathx"
)

// Data jumps.
//
// The article samples animation data assuming it "is clean and does not
// contain teleports, resets, sudden jumps, or other pops". Real captures
// sometimes do: a joint that flips by nearly 180 degrees for one frame, a
// frame of zero rotations, a root that teleports. Sampling across such a
// frame gives velocities of hundreds of rad/s that are true to the data
// but are not motion, and checks there measure float32 rounding, not the
// operation. DetectEvents finds them with a spike test on each joint's own
// local channels, so that a lab can mark them and package verify can leave
// out the samples that read them.

// Spike test parameters. An interval (frame f to f+1) of joint j is a jump
// when its change (rotation angle, rad; position distance, m) is above
// the floor and above SpikeRatio times the typical change around it: the
// median over the SpikeWindow intervals on each side (the median, so that
// the two spikes of a one-frame glitch, in and out, do not hide each
// other). Smooth motion, however fast, changes by similar amounts in
// neighbouring intervals; on the nine real captures of the tests, every
// change above the floor with a ratio above 5 is a glitch (a flipping
// thumb, a T-pose first frame, a toe snapping 15 degrees and back), and
// the largest ratio of real motion is 4.8 (a knee landing a hop).
const (
	SpikeWindow = 3
	SpikeRatio  = 6
	// SpikeRotFloor (rad) is 0.2 rad, 11 degrees in one frame: smaller
	// spikes (twitches of nearly still joints) are not worth naming.
	SpikeRotFloor = 0.2
	// SpikePosFloor (m) is 0.1 m in one frame.
	SpikePosFloor = 0.1
)

// DataEvent is a jump in one joint's own data inside one frame interval.
type DataEvent struct {
	Clip    string  `json:"clip"`
	Frame   int     `json:"frame"` // the jump is from Frame to Frame+1
	Joint   string  `json:"joint"`
	Kind    string  `json:"kind"`    // "rotation" or "position"
	Change  float64 `json:"change"`  // rad or m from Frame to Frame+1
	Typical float64 `json:"typical"` // median change of the neighbouring intervals
	Reason  string  `json:"reason"`

	JointIndex int `json:"-"` // index of Joint in the skeleton
}

func (e DataEvent) String() string {
	return fmt.Sprintf("%s frame %d-%d %s: %s", e.Clip, e.Frame, e.Frame+1, e.Joint, e.Reason)
}

// DetectEvents returns the data jumps of clip c (of skeleton skel) in
// frame then joint order: per joint and frame interval, the rotation
// angle quat_to_scaled_angle_axis(quat_abs(r1 r0^-1)) and the position
// distance, each tested for a spike (see SpikeRatio).
func DetectEvents(skel *Skeleton, c *Clip) []DataEvent {
	if c.Frames < 3 {
		return nil
	}
	k := c.Frames - 1
	rot, pos := make([]float64, k), make([]float64, k)
	var out []DataEvent
	for j := 0; j < c.Joints; j++ {
		for f := 0; f < k; f++ {
			i0, i1 := c.At(f, j), c.At(f+1, j)
			rot[f] = float64(mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.Rot[i1], c.Rot[i0]))).Len())
			pos[f] = float64(c.PosAt(f+1, j).Sub(c.PosAt(f, j)).Len())
		}
		for f := 0; f < k; f++ {
			for _, ch := range [...]struct {
				kind  string
				d     []float64
				floor float64
			}{{"rotation", rot, SpikeRotFloor}, {"position", pos, SpikePosFloor}} {
				typ, ok := spike(ch.d, f, ch.floor)
				if !ok {
					continue
				}
				out = append(out, DataEvent{Clip: c.Name, Frame: f, Joint: skel.Names[j], Kind: ch.kind,
					Change: ch.d[f], Typical: typ, JointIndex: j})
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Frame < out[b].Frame })
	body := bodyWide(c, out)
	for i := range out {
		out[i].Reason = jumpReason(c, out[i], body)
	}
	return out
}

// bodyWide finds the frames unlike their neighbours across the body: the
// odd frame of each interval where at least a fifth of the joints (and
// three) jump, keyed by frame, with the number of joints jumping. The
// odd frame is the one that both its intervals jump into and out of, or
// the clip's first or last frame.
func bodyWide(c *Clip, events []DataEvent) map[int]int {
	joints := map[int]map[int]bool{} // interval -> joints jumping
	for _, e := range events {
		if joints[e.Frame] == nil {
			joints[e.Frame] = map[int]bool{}
		}
		joints[e.Frame][e.JointIndex] = true
	}
	wide := func(f int) bool { return len(joints[f]) >= max(3, c.Joints/5) }
	body := map[int]int{}
	for f := range joints {
		if !wide(f) {
			continue
		}
		switch {
		case f == 0:
			body[0] = len(joints[f])
		case f == c.Frames-2:
			body[f+1] = len(joints[f])
		case wide(f + 1):
			body[f+1] = max(body[f+1], len(joints[f]))
		}
	}
	return body
}

// spike reports whether d[f] is a spike: above floor and SpikeRatio times
// the median of the neighbouring values (SpikeWindow on each side, fewer
// at the ends), which it returns.
func spike(d []float64, f int, floor float64) (float64, bool) {
	if d[f] <= floor {
		return 0, false
	}
	var buf [2 * SpikeWindow]float64
	nb := buf[:0]
	for i := max(0, f-SpikeWindow); i <= min(len(d)-1, f+SpikeWindow); i++ {
		if i != f {
			nb = append(nb, d[i])
		}
	}
	if len(nb) == 0 {
		return 0, false
	}
	sort.Float64s(nb)
	m := len(nb) / 2
	med := nb[m]
	if len(nb)%2 == 0 {
		med = (nb[m-1] + nb[m]) / 2
	}
	return med, d[f] > SpikeRatio*med
}

// jumpReason says what the jump is: a zero pose (every joint's rotation the
// identity) at either end, a frame unlike its neighbours across the body
// (body, from bodyWide), a near-180 degree flip, or a jump.
func jumpReason(c *Clip, e DataEvent, body map[int]int) string {
	unit, scale := "deg", 180/math.Pi
	if e.Kind == "position" {
		unit, scale = "m", 1
	}
	what := fmt.Sprintf("%s changes %.3g %s in one frame, %.2g %s typically around it",
		e.Kind, e.Change*scale, unit, e.Typical*scale, unit)
	for _, f := range [2]int{e.Frame, e.Frame + 1} {
		if zeroPose(c, f) {
			return fmt.Sprintf("frame %d is a zero pose: %s", f, what)
		}
	}
	for _, f := range [2]int{e.Frame, e.Frame + 1} {
		if n := body[f]; n > 0 {
			return fmt.Sprintf("frame %d is unlike its neighbours at %d joints (a rest pose or a reset): %s", f, n, what)
		}
	}
	switch {
	case e.Kind == "rotation" && e.Change > 150*math.Pi/180:
		return "near-180 degree flip: " + what
	case e.Kind == "position":
		return "teleport: " + what
	}
	return "jump: " + what
}

// zeroPose reports whether every non-root joint of frame f has the
// identity rotation (a reset or an unfilled frame), in a skeleton of at
// least three joints.
func zeroPose(c *Clip, f int) bool {
	if c.Joints < 3 {
		return false
	}
	for j := 1; j < c.Joints; j++ {
		q := mathx.QuatAbs(c.Rot[c.At(f, j)])
		if q.W < 1-1e-6 {
			return false
		}
	}
	return true
}
