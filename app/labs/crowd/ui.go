package crowd

import (
	"fmt"
	"image/color"
	"kinelab/animsys/words"
	"strings"
	"time"
	"unicode"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/render"
	"kinelab/shaders"
	"kinelab/ui"
)

// crowdPanels remembers which panel sections are open.
type crowdPanels struct {
	crowd, drawing, pick bool
}

// crowdDraw is what drawing the crowd keeps: the coarse skinned bodies,
// one per level of detail (made by Upload when the skeleton changes,
// never while drawing), scratch space, and the timing of the drawing
// itself — the only state Draw3D writes.
type crowdDraw struct {
	bodies   [crowdLevels]*render.SkinnedMesh // by level: crowdVertices; a nil level uses the finer one
	vertices [crowdLevels]int                 // of bodies
	stale    bool                             // the skeleton changed: Upload makes the bodies again
	pos      []mgl32.Vec3                     // one character's shifted positions
	level    []int8                           // each character's body level this frame; -1: lines

	meshes, lines   int              // characters drawn each way in the last frame
	perLevel        [crowdLevels]int // of meshes, how many at each level
	drawMs, frameMs float32          // smoothed: the crowd's draw calls; frame to frame
	lastFrame       time.Time
	drawSamples     []float32
	frameSamples    []float32
	cursor          int
}

func (d *crowdDraw) init() {
	d.drawSamples = make([]float32, statSamples)
	d.frameSamples = make([]float32, statSamples)
}

// Upload implements app.Lab: when the crowd's skeleton changed, the
// old bodies go and the new ones are generated and uploaded; without the
// finest the crowd is drawn as lines, and a coarser level that fails uses
// the finer one.
func (l *Lab) Upload() {
	d := &l.draw
	if !d.stale {
		return
	}
	d.stale = false
	d.unload()
	meshes := crowdBodies(l.cast.fig, l.cast.skel, l.cast.mesh)
	for k := range meshes {
		mesh := &meshes[k]
		if mesh.VertexCount() == 0 { // no coarser level: the finer one is drawn
			continue
		}
		m, err := render.NewSkinnedMeshShaders(mesh, shaders.SkinCrowdVS, shaders.SkinCrowdFS)
		if err != nil {
			if k == 0 {
				return
			}
			continue
		}
		m.Opaque = true // crowdTints and pickTint have alpha 255
		if l.cast.mesh != nil {
			m.TintMix = 0.35 // its own colours, tinted enough to tell characters and the pick apart
		}
		d.bodies[k], d.vertices[k] = m, mesh.VertexCount()
	}
}

func (d *crowdDraw) unload() {
	for k, m := range d.bodies {
		if m != nil {
			m.Unload()
			d.bodies[k] = nil
		}
	}
}

// ownVertexBudget bounds the vertices of a character's own mesh drawn a
// frame, about what the generated bodies' levels draw for 400 characters
// under a software renderer, for a mesh body.Decimate cannot bring near
// crowdVertices (many small closed parts); a 7,218-vertex glTF robot
// simplifies to 277 and is not limited.
const ownVertexBudget = 300_000

// crowdTints are the bodies' colours; the picked character is highlighted.
var crowdTints = []color.RGBA{
	render.SkinColor, {196, 160, 132, 255}, {132, 168, 200, 255}, {160, 192, 146, 255},
	{206, 180, 120, 255}, {176, 150, 190, 255}, {142, 186, 186, 255}, {204, 144, 136, 255},
}

// pickTint is the picked character's body colour.
var pickTint = color.RGBA{255, 222, 140, 255}

func crowdTint(i int) color.RGBA {
	return crowdTints[(uint32(i)*2654435761>>20)%uint32(len(crowdTints))]
}

// shifted writes pos + shift into the scratch positions.
func (d *crowdDraw) shifted(pos []mgl32.Vec3, shift mgl32.Vec3) []mgl32.Vec3 {
	if cap(d.pos) < len(pos) {
		d.pos = make([]mgl32.Vec3, len(pos))
	}
	d.pos = d.pos[:len(pos)]
	for j, p := range pos {
		d.pos[j] = p.Add(shift)
	}
	return d.pos
}

