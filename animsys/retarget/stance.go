package retarget

import (
	"sort"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// A wide figure's feet stand further apart than the source's (leg.aside):
// across each foot, turned with it (aside). Turned with a foot that
// pivots as it stands, that step aside swings round the ankle and the
// foot slides (robot.glb's half-metre step at a turning foot's 0.2 rad/s:
// 10 cm/s). A retargeted clip knows when its feet stand: it holds each
// foot's step aside from the frame the foot lands to the frame it lifts,
// and carries it from one stance's to the next's through the swing
// (smoothstep in time), so the standing foot keeps its place and the
// step aside its rate exactly: zero while the foot stands, (B - A) times
// the smoothstep's rate while it swings.

// step is a foot's step aside (m, world) and its rate (m/s), set when a
// clip's curves hold it.
type step struct {
	set      bool
	off, vel mgl32.Vec3
}

// stance is one time a foot stands: from t0 to t1 (s), its step aside.
type stance struct {
	t0, t1 float64
	off    mgl32.Vec3
}

// Thresholds of a standing foot, in the source's leg lengths: its ankle
// moves slower than standSpeed a second along the ground and stands
// within standRise of its floor (where it stands most: floorShare), for
// two frames or more. A walk's planted ankle moves a few centimetres a
// second, its swinging one a metre and more.
const (
	standSpeed = 0.25
	standRise  = 0.1
)

// stances finds the times each foot stands in clip c of the source (its
// frames posed as stored), each with the step aside the foot takes as it
// lands; none for a foot that never stands (a clip of a jump in the air)
// or a map with no step aside.
func (m *Map) stances(c *animsys.Clip) [2][]stance {
	var out [2][]stance
	if c.Frames < 3 || !m.Feet {
		return out
	}
	n := len(m.src)
	local, world := animsys.NewPose(n), animsys.NewPose(n)
	pos := [2][]mgl32.Vec3{}
	rot := [2][]mgl32.Quat{}
	for f := range c.Frames {
		c.Frame(&local, f)
		animsys.FKStatic(&world, &local, m.src)
		for s, l := range m.legs {
			if l.ok {
				pos[s] = append(pos[s], world.Pos[l.srcAnkle])
				rot[s] = append(rot[s], world.Rot[l.srcAnkle])
			}
		}
	}
	dt := float64(c.FrameTime)
	for s, l := range m.legs {
		if !l.ok || l.aside == 0 {
			continue
		}
		ys := make([]float32, len(pos[s]))
		for f, p := range pos[s] {
			ys[f] = p[1]
		}
		floor := mathx.Quantile(ys, floorShare)
		stands := func(f int) bool {
			a, b := pos[s][max(f-1, 0)], pos[s][min(f+1, c.Frames-1)]
			span := float64(min(f+1, c.Frames-1) - max(f-1, 0))
			speed := float64(mgl32.Vec2{b[0] - a[0], b[2] - a[2]}.Len()) / (span * dt)
			return speed < standSpeed*float64(m.srcLeg) && pos[s][f][1] < floor+standRise*m.srcLeg
		}
		for f := 0; f < c.Frames; {
			if !stands(f) {
				f++
				continue
			}
			g := f
			for g+1 < c.Frames && stands(g+1) {
				g++
			}
			if g > f {
				off, _ := aside(l, animsys.Kform{Rot: rot[s][f]})
				out[s] = append(out[s], stance{t0: float64(f) * dt, t1: float64(g) * dt, off: off})
			}
			f = g + 1
		}
	}
	return out
}

// stepAt is the step aside at time t (s) of a foot that stands at
// stances ss (in order): the stance's own while it stands, before the
// first and after the last, and in between from one stance's to the
// next's by a smoothstep in time, with its rate (m/s).
func stepAt(ss []stance, t float64) step {
	if len(ss) == 0 {
		return step{}
	}
	i := sort.Search(len(ss), func(i int) bool { return ss[i].t1 >= t })
	switch {
	case i == len(ss):
		return step{set: true, off: ss[len(ss)-1].off}
	case t >= ss[i].t0 || i == 0:
		return step{set: true, off: ss[i].off}
	}
	a, b := ss[i-1], ss[i]
	span := b.t0 - a.t1
	x := float32((t - a.t1) / span)
	w, dw := mathx.Smoothstep(x), mathx.SmoothstepDx(x)/float32(span)
	d := b.off.Sub(a.off)
	return step{set: true, off: a.off.Add(d.Mul(w)), vel: d.Mul(dw)}
}
