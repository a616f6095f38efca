package apptest

import (
	"path/filepath"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/app"
	"kinelab/internal/gltftest"
)

// Figures are characters of very different sizes and shapes for the
// framing tests: a 0.5 m doll, a 1.7 m human and a 50 m giant (humans named
// as Mixamo names them) and a four-legged animal 71 units long with no
// unit, whose hips are at its back end.
var Figures = []struct {
	Name string
	Rig  gltftest.Rig
}{
	{"doll", gltftest.MixamoRig(0.5)},
	{"human", gltftest.MixamoRig(1.7)},
	{"giant", gltftest.MixamoRig(50)},
	{"quadruped", gltftest.QuadrupedRig(71)},
}

// EachFigure loads each of Figures into a's current lab at 1024x600 and at
// 1280x720 and calls check with the figure's name and the window size; the
// window is 960x540 again afterwards, as OpenWindow left it.
func EachFigure(t *testing.T, a *app.App, check func(name string, w, h int32)) {
	t.Helper()
	dir := t.TempDir()
	defer Resize(a, 960, 540)
	for _, size := range [][2]int32{{1024, 600}, {1280, 720}} {
		if !Resize(a, size[0], size[1]) {
			t.Fatalf("the window did not take %dx%d", size[0], size[1])
		}
		for _, f := range Figures {
			path := filepath.Join(dir, f.Name+".gltf")
			if err := gltftest.WriteRig(path, f.Rig, gltftest.Options{}); err != nil {
				t.Fatal(err)
			}
			if !a.Load([]string{path}) {
				t.Fatalf("%s did not load", path)
			}
			check(f.Name, size[0], size[1])
		}
	}
}

// ProjectedBox is the screen box of the joints at pos that skip does not
// leave out, as v's camera projects them; behind is the first joint at or
// behind the camera's plane (-1 if none), which has no place on screen.
func ProjectedBox(v *app.View, pos []mgl32.Vec3, skip func(j int) bool) (lo, hi rl.Vector2, behind int) {
	eye, target := v.Camera.Position, v.Camera.Target
	fwd := mgl32.Vec3{target.X - eye.X, target.Y - eye.Y, target.Z - eye.Z}
	first := true
	for j, p := range pos {
		if skip(j) {
			continue
		}
		if p.Sub(mgl32.Vec3{eye.X, eye.Y, eye.Z}).Dot(fwd) <= 0 {
			return lo, hi, j
		}
		s := v.Project(p)
		if first {
			lo, hi, first = s, s, false
		}
		lo = rl.Vector2{X: min(lo.X, s.X), Y: min(lo.Y, s.Y)}
		hi = rl.Vector2{X: max(hi.X, s.X), Y: max(hi.Y, s.Y)}
	}
	return lo, hi, -1
}