// Draw3D implements app.Lab: skinned bodies for up to S.MaxMeshes characters
// within S.MeshDist of the camera (distances scaled by the character's size), nearest the grid centre first — the
// finest body within S.FineDist of the camera (and for the picked
// character), the coarsest beyond S.CoarseDist, the middle one between,
// one batch per level — then skeleton lines for the rest, then the picked
// character's ring and its red and blue lines on top.
func (l *Lab) Draw3D(v *app.View) {
	d := &l.draw
	t0 := time.Now()
	n := l.builtN
	if len(d.level) != n {
		d.level = make([]int8, n)
	}
	eye := mgl32.Vec3{v.Camera.Position.X, v.Camera.Position.Y, v.Camera.Position.Z}
	limit := int(l.S.MaxMeshes + 0.5)
	if !l.S.ShowMesh || d.bodies[0] == nil {
		limit = 0
	} else if l.cast.mesh != nil {
		// A character's own mesh may not simplify far: the nearest
		// bodies up to a budget, the rest as lines.
		limit = min(limit, max(1, ownVertexBudget/d.vertices[0]))
	}
	d.meshes, d.lines, d.perLevel = 0, 0, [crowdLevels]int{}
	for _, i := range l.grid.order {
		// Distances at a human's size: a character cast.size times as large
		// stands cast.size times further apart, seen from cast.size times
		// further away, and is drawn at the same levels.
		dist := l.grid.cells[i].Sub(eye).Len() / l.cast.scale()
		if d.meshes >= limit || dist >= l.S.MeshDist {
			d.level[i] = -1
			d.lines++
			continue
		}
		d.meshes++
		k := 0
		switch {
		case i == l.pick || dist < l.S.FineDist:
		case dist < l.S.CoarseDist:
			k = 1
		default:
			k = 2
		}
		for k > 0 && d.bodies[k] == nil {
			k--
		}
		d.level[i] = int8(k)
		d.perLevel[k]++
	}
	for k, m := range d.bodies {
		if d.perLevel[k] > 0 {
			l.drawBodies(m, int8(k))
		}
	}
	parents := l.cast.skel.Parents
	for i := 0; i < n; i++ {
		if d.level[i] >= 0 {
			continue
		}
		pos, _, _, shift := l.Character(i)
		col := render.BoneColor
		if i == l.pick {
			col = pickTint
		}
		render.SkeletonLines(d.shifted(pos, shift), parents, l.cast.fig.Ground, col)
	}
	l.drawPicked(v)
	rl.DrawRenderBatchActive()

	now := time.Now()
	ms := float32(now.Sub(t0).Seconds() * 1e3)
	frame := float32(now.Sub(d.lastFrame).Seconds() * 1e3)
	d.lastFrame = now
	d.drawMs += 0.1 * (ms - d.drawMs)
	if frame < 1000 { // not the first frame, nor after a lab switch
		if d.frameMs == 0 {
			d.frameMs = frame
		}
		d.frameMs += 0.1 * (frame - d.frameMs)
		d.drawSamples[d.cursor%statSamples] = ms
		d.frameSamples[d.cursor%statSamples] = frame
		d.cursor++
	}
}

// drawBodies draws, in one batch of body, every character given the body
// of level k this frame (EndBatch hands it to the driver).
func (l *Lab) drawBodies(body *render.SkinnedMesh, k int8) {
	d := &l.draw
	body.BeginBatch()
	for _, i := range l.grid.order {
		if d.level[i] != k {
			continue
		}
		pos, rot, scl, shift := l.Character(i)
		tint := crowdTint(i)
		if i == l.pick {
			tint = pickTint
		}
		body.DrawBatched(d.shifted(pos, shift), rot, scl, tint)
	}
	body.EndBatch()
}

