package app

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/assets"
	"kinelab/render"
)

// needDisplay skips a render test where no X server can be had, and fails
// it instead under `make test` (KINELAB_REQUIRE_DISPLAY=1), where Xvfb is
// always started: a render test must never pass by not running.
func needDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") != "" {
		return
	}
	if os.Getenv("KINELAB_REQUIRE_DISPLAY") != "" {
		t.Fatal("no DISPLAY although KINELAB_REQUIRE_DISPLAY is set: run under xvfb-run")
	}
	t.Skip("SKIPPED: no X display; run under xvfb-run (make test does) to check rendering")
}

// near reports whether two colours differ by at most tol per channel.
func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { v := int(x) - int(y); return v >= -tol && v <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// TestRender runs the app's real render path in a window for every lab (one
// window per process: raylib is single-window) and checks the pixels. All
// GL work stays on this goroutine's locked thread, so no t.Run subtests.
func TestRender(t *testing.T) {
	needDisplay(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	a := newApp(Config{Lab: "velocities", Frames: 60, Width: 960, Height: 540})
	if err := a.open(); err != nil {
		t.Fatalf("open window: %v", err)
	}
	defer a.close()

	checkVelocitiesFrame(t, a)
	checkTrackingFrame(t, a)
	checkScalarFrame(t, a)
	checkCostFrame(t, a)
	checkSpringsFrame(t, a)
	checkCrowdFrame(t, a)
}

// checkVelocitiesFrame: the skeleton's bones, the skinned body, the
// ground's checker and the velocity lines show where the projected
// character and floor are.
func checkVelocitiesFrame(t *testing.T, a *App) {
	a.showUI = false // the panels would cover part of the character
	lab := a.lab().(*VelocitiesLab)
	lab.S.ShowMesh = false
	var img, withBody *image.RGBA
	for i := 0; i < 45; i++ {
		a.frame(nil)
	}
	// The same paused pose drawn as a skeleton, then with the body.
	a.clock.Paused = true
	a.frame(func() { img = a.readPixels() })
	lab.S.ShowMesh, lab.S.ShowSkeleton, lab.S.Joint = true, false, assets.Head
	a.frame(func() { withBody = a.readPixels() })
	lab.S.ShowSkeleton, lab.S.Joint = true, -1
	a.clock.Paused = false
	defer keepOnFailure(t, img, "velocities")
	defer keepOnFailure(t, withBody, "velocities-body")
	v := a.view()
	at := func(p mgl32.Vec3) (color.RGBA, bool) {
		s := v.Project(p)
		x, y := int(s.X+0.5), int(s.Y+0.5)
		if x < 2 || y < 2 || x >= img.Rect.Dx()-2 || y >= img.Rect.Dy()-2 {
			return color.RGBA{}, false
		}
		return img.RGBAAt(x, y), true
	}

	// Bones: the midpoint of every drawn bone shows the bone colour
	// (flat, unlit). A few may be hidden behind other limbs, so ask for
	// 80%; a broken skeleton draw, projection or FK shows none.
	bones, hit := 0, 0
	parents := lab.skel.Parents
	for i, p := range parents {
		if p < 0 || parents[p] < 0 {
			continue
		}
		mid := lab.global.Pos[i].Add(lab.global.Pos[p]).Mul(0.5)
		c, ok := at(mid)
		if !ok {
			t.Fatalf("bone %d midpoint %v projects off screen", i, mid)
		}
		bones++
		if near(c, render.BoneColor, 12) {
			hit++
		}
	}
	if hit*5 < bones*4 {
		t.Errorf("bone colour at %d of %d bone midpoints, want >= 80%%", hit, bones)
	}

	// The skinned body covers the torso and thighs: at their bones'
	// midpoints the lit, grey body replaces the yellow bone. Lit grey:
	// channels within 50 of each other, brighter than the ground.
	lit, torso := 0, 0
	for _, i := range []int{assets.Spine, assets.Spine1, assets.Spine2, assets.LeftLeg, assets.RightLeg} {
		mid := lab.global.Pos[i].Add(lab.global.Pos[lab.skel.Parents[i]]).Mul(0.5)
		s := v.Project(mid)
		c := withBody.RGBAAt(int(s.X+0.5), int(s.Y+0.5))
		lo, hi := min(c.R, c.G, c.B), max(c.R, c.G, c.B)
		torso++
		if hi-lo < 50 && int(c.R)+int(c.G)+int(c.B) > 3*100 && !near(c, render.BoneColor, 40) {
			lit++
		}
	}
	if lit < torso-1 {
		t.Errorf("skinned body: %d of %d torso and thigh points show the lit body", lit, torso)
	}

	// Ground: cell centres around (not under) the character show the
	// checker colour of their parity; both colours must appear.
	foc := lab.Focus()
	cells, right := 0, 0
	seen := map[bool]bool{}
	for dx := -3; dx <= 3; dx++ {
		for dz := -3; dz <= 3; dz++ {
			if dx >= -1 && dx <= 1 && dz >= -1 && dz <= 1 {
				continue
			}
			cx, cz := int(foc[0])+dx, int(foc[2])+dz
			c, ok := at(mgl32.Vec3{float32(cx) + 0.5, 0, float32(cz) + 0.5})
			if !ok {
				continue
			}
			cells++
			even := (cx+cz)%2 == 0
			want := render.GroundB
			if even {
				want = render.GroundA
			}
			if near(c, want, 6) {
				right++
				seen[even] = true
			}
		}
	}
	if cells < 10 || right*10 < cells*9 || len(seen) != 2 {
		t.Errorf("ground: %d of %d visible cell centres have their checker colour (both parities seen: %v)", right, cells, len(seen) == 2)
	}

	// Velocity lines: red (propagated) and blue (finite difference)
	// pixels appear around the character's projected joints.
	lo, hi := v.Project(lab.global.Pos[1]), v.Project(lab.global.Pos[1])
	for _, p := range lab.global.Pos[1:] {
		s := v.Project(p)
		lo.X, lo.Y, hi.X, hi.Y = min(lo.X, s.X), min(lo.Y, s.Y), max(hi.X, s.X), max(hi.Y, s.Y)
	}
	var reds, blues int
	for y := int(lo.Y) - 40; y <= int(hi.Y)+40; y++ {
		for x := int(lo.X) - 40; x <= int(hi.X)+40; x++ {
			if !(image.Point{x, y}.In(img.Rect)) {
				continue
			}
			c := img.RGBAAt(x, y)
			if near(c, render.Propagated, 10) {
				reds++
			}
			if near(c, render.FiniteDiff, 10) {
				blues++
			}
		}
	}
	if reds < 40 || blues < 40 {
		t.Errorf("velocity lines: %d red and %d blue pixels around the character, want >= 40 each", reds, blues)
	}
}

// keepOnFailure saves what the test saw when it fails, for a person to look at.
func keepOnFailure(t *testing.T, img *image.RGBA, name string) {
	if !t.Failed() || img == nil {
		return
	}
	path := filepath.Join(os.TempDir(), "kinelab-render-test-"+name+".png")
	if err := SavePNG(path, img); err == nil {
		t.Logf("the frame the test saw is in %s", path)
	}
}

// checkCrowdFrame: a crowd of 50 shows lit bodies (not the ground's
// checker, not the background) at the projected chests of its characters.
func checkCrowdFrame(t *testing.T, a *App) {
	for i, n := range LabNames() {
		if n == "crowd" {
			a.switchLab(i)
		}
	}
	a.showUI = false
	lab := a.lab().(*CrowdLab)
	lab.S.Count, lab.S.Lines = 50, false
	for i := 0; i < 30; i++ {
		a.frame(nil)
	}
	var img *image.RGBA
	a.clock.Paused = true
	a.frame(func() { img = a.readPixels() })
	a.clock.Paused = false
	defer keepOnFailure(t, img, "crowd")
	if lab.builtN != 50 || lab.draw.meshes != 50 {
		t.Fatalf("crowd: %d characters, %d drawn with bodies; want 50 and 50", lab.builtN, lab.draw.meshes)
	}
	v := a.view()
	checked, lit := 0, 0
	for i := 0; i < lab.builtN; i += 3 {
		pos, _, _, shift := lab.Character(i)
		chest := pos[assets.Spine1].Add(pos[assets.Spine2]).Mul(0.5).Add(shift)
		s := v.Project(chest)
		x, y := int(s.X+0.5), int(s.Y+0.5)
		if x < 2 || y < 2 || x >= img.Rect.Dx()-2 || y >= img.Rect.Dy()-2 {
			continue
		}
		checked++
		c := img.RGBAAt(x, y)
		if !near(c, render.GroundA, 12) && !near(c, render.GroundB, 12) && !near(c, render.Background, 12) &&
			int(c.R)+int(c.G)+int(c.B) > 3*90 {
			lit++
		}
	}
	if checked < 10 || lit*5 < checked*4 {
		t.Errorf("crowd: lit body at %d of %d projected chests (want >= 80%% of >= 10)", lit, checked)
	}
}
