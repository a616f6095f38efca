package render

import (
	"os"
	"runtime"
	"testing"
	"time"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys"
)

func TestPerfProbe(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rl.SetTraceLogLevel(rl.LogWarning)
	rl.InitWindow(640, 480, "perf")
	defer rl.CloseWindow()
	s := animsys.BenchSkeleton()
	restPos, restRot := restGlobals(s)
	body := GenerateBody(s.Parents, restPos, restRot, s.Names)
	if os.Getenv("COARSE") != "" {
		b := newBodyBuilder(s.Parents, restPos, s.Names)
		b.classify()
		b.resize()
		b.buildShapes()
		f := newBodyField(b.solids, 0.018)
		m, _ := f.mesh()
		f.skin(&m, weightFade)
		m.BindInv = body.BindInv
		body = m
	}
	t.Log("verts", body.VertexCount())
	sm, _ := NewSkinnedMesh(&body)
	pose := bentPose(s)
	for _, dist := range []float32{3.2, 30} {
		cam := rl.Camera3D{Position: rl.Vector3{X: 0.4, Y: 1.2, Z: dist}, Target: rl.Vector3{Y: 0.85}, Up: rl.Vector3{Y: 1}, Fovy: 45, Projection: rl.CameraPerspective}
		var cpu time.Duration
		t0 := time.Now()
		for i := 0; i < 100; i++ {
			rl.BeginDrawing()
			rl.ClearBackground(Background)
			rl.BeginMode3D(cam)
			t1 := time.Now()
			sm.Draw(pose.Pos, pose.Rot, pose.Scl, bodyTint)
			cpu += time.Since(t1)
			rl.EndMode3D()
			rl.EndDrawing()
		}
		t.Logf("dist %v: frame %v, draw %v", dist, time.Since(t0)/100, cpu/100)
	}
	// CPU matrix part only
	t0 := time.Now()
	for i := 0; i < 1000; i++ {
		for j := range sm.bindInv {
			sm.bones[j] = rlMatrix(boneMatrix(pose.Pos[j], pose.Rot[j], pose.Scl[j], sm.bindInv[j]))
		}
	}
	t.Logf("matrices %v", time.Since(t0)/1000)
}