// drawPicked rings the picked character's cell and, with S.Lines, draws
// its red (propagated) and blue (finite-difference) velocity lines over
// everything.
func (l *Lab) drawPicked(v *app.View) {
	pos, _, _, shift := l.Character(l.pick)
	c := l.grid.cells[l.pick]
	rl.DrawCircle3D(render.V3(c.Add(mgl32.Vec3{0, 0.01, 0})), 0.5*l.cast.scale(), rl.Vector3{X: 1}, 90, pickTint)
	if !l.S.Lines || !l.ticked {
		return
	}
	eye := v.Camera.Position
	fwd := pos[l.cast.hips].Add(shift).Sub(mgl32.Vec3{eye.X, eye.Y, eye.Z})
	side := mathx.Vec3Normalize(fwd.Cross(mgl32.Vec3{0, 1, 0})).Mul(0.008 * l.cast.scale())
	render.BeginOnTop()
	for j := 1; j < len(pos); j++ {
		red, blue := l.Lines(j)
		p := pos[j].Add(shift)
		render.VectorLine(p, red, side.Mul(-1), l.S.LineScale, render.Propagated)
		render.VectorLine(p, blue, side, l.S.LineScale, render.FiniteDiff)
	}
	render.EndOnTop()
}

// Draw2D implements app.Lab: the picked character's label and the timing and
// |red - blue| readout.
func (l *Lab) Draw2D(v *app.View) {
	pos, _, _, shift := l.Character(l.pick)
	s := v.Project(pos[l.cast.head].Add(shift).Add(mgl32.Vec3{0, 0.3 * l.cast.scale(), 0}))
	label := fmt.Sprintf("#%d", l.pick)
	ui.DrawText(label, s.X-ui.Measure(label, ui.TextSize)/2, s.Y, ui.TextSize, pickTint)
	v.DrawJointLabels(l.cast.skel, pos, shift, l.pickedJoint)

	d := &l.draw
	auto := ""
	if l.S.Threads < 0.5 {
		auto = " (auto)"
	}
	lib := l.cast.clipsName() + " clips"
	if l.builtLib == LibraryBench {
		lib = "bench-spec library"
	}
	body := "no skinned body"
	switch {
	case d.bodies[0] != nil && d.meshes > 0:
		body = d.bodiesText()
	case d.bodies[0] != nil:
		body = "no bodies"
	}
	lines := []string{
		fmt.Sprintf("%s, %s%s, %s", words.Count(l.builtN, "character"), words.Count(l.crowd.Threads(), "thread"), auto, lib),
		fmt.Sprintf("tick %.3f ms   %.2f us per character", l.timing.avg, 1e3*l.timing.avg/float32(l.builtN)),
		fmt.Sprintf("draw calls %.2f ms (%s, %d as lines)", d.drawMs, body, d.lines),
		fmt.Sprintf("frame %.2f ms", d.frameMs),
		fmt.Sprintf("#%d: mean |red - blue| %.4f m/s   max %.4f m/s", l.pick, l.Mean, l.Max),
	}
	cols := []color.RGBA{render.TextColor}
	if l.lastEvent != "" && l.time-l.lastEventTime < 3 {
		lines = append(lines, fmt.Sprintf("#%d: %s at %.2f s: blue off by %.1f m/s", l.pick, l.lastEvent, l.lastEventTime, l.lastEventMax))
	}
	if j := l.pickedJoint; j > 0 && j < l.cast.skel.Len() {
		red, blue := l.Lines(j)
		lines = append(lines, fmt.Sprintf("%s: red %.3f  blue %.3f  |red - blue| %.3f m/s", l.cast.skel.Names[j], red.Len(), blue.Len(), red.Sub(blue).Len()))
	}
	lines = append(lines, "red: propagated   blue: finite difference (previous tick)")
	for _, ln := range lines[1:] {
		c := render.TextColor
		if l.lastEvent != "" && strings.Contains(ln, ": "+l.lastEvent+" at ") {
			c = render.TargetColor // as the Velocities lab's event line
		}
		cols = append(cols, c)
	}
	cols[len(cols)-1] = render.DimText
	// Over the crowd the readout sits in a dark box, so it reads whatever
	// is behind it.
	r := ui.CaptionRect(0, 0, ui.TextSize, lines...)
	ui.Caption("crowd readout", v.Area.X+v.Area.Width-r.Width, v.Area.Y+v.Area.Height-r.Height, ui.TextSize, cols, lines...)
}

// clipsLabel is the panel's name for the character's clips (its button
// shortens a long one in the middle, and shows it whole on hover).
func (l *Lab) clipsLabel() string {
	r := []rune(l.cast.clipsName())
	return string(unicode.ToUpper(r[0])) + string(r[1:]) + " clips"
}

