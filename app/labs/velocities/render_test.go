package velocities

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/app"
	"kinelab/assets"
	"kinelab/internal/apptest"
	"kinelab/internal/fixture"
	"kinelab/render"
)

// TestRender runs the app's real render path in a window with the velocities lab
// (one window per test binary: raylib is single-window) and checks its
// pixels. All GL work stays on this goroutine's locked thread, so no t.Run
// subtests.
func TestRender(t *testing.T) {
	a := apptest.OpenWindow(t, app.Config{UIScale: 1, Lab: "velocities", Frames: 60, Width: 960, Height: 540}, []app.LabEntry{Entry()})
	checkFrame(t, a)
	checkLoadedBody(t, a)
	checkStillRoot(t, a)
	checkFraming(t, a)
}

// checkStillRoot: a file whose root stays put on the floor while the
// figure walks away from it (4 m and more; a Bandai-style joint_Root) is
// drawn without a bone from the hips to that root — the bone colour is
// nowhere on the line between them — while the figure's own bones are.
func checkStillRoot(t *testing.T, a *app.App) {
	far := mgl32.Vec3{-4, 0, 0}
	spec := fixture.Bandai()
	spec.Name, spec.FarRoot, spec.StillRoot = "still-root", &far, true
	if !a.Load([]string{fixture.File(t, t.TempDir(), spec)}) {
		t.Fatal("the still-root fixture did not load")
	}
	lab := a.Lab().(*Lab)
	lab.S.ShowMesh, lab.S.ShowSkeleton, lab.S.Joint = false, true, -1
	for i := 0; i < 10; i++ {
		a.Frame(nil)
	}
	var img *image.RGBA
	a.Clock().Paused = true
	a.Frame(func() { img = a.ReadPixels() })
	a.Clock().Paused = false
	defer apptest.KeepOnFailure(t, img, "velocities-still-root")
	root := slices.Index(lab.skel.Names, "joint_Root")
	hips := lab.ch.Hips
	if root < 0 || lab.skel.Parents[hips] != root {
		t.Fatalf("joint_Root is joint %d, the hips' parent %d", root, lab.skel.Parents[hips])
	}
	v := a.View()
	on := func(p mgl32.Vec3) (color.RGBA, bool) {
		s := v.Project(p)
		x, y := int(s.X+0.5), int(s.Y+0.5)
		if x < 0 || y < 0 || x >= img.Bounds().Dx() || y >= img.Bounds().Dy() {
			return color.RGBA{}, false
		}
		return img.RGBAAt(x, y), true
	}
	seen, bone := 0, 0
	for f := float32(0.1); f < 0.95; f += 0.05 {
		if c, ok := on(lab.global.Pos[hips].Add(lab.global.Pos[root].Sub(lab.global.Pos[hips]).Mul(f))); ok {
			seen++
			if apptest.Near(c, render.BoneColor, 30) {
				bone++
			}
		}
	}
	spine := lab.ch.Figure.Spine[1]
	c, _ := on(lab.global.Pos[hips].Add(lab.global.Pos[spine]).Mul(0.5))
	if seen < 5 || bone > 0 || !apptest.Near(c, render.BoneColor, 30) {
		t.Errorf("between the hips and the static root %d of %d points on screen show the bone colour (want none of at least 5); the spine's own bone shows %v",
			bone, seen, c)
	}
}

// checkLoadedBody: a BVH file loaded after the default character was drawn
// (as a file dropped on the window) is drawn with a body of its own, bound
// to its own skeleton: lit at the midpoints of its spine and shins. The
// file is the bench skeleton, in centimetres, whose joints differ from the
// default character's.
func checkLoadedBody(t *testing.T, a *app.App) {
	sk, clip := animsys.BenchSkeleton(), animsys.GenerateBenchClip(3)
	path := filepath.Join(t.TempDir(), "bench.bvh")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := bvh.Write(f, &sk, &clip, bvh.Centimetres.Scale()); err != nil {
		t.Fatal(err)
	}
	f.Close()
	lab := a.Lab().(*Lab)
	before := a.View().BodyFor(&lab.skel)
	if !a.Load([]string{path}) {
		t.Fatalf("%s did not load", path)
	}
	// The lab starts over in the same place: its Skeleton value has the
	// same address, and must not get the body cached for the old one.
	if after := a.View().BodyFor(&lab.skel); after == nil || after == before {
		t.Fatalf("the loaded character's body is %v, the default's %v: want a new one", after, before)
	}
	lab.S.ShowSkeleton, lab.S.Joint = false, -1
	for i := 0; i < 20; i++ {
		a.Frame(nil)
	}
	var img *image.RGBA
	a.Clock().Paused = true
	a.Frame(func() { img = a.ReadPixels() })
	a.Clock().Paused = false
	defer apptest.KeepOnFailure(t, img, "velocities-loaded-body")
	fig := lab.ch.Figure
	if !fig.Human {
		t.Fatal("the bench skeleton did not read as a human figure")
	}
	v := a.View()
	lit, n := 0, 0
	mids := []int{fig.Spine[2], fig.Spine[3], fig.Legs[0].End, fig.Legs[1].End}
	for _, i := range mids {
		mid := lab.global.Pos[i].Add(lab.global.Pos[lab.skel.Parents[i]]).Mul(0.5)
		s := v.Project(mid)
		c := img.RGBAAt(int(s.X+0.5), int(s.Y+0.5))
		lo, hi := min(c.R, c.G, c.B), max(c.R, c.G, c.B)
		n++
		if hi-lo < 50 && int(c.R)+int(c.G)+int(c.B) > 3*100 {
			lit++
		}
	}
	if lit < n {
		t.Errorf("loaded character: %d of %d spine and shin points show the lit body", lit, n)
	}
}

