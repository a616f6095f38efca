package app_test

import (
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/app"
)

// JointAt finds the joint whose screen point is under the mouse, leaves
// out the root and joints behind the camera, and finds none far away.
func TestJointAt(t *testing.T) {
	cam := app.DefaultCamera()
	v := app.View{Camera: cam.Raylib(), Width: 1280, Height: 720}
	pos := []mgl32.Vec3{{0, 0, 0}, {0, 0.9, 0}, {0, 1.6, 0}, {0.3, 1.4, 0}}
	for i := 1; i < len(pos); i++ {
		s := v.Project(pos[i])
		if got := v.JointAt(pos, mgl32.Vec3{}, rl.Vector2{X: s.X + 3, Y: s.Y - 2}); got != i {
			t.Errorf("mouse 3 units from joint %d's point %v: JointAt = %d", i, s, got)
		}
	}
	if got := v.JointAt(pos, mgl32.Vec3{}, v.Project(pos[0])); got == 0 {
		t.Error("the root joint was picked")
	}
	if got := v.JointAt(pos, mgl32.Vec3{}, rl.Vector2{X: 5, Y: 5}); got != -1 {
		t.Errorf("a corner of the screen picked joint %d", got)
	}
	behind := cam.Eye().Mul(2) // beyond the camera, away from the target
	if got := v.JointAt([]mgl32.Vec3{{}, behind}, mgl32.Vec3{}, v.Project(behind)); got != -1 {
		t.Errorf("a joint behind the camera was picked (%d)", got)
	}
}
