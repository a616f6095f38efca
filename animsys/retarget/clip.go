package retarget

import (
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// Curves are a source clip mapped onto the target (animsys.Curves): at
// any time the source clip sampled (animsys.SampleCubic: its own Curves
// where it has them, a glTF animation's exact curves, else the cubic
// curve through its frames), its FK with velocities, and the Map. They
// allocate nothing once warm and may be sampled from several goroutines
// at once (each takes its own scratch from a pool).
type Curves struct {
	m      *Map
	clip   *animsys.Clip
	stands [2][]stance // when each foot stands (Map.stances): its step aside held then
	pool   sync.Pool   // of *curveScratch
}

// curveScratch is one sampling's memory: the source's local and world
// poses, the target's world pose, the map's scratch.
type curveScratch struct {
	local, world, out animsys.Pose
	s                 *Scratch
}

// NewCurves are clip c, a clip of the map's source skeleton, mapped.
func (m *Map) NewCurves(c *animsys.Clip) *Curves {
	cv := &Curves{m: m, clip: c, stands: m.stances(c)}
	cv.pool.New = func() any {
		sc := &curveScratch{s: m.NewScratch()}
		animsys.NewPoses(len(m.src), &sc.local, &sc.world)
		sc.out = animsys.NewPose(len(m.dst))
		return sc
	}
	return cv
}

// SampleCurves implements animsys.Curves: the target's local pose at
// time t (s) of the source clip, with exact velocities.
func (cv *Curves) SampleCurves(out *animsys.Pose, t float64) {
	sc := cv.pool.Get().(*curveScratch)
	animsys.SampleCubic(&sc.local, cv.clip, float32(t))
	cv.mapInto(out, sc, t)
	cv.pool.Put(sc)
}

// End is the source clip's end (s) (animsys.CurvesEnd).
func (cv *Curves) End() float64 { return float64(cv.clip.Duration()) }

// SampleCurvesEnd implements animsys.CurvesEnd: the source clip's last
// frame approached from inside, with the velocity it ends with, mapped.
func (cv *Curves) SampleCurvesEnd(out *animsys.Pose) {
	sc := cv.pool.Get().(*curveScratch)
	animsys.SampleCubicFrame(&sc.local, cv.clip, cv.clip.Frames-2, 1)
	cv.mapInto(out, sc, cv.End())
	cv.pool.Put(sc)
}

// Piece implements animsys.CurvePieces where the source clip's curves
// are smooth only piecewise (a glTF animation's keys): the map is smooth,
// so its curves break where the source's do.
func (cv *Curves) Piece(t float64) int {
	if p, ok := cv.clip.Curves.(animsys.CurvePieces); ok {
		return p.Piece(t)
	}
	return 0
}

// mapInto maps the source's local pose in sc, at time t (s), into out,
// its feet's steps aside held while they stand (stance.go), about the
// source's root: the root's place on the ground is taken out before FK
// and the target's root moved by it, scaled, after. The map is linear in
// positions, so this is the same pose; but float32 world positions far
// from the origin round each joint to a step of their size (4e-6 m at
// 50 m), which the feet's IK turns into some 1e-4 rad of knee bend near a
// straight leg.
func (cv *Curves) mapInto(out *animsys.Pose, sc *curveScratch, t float64) {
	m := cv.m
	for s := range sc.s.stance {
		sc.s.stance[s] = stepAt(cv.stands[s], t)
	}
	var at mgl32.Vec3
	for j, p := range m.src {
		if p < 0 {
			at = mgl32.Vec3{sc.local.Pos[j][0], 0, sc.local.Pos[j][2]}
			break
		}
	}
	for j, p := range m.src {
		if p < 0 {
			sc.local.Pos[j] = sc.local.Pos[j].Sub(at)
		}
	}
	animsys.FK(&sc.world, &sc.local, m.src)
	m.Pose(out, &sc.out, &sc.world, sc.s)
	m.moveRoot(out, at)
}

// Clip is source clip c (of the map's source skeleton) retargeted: a
// clip of the target's skeleton sampled exactly from the map's Curves,
// with a frame at each of c's frame times for what reads frames, and c's
// name and loop. It is prepared.
func (m *Map) Clip(c *animsys.Clip) animsys.Clip {
	fps := float32(0)
	if c.FrameTime > 0 {
		fps = 1 / c.FrameTime
	}
	out := animsys.CurvesClip(c.Name, m.NewCurves(c), len(m.dst), c.Duration(), fps)
	out.LoopStart, out.LoopEnd = c.LoopStart, c.LoopEnd
	return out
}