// checkFrame: the skeleton's bones, the skinned body, the
// ground's checker and the velocity lines show where the projected
// character and floor are.
func checkFrame(t *testing.T, a *app.App) {
	a.ShowUI(false) // the panels would cover part of the character
	lab := a.Lab().(*Lab)
	lab.S.ShowMesh = false
	var img, withBody *image.RGBA
	for i := 0; i < 45; i++ {
		a.Frame(nil)
	}
	// The same paused pose drawn as a skeleton, then with the body.
	a.Clock().Paused = true
	a.Frame(func() { img = a.ReadPixels() })
	lab.S.ShowMesh, lab.S.ShowSkeleton, lab.S.Joint = true, false, assets.Head
	a.Frame(func() { withBody = a.ReadPixels() })
	lab.S.ShowSkeleton, lab.S.Joint = true, -1
	a.Clock().Paused = false
	defer apptest.KeepOnFailure(t, img, "velocities")
	defer apptest.KeepOnFailure(t, withBody, "velocities-body")
	v := a.View()
	checkBones(t, lab, &v, img)
	checkSkinnedBody(t, lab, &v, withBody)
	checkGround(t, lab, &v, img)
	checkVelocityLines(t, lab, &v, img)
}

// pixelAt is img's pixel where v projects p, false when that is off the
// image or within 2 px of its edge.
func pixelAt(v *app.View, img *image.RGBA, p mgl32.Vec3) (color.RGBA, bool) {
	s := v.Project(p)
	x, y := int(s.X+0.5), int(s.Y+0.5)
	if x < 2 || y < 2 || x >= img.Rect.Dx()-2 || y >= img.Rect.Dy()-2 {
		return color.RGBA{}, false
	}
	return img.RGBAAt(x, y), true
}

// checkBones: the midpoint of every drawn bone shows the bone colour
// (flat, unlit). A few may be hidden behind other limbs, so ask for
// 80%; a broken skeleton draw, projection or FK shows none.
func checkBones(t *testing.T, lab *Lab, v *app.View, img *image.RGBA) {
	t.Helper()
	bones, hit := 0, 0
	parents := lab.skel.Parents
	for i, p := range parents {
		if p < 0 || parents[p] < 0 {
			continue
		}
		mid := lab.global.Pos[i].Add(lab.global.Pos[p]).Mul(0.5)
		c, ok := pixelAt(v, img, mid)
		if !ok {
			t.Fatalf("bone %d midpoint %v projects off screen", i, mid)
		}
		bones++
		if apptest.Near(c, render.BoneColor, 12) {
			hit++
		}
	}
	if hit*5 < bones*4 {
		t.Errorf("bone colour at %d of %d bone midpoints, want >= 80%%", hit, bones)
	}
}

// checkSkinnedBody: the skinned body covers the torso and thighs: at
// their bones' midpoints the lit, grey body replaces the yellow bone.
// Lit grey: channels within 50 of each other, brighter than the ground.
func checkSkinnedBody(t *testing.T, lab *Lab, v *app.View, withBody *image.RGBA) {
	t.Helper()
	lit, torso := 0, 0
	for _, i := range []int{assets.Spine, assets.Spine1, assets.Spine2, assets.LeftLeg, assets.RightLeg} {
		mid := lab.global.Pos[i].Add(lab.global.Pos[lab.skel.Parents[i]]).Mul(0.5)
		s := v.Project(mid)
		c := withBody.RGBAAt(int(s.X+0.5), int(s.Y+0.5))
		lo, hi := min(c.R, c.G, c.B), max(c.R, c.G, c.B)
		torso++
		if hi-lo < 50 && int(c.R)+int(c.G)+int(c.B) > 3*100 && !apptest.Near(c, render.BoneColor, 40) {
			lit++
		}
	}
	if lit < torso-1 {
		t.Errorf("skinned body: %d of %d torso and thigh points show the lit body", lit, torso)
	}
}

// checkGround: cell centres around (not under) the character show the
// checker colour of their parity; both colours must appear.
func checkGround(t *testing.T, lab *Lab, v *app.View, img *image.RGBA) {
	t.Helper()
	foc := lab.Focus()
	cells, right := 0, 0
	seen := map[bool]bool{}
	for dx := -3; dx <= 3; dx++ {
		for dz := -3; dz <= 3; dz++ {
			if dx >= -1 && dx <= 1 && dz >= -1 && dz <= 1 {
				continue
			}
			cx, cz := int(foc[0])+dx, int(foc[2])+dz
			c, ok := pixelAt(v, img, mgl32.Vec3{float32(cx) + 0.5, 0, float32(cz) + 0.5})
			if !ok {
				continue
			}
			cells++
			even := (cx+cz)%2 == 0
			want := render.GroundB
			if even {
				want = render.GroundA
			}
			if apptest.Near(c, want, 6) {
				right++
				seen[even] = true
			}
		}
	}
	if cells < 10 || right*10 < cells*9 || len(seen) != 2 {
		t.Errorf("ground: %d of %d visible cell centres have their checker colour (both parities seen: %v)", right, cells, len(seen) == 2)
	}
}

// checkVelocityLines: red (propagated) and blue (finite difference)
// pixels appear around the character's projected joints.
func checkVelocityLines(t *testing.T, lab *Lab, v *app.View, img *image.RGBA) {
	t.Helper()
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
			if apptest.Near(c, render.Propagated, 10) {
				reds++
			}
			if apptest.Near(c, render.FiniteDiff, 10) {
				blues++
			}
		}
	}
	if reds < 40 || blues < 40 {
		t.Errorf("velocity lines: %d red and %d blue pixels around the character, want >= 40 each", reds, blues)
	}
}
