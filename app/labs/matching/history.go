package matching

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// history is what the lab keeps of the run to draw and scrub through: a
// ring of the last historyLen ticks' snapshots, the newest at head-1, and
// how many ticks back the view is (Rewind, 0: live); the root's trail;
// and the last tick's world positions, which the next snapshot's blue
// velocities are the finite difference from.
type history struct {
	hist     []snapshot
	head     int
	count    int
	Rewind   int
	trail    []mgl32.Vec3
	prevPos  []mgl32.Vec3
	havePrev bool
}

// reset empties the history for a skeleton of n joints.
func (h *history) reset(n int) {
	h.hist = make([]snapshot, historyLen)
	for i := range h.hist {
		s := &h.hist[i]
		s.pos, s.red, s.blue, s.scl = make([]mgl32.Vec3, n), make([]mgl32.Vec3, n), make([]mgl32.Vec3, n), make([]mgl32.Vec3, n)
		s.green = make([]mgl32.Vec3, n)
		s.rot = make([]mgl32.Quat, n)
	}
	h.head, h.count, h.Rewind = 0, 0, 0
	h.trail = h.trail[:0]
	h.prevPos = make([]mgl32.Vec3, n)
	h.havePrev = false
}

// push takes the next snapshot of the ring for the tick at time t (s)
// and returns it with the time (s) since the one before (0 for the
// first).
func (h *history) push(t float64) (s *snapshot, dt float32) {
	s = &h.hist[h.head]
	h.head = (h.head + 1) % historyLen
	h.count = min(h.count+1, historyLen)
	s.t = t
	if h.count > 1 {
		dt = float32(s.t - h.hist[(h.head+historyLen-2)%historyLen].t)
	}
	return s, dt
}

// blue writes into s the finite difference of the world positions pos
// from the last tick's, dt seconds ago (zero for the first tick), and
// keeps pos for the next.
func (h *history) blue(s *snapshot, pos []mgl32.Vec3, dt float32) {
	for j := range s.blue {
		s.blue[j] = mgl32.Vec3{}
		if h.havePrev && dt > 0 {
			s.blue[j] = pos[j].Sub(h.prevPos[j]).Mul(1 / dt)
		}
	}
	copy(h.prevPos, pos)
	h.havePrev = true
}

// walk adds the root's position p (m) to the trail, the oldest dropped
// past trailLen.
func (h *history) walk(p mgl32.Vec3) {
	if len(h.trail) == trailLen {
		copy(h.trail, h.trail[1:])
		h.trail = h.trail[:trailLen-1]
	}
	h.trail = append(h.trail, p)
}

// view is the snapshot the lab shows: Rewind ticks back from the newest.
func (h *history) view() *snapshot {
	back := min(h.Rewind, h.count-1)
	return &h.hist[(h.head-1-back+2*historyLen)%historyLen]
}

// Step moves the rewound view by k ticks (negative: back), within the
// history; it only changes what is shown.
func (h *history) Step(k int) { h.Rewind = mathx.Clamp(h.Rewind-k, 0, max(h.count-1, 0)) }
