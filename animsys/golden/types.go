package golden

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// V3 is a vector as JSON writes it: [x, y, z].
type V3 = [3]float32

// Q4 is a quaternion as JSON writes it: [w, x, y, z].
type Q4 = [4]float32

func v3(v mgl32.Vec3) V3 { return V3(v) }

func vec(v V3) mgl32.Vec3 { return mgl32.Vec3(v) }

func q4(q mgl32.Quat) Q4 { return Q4{q.W, q.V[0], q.V[1], q.V[2]} }

func quat(q Q4) mgl32.Quat { return mgl32.Quat{W: q[0], V: mgl32.Vec3{q[1], q[2], q[3]}} }

// Pose is an animsys.Pose as JSON writes it: per joint, position (m),
// rotation, scale, linear (m/s), angular (rad/s) and scalar velocity
// (natural-log scale per second).
type Pose struct {
	Pos []V3 `json:"pos"`
	Rot []Q4 `json:"rot"`
	Scl []V3 `json:"scl"`
	Vel []V3 `json:"vel"`
	Ang []V3 `json:"ang"`
	Svl []V3 `json:"svl"`
}

func fromPose(p *animsys.Pose) Pose {
	n := p.Len()
	out := Pose{Pos: make([]V3, n), Rot: make([]Q4, n), Scl: make([]V3, n), Vel: make([]V3, n), Ang: make([]V3, n), Svl: make([]V3, n)}
	for j := 0; j < n; j++ {
		out.Pos[j], out.Rot[j], out.Scl[j] = v3(p.Pos[j]), q4(p.Rot[j]), v3(p.Scl[j])
		out.Vel[j], out.Ang[j], out.Svl[j] = v3(p.Vel[j]), v3(p.Ang[j]), v3(p.Svl[j])
	}
	return out
}

func (p *Pose) pose() animsys.Pose {
	n := len(p.Pos)
	out := animsys.NewPose(n)
	for j := 0; j < n; j++ {
		out.Pos[j], out.Rot[j], out.Scl[j] = vec(p.Pos[j]), quat(p.Rot[j]), vec(p.Scl[j])
		out.Vel[j], out.Ang[j], out.Svl[j] = vec(p.Vel[j]), vec(p.Ang[j]), vec(p.Svl[j])
	}
	return out
}

// Frame is one frame of a clip: local positions (m), rotations, scales.
type Frame struct {
	Pos []V3 `json:"pos"`
	Rot []Q4 `json:"rot"`
	Scl []V3 `json:"scl"`
}

// Kform is an animsys.Kform as JSON writes it.
type Kform struct {
	Pos V3 `json:"pos"`
	Rot Q4 `json:"rot"`
	Scl V3 `json:"scl"`
	Vel V3 `json:"vel"`
	Ang V3 `json:"ang"`
	Svl V3 `json:"svl"`
}

func fromKform(k animsys.Kform) Kform {
	return Kform{v3(k.Pos), q4(k.Rot), v3(k.Scl), v3(k.Vel), v3(k.Ang), v3(k.Svl)}
}

func (k *Kform) kform() animsys.Kform {
	return animsys.Kform{Pos: vec(k.Pos), Rot: quat(k.Rot), Scl: vec(k.Scl), Vel: vec(k.Vel), Ang: vec(k.Ang), Svl: vec(k.Svl)}
}
