package crowd

import (
	"math"
	"path/filepath"
	"testing"

	"kinelab/animsys/character"
	"kinelab/app"
	"kinelab/internal/gltftest"
)

// TestCrowdLabSizes: the crowd of a 0.5 m doll, a 50 m giant and a
// four-legged animal 71 units long is laid out and seen as a human's is,
// at the framework's scale (app.ViewScale): the camera's Scale is the
// figure's, its distance the human's times it, the cells S.Spacing times
// it apart — and never closer than the figure is long (1.1 times its
// reach), so the animal, longer than its scaled spacing, does not stand
// in its neighbours. Before, the doll's crowd was spaced and seen as a
// 1.8 m human's (a size of at least 1) and the camera ignored the size.
func TestCrowdLabSizes(t *testing.T) {
	dir := t.TempDir()
	load := func(name string, r gltftest.Rig) *character.Character {
		path := filepath.Join(dir, name+".gltf")
		if err := gltftest.WriteRig(path, r, gltftest.Options{}); err != nil {
			t.Fatal(err)
		}
		ch, err := character.LoadGLTF(path)
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
	human := crowdOf(t, load("human", gltftest.MixamoRig(1.7)), 50, 2)
	hc := human.Camera()
	for _, c := range []struct {
		name string
		rig  gltftest.Rig
		long bool // longer than its scaled spacing: spaced by its reach
	}{
		{"doll", gltftest.MixamoRig(0.5), false},
		{"giant", gltftest.MixamoRig(50), false},
		{"quadruped", gltftest.QuadrupedRig(71), true},
	} {
		ch := load(c.name, c.rig)
		l := crowdOf(t, ch, 50, 2)
		k := app.ViewScale(ch)
		cam := l.Camera()
		if cam.Scale != k {
			t.Errorf("%s: the camera's scale %g, want app.ViewScale %g", c.name, cam.Scale, k)
		}
		sp := l.grid.cells[1][0] - l.grid.cells[0][0]
		want := l.S.Spacing * k
		if c.long {
			// The animal's reach on the ground is its length, 71 units
			// give or take its stride.
			if l.cast.reach < 60 || l.cast.reach > 80 {
				t.Errorf("%s: reach %g on the ground, want about 71", c.name, l.cast.reach)
			}
			want = 1.1 * l.cast.reach
			if !(want > l.S.Spacing*k) {
				t.Errorf("%s: 1.1 x reach %g is within the scaled spacing %g: the case tests nothing", c.name, want, l.S.Spacing*k)
			}
		}
		if math.Abs(float64(sp/want-1)) > 1e-4 {
			t.Errorf("%s: cells %g apart, want %g", c.name, sp, want)
		}
		if !c.long {
			if r := cam.Distance / k / hc.Distance; math.Abs(float64(r)-1) > 1e-4 {
				t.Errorf("%s: the camera stands %g away, %g times the human's over the scale", c.name, cam.Distance, r)
			}
			if r := l.Focus()[1] / k / human.Focus()[1]; math.Abs(float64(r)-1) > 1e-4 {
				t.Errorf("%s: the focus %g high, %g times the human's over the scale", c.name, l.Focus()[1], r)
			}
		}
		t.Logf("%s: scale %.3g, cells %.3g apart, camera %.3g away", c.name, k, sp, cam.Distance)
	}
}
