package labs

import (
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/app"
	"kinelab/internal/animtest"
	"kinelab/internal/apptest"
	"kinelab/internal/gltftest"
	"kinelab/internal/mocap"
)

// checkGLTFSwitch checks, in TestUIFits's window (one window per test
// process), that a glTF character and a BVH one switch in one session:
// each lab that takes a character draws the glTF character's own
// textured mesh (its texture's orange upper half shows on screen), then
// the BVH character's generated body (no such orange), then the glTF one
// again.
func checkGLTFSwitch(t *testing.T, a *app.App) {
	t.Helper()
	if !apptest.Resize(a, 1024, 600) {
		t.Fatal("the window did not take the size 1024x600")
	}
	dir := t.TempDir()
	glb := filepath.Join(dir, "textured.glb")
	if err := gltftest.Default(glb, gltftest.Options{Interp: "LINEAR", Texture: true, GLB: true}); err != nil {
		t.Fatal(err)
	}
	bvh := animtest.WriteDefaultBVH(t, dir, "walk")
	labs := []string{"velocities", "cost", "crowd", "matching"}
	// orange counts the pixels of the texture's upper half, lit: red
	// well above green, green well above blue (unlike the red and blue
	// lines, the generated body's skin and the crowd's tints).
	orange := func() int {
		img := a.ReadPixels()
		n := 0
		for i := 0; i+3 < len(img.Pix); i += 4 {
			r, g, b := int(img.Pix[i]), int(img.Pix[i+1]), int(img.Pix[i+2])
			if r > 80 && 2*r > 3*g && 5*g > 9*b {
				n++
			}
		}
		return n
	}
	counts := map[string][]int{}
	for round, files := range [][]string{{glb}, {bvh}, {glb}} {
		if !a.Load(files) {
			t.Fatalf("round %d: %s did not load: %v", round, files, a.Messages())
		}
		for _, lab := range labs {
			if !a.SwitchLab(lab) {
				t.Fatalf("no lab %s", lab)
			}
			a.ShowUI(false)
			for range 4 {
				a.Frame(nil)
			}
			counts[lab] = append(counts[lab], orange())
		}
	}
	a.ShowUI(true)
	for _, lab := range labs {
		c := counts[lab]
		t.Logf("%s: texture-orange pixels %v (glTF, BVH, glTF)", lab, c)
		if c[0] < 500 || c[2] < 500 || c[1] > min(c[0], c[2])/10 {
			t.Errorf("%s: %v texture-orange pixels for glTF, BVH, glTF: want the glTF's own mesh each time, not after BVH", lab, c)
		}
	}
}

// Every lab that animates a character takes a glTF one and ticks it — a
// zero tick, a frame's, huge ones — writing CSV rows with no NaN or Inf:
// the generated human in each interpolation (one Z-up in centimetres)
// and every shared file, one after another, as dropped on the window (the
// labs made once, as there: made for each file, the Matching lab built
// its embedded set six times, 2 s).
func TestGLTFInLabs(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, opt := range []gltftest.Options{{Interp: "STEP"}, {Interp: "LINEAR", ZUp: true, Scale: 0.01}, {Interp: "CUBICSPLINE", Uneven: true, Partial: true}} {
		p := filepath.Join(dir, strings.ToLower(opt.Interp)+".gltf")
		if err := gltftest.Default(p, opt); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var labs []app.Lab
	for _, e := range All() {
		labs = append(labs, e.New())
	}
	defer func() {
		for _, l := range labs {
			l.Unload()
		}
	}()
	for _, path := range append(paths, mocap.GLTFFiles()...) {
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if ch == nil || err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, l := range labs {
			l.SetCharacter(ch)
			for _, dt := range []float32{0, 1.0 / 60, 5, 1e6, 1.0 / 60} {
				l.Update(dt)
			}
			for _, row := range l.CSVRows(nil) {
				for _, cell := range row {
					if strings.Contains(cell, "NaN") || strings.Contains(cell, "Inf") {
						t.Fatalf("%s in the %s lab: CSV row %q", filepath.Base(path), l.Name(), row)
					}
				}
			}
		}
	}
}
