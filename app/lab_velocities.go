package app

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/assets"
	"kinelab/render"
	"kinelab/ui"
)

// VelocitiesLab plays the default character's clips through the velocity
// chain of the propagating-velocities article and draws the result.
type VelocitiesLab struct {
	skel          animsys.Skeleton
	clips         []animsys.Clip
	clip          int
	time          float32 // s into the current clip
	local, global animsys.Pose

	ShowSkeleton bool
}

// NewVelocitiesLab builds the lab on the embedded default character.
func NewVelocitiesLab() *VelocitiesLab {
	l := &VelocitiesLab{skel: assets.Humanoid(), ShowSkeleton: true}
	l.clips = []animsys.Clip{assets.Clip("walk", assets.Walk)}
	n := l.skel.Len()
	l.local, l.global = animsys.NewPose(n), animsys.NewPose(n)
	l.evaluate()
	return l
}

// Name implements Lab.
func (l *VelocitiesLab) Name() string { return "velocities" }

// Title implements Lab.
func (l *VelocitiesLab) Title() string { return "Velocities - " + l.clips[l.clip].Name }

// Update implements Lab: advance the clip time, wrapping over the loop.
func (l *VelocitiesLab) Update(dt float32) {
	d := l.clips[l.clip].Duration()
	l.time = float32(math.Mod(float64(l.time+dt), float64(d)))
	l.evaluate()
}

func (l *VelocitiesLab) evaluate() {
	animsys.SampleCubic(&l.local, &l.clips[l.clip], l.time)
	animsys.FK(&l.global, &l.local, l.skel.Parents)
}

// Draw3D implements Lab.
func (l *VelocitiesLab) Draw3D(v *View) {
	if l.ShowSkeleton {
		render.Skeleton(l.global.Pos, l.skel.Parents, render.BoneColor, render.JointColor, 0.022)
	}
	root := l.global.Pos[0]
	render.Root(root, l.global.Rot[0].Rotate(mgl32.Vec3{0, 0, 1}), render.DimText)
}

// Draw2D implements Lab.
func (l *VelocitiesLab) Draw2D(v *View) {}

// Panel implements Lab.
func (l *VelocitiesLab) Panel(p *ui.Panel) {
	p.Check("Skeleton", &l.ShowSkeleton)
	p.Text(fmt.Sprintf("clip %s  %.2f / %.2f s", l.clips[l.clip].Name, l.time, l.clips[l.clip].Duration()))
}

// Keys implements Lab.
func (l *VelocitiesLab) Keys() []Key { return nil }

// Focus implements Lab: the hips, at a fixed height so walking bob does
// not shake the camera.
func (l *VelocitiesLab) Focus() mgl32.Vec3 {
	h := l.global.Pos[assets.Hips]
	return mgl32.Vec3{h[0], 0.9, h[2]}
}
