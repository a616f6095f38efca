package render

import (
	"fmt"
	"image/color"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

func bodyShots(t *testing.T, sm *SkinnedMesh, s animsys.Skeleton, restPos []mgl32.Vec3, restRot []mgl32.Quat, pose animsys.Pose) {
	rest := animsys.NewPose(s.Len())
	copy(rest.Pos, restPos)
	copy(rest.Rot, restRot)
	views := []struct {
		name string
		pos, tgt rl.Vector3
		p animsys.Pose
	}{
		{"front", rl.Vector3{X: 0, Y: 1.0, Z: 3.0}, rl.Vector3{Y: 0.85}, rest},
		{"three", rl.Vector3{X: 1.8, Y: 1.4, Z: 2.4}, rl.Vector3{Y: 0.85}, rest},
		{"side", rl.Vector3{X: 3.0, Y: 1.0, Z: 0}, rl.Vector3{Y: 0.85}, rest},
		{"back", rl.Vector3{X: -0.8, Y: 1.3, Z: -2.8}, rl.Vector3{Y: 0.85}, rest},
		{"head", rl.Vector3{X: 0.5, Y: 1.6, Z: 1.1}, rl.Vector3{Y: 1.45}, rest},
		{"feet", rl.Vector3{X: 0.7, Y: 0.5, Z: 0.9}, rl.Vector3{Y: 0.15}, rest},
		{"pelvis", rl.Vector3{X: 0.6, Y: 1.1, Z: 1.2}, rl.Vector3{Y: 0.95}, rest},
		{"posed", rl.Vector3{X: 0.4, Y: 1.2, Z: 3.2}, rl.Vector3{Y: 0.85}, pose},
		{"posed3", rl.Vector3{X: 2.2, Y: 1.3, Z: 1.6}, rl.Vector3{Y: 0.85}, pose},
	}
	for _, v := range views {
		cam := rl.Camera3D{Position: v.pos, Target: v.tgt, Up: rl.Vector3{Y: 1}, Fovy: 45, Projection: rl.CameraPerspective}
		rl.BeginDrawing()
		rl.ClearBackground(Background)
		rl.BeginMode3D(cam)
		rl.DrawGrid(10, 0.5)
		sm.Draw(v.p.Pos, v.p.Rot, v.p.Scl, color.RGBA{R: 214, G: 150, B: 108, A: 255})
		rl.EndMode3D()
		img := readScreen()
		rl.EndDrawing()
		path := savePNG(t, img, fmt.Sprintf("bodyscratch/%s.png", v.name))
		t.Log(path)
	}
}

func otherShots(t *testing.T) {
	for _, c := range []struct {
		name string
		s    animsys.Skeleton
	}{{"cmu", cmuLike()}, {"mixamo", mixamoLike()}, {"zero", zeroBones()}} {
		pos, rot := restGlobals(c.s)
		body := GenerateBody(c.s.Parents, pos, rot, c.s.Names)
		sm, err := NewSkinnedMesh(&body)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := jointBounds(pos, nil)
		ctr := lo.Add(hi).Mul(0.5)
		H := hi[1] - lo[1]
		sm.GroundY = lo[1]
		pose := animsys.NewPose(c.s.Len())
		copy(pose.Pos, pos)
		copy(pose.Rot, rot)
		for i := range pose.Scl {
			pose.Scl[i] = mgl32.Vec3{1, 1, 1}
		}
		for k, dir := range []mgl32.Vec3{{0, 0.2, 1}, {0.8, 0.35, 0.6}, {0.3, 0.1, 0.35}} {
			d := float32(1.9)
			tgt := ctr
			if k == 2 {
				tgt = pos[len(pos)/3] // somewhere on the arm
				tgt = hi.Sub(mgl32.Vec3{(hi[0] - lo[0]) * 0.12, H * 0.2, 0})
				d = 0.9
			}
			eye := tgt.Add(dir.Normalize().Mul(d * H))
			cam := rl.Camera3D{Position: V3(eye), Target: V3(tgt), Up: rl.Vector3{Y: 1}, Fovy: 45, Projection: rl.CameraPerspective}
			rl.BeginDrawing()
			rl.ClearBackground(Background)
			rl.BeginMode3D(cam)
			sm.Draw(pose.Pos, pose.Rot, pose.Scl, color.RGBA{R: 120, G: 160, B: 210, A: 255})
			rl.EndMode3D()
			img := readScreen()
			rl.EndDrawing()
			t.Log(savePNG(t, img, fmt.Sprintf("bodyscratch/%s%d.png", c.name, k)))
		}
		sm.Unload()
	}
}

func motionShots(t *testing.T, sm *SkinnedMesh, s animsys.Skeleton) {
	m := animsys.NewBenchMotion(3)
	local := animsys.NewPose(s.Len())
	global := animsys.NewPose(s.Len())
	for k, tm := range []float64{0.5, 2.1, 4.4, 2.1} {
		m.Eval(&local, tm)
		animsys.FKStatic(&global, &local, s.Parents)
		hips := global.Pos[1]
		off := mgl32.Vec3{1.2, 0.4, 2.4}
		if k == 3 {
			hips = global.Pos[12]
			off = mgl32.Vec3{0.25, 0.1, 0.5}
		}
		cam := rl.Camera3D{Position: V3(hips.Add(off)), Target: V3(hips), Up: rl.Vector3{Y: 1}, Fovy: 45, Projection: rl.CameraPerspective}
		rl.BeginDrawing()
		rl.ClearBackground(Background)
		rl.BeginMode3D(cam)
		rl.DrawGrid(40, 0.5)
		sm.Draw(global.Pos, global.Rot, global.Scl, color.RGBA{R: 214, G: 150, B: 108, A: 255})
		rl.EndMode3D()
		img := readScreen()
		rl.EndDrawing()
		t.Log(savePNG(t, img, fmt.Sprintf("bodyscratch/motion%d.png", k)))
	}
}