// sliders is every slider of the lab's panel but the picked character's
// (its end follows the crowd's size), declared once: Panel draws them and
// clampSettings keeps the settings within them.
func (l *Lab) sliders() ui.Ranges {
	s := &l.S
	return ui.Ranges{
		{Label: "Characters", V: &s.Count, Lo: 1, Hi: MaxCount, Format: "%.0f"},
		{Label: "Threads", V: &s.Threads, Lo: 0, Hi: crowdMaxThread, Text: func(k float32) string {
			if k >= 0.5 {
				return fmt.Sprintf("%.0f", k)
			}
			return "auto"
		}},
		{Label: "Spacing", V: &s.Spacing, Lo: 0.8, Hi: 4, Format: "%.2f m"},
		{Label: "Max bodies", V: &s.MaxMeshes, Lo: 0, Hi: MaxCount, Format: "%.0f"},
		{Label: "Body within", V: &s.MeshDist, Lo: 1, Hi: 200, Format: "%.0f m"},
		{Label: "Fine within", V: &s.FineDist, Lo: 0, Hi: 200, Format: "%.0f m"},
		{Label: "Coarse at", V: &s.CoarseDist, Lo: 0, Hi: 200, Format: "%.0f m"},
		{Label: "Length", V: &s.LineScale, Lo: 0.01, Hi: 1, Format: "%.2f m per m/s"},
	}
}

// Panel implements app.Lab.
func (l *Lab) Panel(p *app.Panel) {
	s, sec, sl := &l.S, &l.sec, l.ranges
	if p.Section("Crowd", &sec.crowd) {
		p.Range(sl, &s.Count)
		p.Range(sl, &s.Threads)
		p.Range(sl, &s.Spacing)
		p.Choice([]string{l.clipsLabel(), "Bench library"}, 2, &s.Library)
		p.Check("Inertialize every 0.5 s", &s.Inertialize)
	}
	if p.Section("Drawing", &sec.drawing) {
		p.Check("Skinned bodies", &s.ShowMesh)
		p.Range(sl, &s.MaxMeshes)
		p.Range(sl, &s.MeshDist)
		p.Range(sl, &s.FineDist)
		p.Range(sl, &s.CoarseDist)
	}
	if p.Section("Picked character", &sec.pick) {
		p.SliderFor(&s.Pick, "Character", &s.Pick, 0, float32(l.builtN-1), fmt.Sprintf("#%d", l.pick))
		p.Check("Red / blue lines", &s.Lines)
		p.Range(sl, &s.LineScale)
		p.Paragraph("Ctrl+click a character to pick it; click one of its joints for its values")
	}
}

// Keys implements app.Lab.
func (l *Lab) Keys() []app.Key {
	s := &l.S
	return []app.Key{
		{Code: rl.KeyEqual, Label: "+", Name: "more", Help: "double the crowd", Action: l.More},
		{Code: rl.KeyMinus, Label: "-", Name: "fewer", Help: "halve the crowd", Action: l.Fewer},
		{Code: rl.KeyP, Label: "P", Name: "next-pick", Help: "pick the next character", Action: l.NextPick},
		{Code: rl.KeyT, Label: "T", Name: "threads", Help: "threads: auto, 1, 2, ... 8", Action: func() {
			s.Threads = float32((int(s.Threads+0.5) + 1) % 9)
		}},
		{Code: rl.KeyB, Label: "B", Name: "library", Help: "character's clips / bench library", Action: func() { s.Library = 1 - s.Library }},
		{Code: rl.KeyI, Label: "I", Name: "inertialize", Help: "inertialization every 0.5 s on / off", Action: func() { s.Inertialize = !s.Inertialize }},
		{Code: rl.KeyM, Label: "M", Name: "mesh", Help: "skinned bodies / skeleton lines", Action: func() { s.ShowMesh = !s.ShowMesh }},
		{Code: rl.KeyL, Label: "L", Name: "lines", Help: "picked character's red / blue lines on / off", Action: func() { s.Lines = !s.Lines }},
	}
}

// Settings implements app.Lab.
func (l *Lab) Settings() any { return &l.S }

// CheckSettings implements app.Lab.
func (l *Lab) CheckSettings() { l.clampSettings() }
