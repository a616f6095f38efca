package cost

import (
	"fmt"
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys/spring"
	"kinelab/render"
	"kinelab/ui"
)

// Drawing of the Transition-cost lab's heat maps (textures, colour bars,
// axes, hover readout) and of the picked offset's curve.

var (
	costPanelBg   = color.RGBA{18, 20, 25, 225}
	costPanelLine = color.RGBA{70, 76, 88, 255}
	costLobeA     = color.RGBA{240, 170, 60, 150}  // area before the zero crossing
	costLobeB     = color.RGBA{190, 110, 230, 130} // area after it
	costCurveCol  = render.TextColor
	costMarkCol   = render.TargetColor
)

// costLayout places the three map tiles in a row right of the panels.
type costLayout struct {
	tiles, maps, bars [costMaps]rl.Rectangle
	bottom            float32 // y (px) under the tiles
}

// costMapLayout is the maps' layout on a w x h screen (px). The maps are
// square, as large as a third of the width and 40% of the height allow.
func costMapLayout(w, h float32) costLayout {
	const x0, y0 = 320, 44
	const left, right, top, bottom = 58, 92, 26, 42 // y ticks, colour bar, title, x ticks
	tw := (w - 10 - x0) / costMaps
	m := max(40, min(tw-left-right, h*0.4-top-bottom))
	var l costLayout
	for i := range l.tiles {
		t := rl.Rectangle{X: x0 + float32(i)*tw, Y: y0, Width: tw - 8, Height: top + m + bottom}
		l.tiles[i] = t
		l.maps[i] = rl.Rectangle{X: t.X + left, Y: t.Y + top, Width: m, Height: m}
		l.bars[i] = rl.Rectangle{X: t.X + left + m + 10, Y: t.Y + top, Width: 12, Height: m}
		l.bottom = t.Y + t.Height
	}
	return l
}

// mapOffset is the (x m, v m/s) under screen point p in map rectangle r.
// Texel centres sit on the grid points, half a texel in from the edges.
func (l *Lab) mapOffset(r rl.Rectangle, p rl.Vector2) (x, v float32) {
	u := ((p.X-r.X)/r.Width*costGridN - 0.5) / (costGridN - 1)
	w := ((p.Y-r.Y)/r.Height*costGridN - 0.5) / (costGridN - 1)
	return l.S.XRange * (2*u - 1), l.S.VRange * (1 - 2*w)
}

// mapPoint is the screen point of offset (x, v) in map rectangle r.
func (l *Lab) mapPoint(r rl.Rectangle, x, v float32) rl.Vector2 {
	u := (x/l.S.XRange + 1) / 2
	w := (1 - v/l.S.VRange) / 2
	return rl.Vector2{X: r.X + (u*(costGridN-1)+0.5)/costGridN*r.Width, Y: r.Y + (w*(costGridN-1)+0.5)/costGridN*r.Height}
}

// costTextures holds the maps' GPU textures: made by the first Upload,
// refreshed by Upload when the grid changes, freed by Unload.
type costTextures struct {
	tex     [costMaps]rl.Texture2D
	version int
}

// Upload implements app.Lab: it makes the maps' textures, and uploads
// the grid's colours when they changed since the last upload, after the
// frame's updates, so drawing only draws. The textures are GPU copies of
// the grid, not lab state.
func (l *Lab) Upload() {
	t := l.tex
	if t == nil {
		t = &costTextures{version: -1}
		for i := range t.tex {
			img := rl.GenImageColor(costGridN, costGridN, color.RGBA{A: 255})
			t.tex[i] = rl.LoadTextureFromImage(img)
			rl.UnloadImage(img)
			rl.SetTextureFilter(t.tex[i], rl.FilterBilinear)
		}
		l.tex = t
	}
	if t.version != l.gridVersion {
		for i := range t.tex {
			rl.UpdateTexture(t.tex[i], l.pixels[i])
		}
		t.version = l.gridVersion
	}
}

// Unload frees the maps' textures; call on the window thread while the
// window is open. The next Upload makes them again.
func (l *Lab) Unload() {
	if l.tex == nil {
		return
	}
	for _, t := range l.tex.tex {
		rl.UnloadTexture(t)
	}
	l.tex = nil
}

// drawMap draws map i: title, image, axes with units, colour bar, the
// picked offset and, on the exact and error maps, the line 2xy + v = 0
// where the approximate feature's cost is zero.
func (l *Lab) drawMap(lay costLayout, i int, tex rl.Texture2D, title, unit string) {
	const fs = ui.SmallText + 1
	t, r, b := lay.tiles[i], lay.maps[i], lay.bars[i]
	ui.BeginBlock(ui.KindPlot, title, t)
	defer ui.EndBlock()
	rl.DrawRectangleRec(t, costPanelBg)
	rl.DrawRectangleLinesEx(t, 1, costPanelLine)
	ui.DrawText(ui.Clip(title, t.Width-16, fs), t.X+8, t.Y+5, fs, render.TextColor)
	rl.DrawTexturePro(tex, rl.Rectangle{Width: costGridN, Height: costGridN}, r, rl.Vector2{}, 0, rl.White)

	// Axes: ticks at the ends and zero, units along each axis.
	dim := render.DimText
	for _, f := range []float32{-1, 0, 1} {
		p := l.mapPoint(r, f*l.S.XRange, f*l.S.VRange)
		s := fmt.Sprintf("%.3g", f*l.S.XRange)
		w := ui.Measure(s, fs-2)
		rl.DrawLine(int32(p.X), int32(r.Y+r.Height), int32(p.X), int32(r.Y+r.Height+4), dim)
		ui.DrawText(s, min(max(p.X-w/2, r.X-8), r.X+r.Width-w+8), r.Y+r.Height+5, fs-2, dim)
		s = fmt.Sprintf("%.3g", f*l.S.VRange)
		w = ui.Measure(s, fs-2)
		rl.DrawLine(int32(r.X-4), int32(p.Y), int32(r.X), int32(p.Y), dim)
		ui.DrawText(s, r.X-6-w, min(max(p.Y-7, r.Y), r.Y+r.Height-14), fs-2, dim)
	}
	xl := "position offset x (m)"
	xl = ui.Fit(t.Width-16, fs-2, xl, "x (m)")
	ui.DrawText(xl, min(r.X+r.Width/2-ui.Measure(xl, fs-2)/2, t.X+t.Width-8-ui.Measure(xl, fs-2)), r.Y+r.Height+22, fs-2, dim)
	yl := ui.Fit(r.Height, fs-2, "velocity v (m/s)", "v (m/s)")
	ui.DrawTextRotated(yl, t.X+4, r.Y+r.Height/2+ui.Measure(yl, fs-2)/2, fs-2, dim)

	// Colour bar with its range and unit.
	for k := 0; k < int(b.Height); k++ {
		c := costColor(1 - float32(k)/(b.Height-1))
		rl.DrawRectangle(int32(b.X), int32(b.Y)+int32(k), int32(b.Width), 1, c)
	}
	rl.DrawRectangleLinesEx(b, 1, costPanelLine)
	mx := l.MaxVal[i]
	for _, f := range []float32{0, 0.5, 1} {
		y := b.Y + b.Height*(1-f)
		ui.DrawText(fmt.Sprintf("%.3g", f*mx), b.X+b.Width+4, min(max(y-7, b.Y), b.Y+b.Height-14), fs-2, dim)
	}
	ui.DrawText(unit, b.X+b.Width+4, b.Y+16, fs-2, dim)

	ui.BeginScissor(r)
	if i != MapSAD {
		l.drawValley(r)
	}
	p := l.mapPoint(r, l.S.PickX, l.S.PickV)
	rl.DrawCircleLines(int32(p.X), int32(p.Y), 6, rl.White)
	rl.DrawCircleLines(int32(p.X), int32(p.Y), 7, rl.Black)
	rl.EndScissorMode()
}

// drawValley draws the line v = -2·y·x (dashed), along which the
// approximate cost |2xy + v|/y² is zero although the offset still moves
// (two equal lobes): the feature's valley, beside the exact cost's, whose
// floor is near v = -1.6·x·y.
func (l *Lab) drawValley(r rl.Rectangle) {
	y := spring.HalflifeToDamping(l.S.Halflife) / 2
	a := l.mapPoint(r, -l.S.XRange, 2*y*l.S.XRange)
	b := l.mapPoint(r, l.S.XRange, -2*y*l.S.XRange)
	const n = 24
	for k := 0; k < n; k += 2 {
		f0, f1 := float32(k)/n, float32(k+1)/n
		p0 := rl.Vector2{X: a.X + (b.X-a.X)*f0, Y: a.Y + (b.Y-a.Y)*f0}
		p1 := rl.Vector2{X: a.X + (b.X-a.X)*f1, Y: a.Y + (b.Y-a.Y)*f1}
		rl.DrawLineEx(p0, p1, 1.5, color.RGBA{200, 230, 255, 200})
	}
}

// drawHover shows the offset and all costs under the mouse in any map.
func (l *Lab) drawHover(lay costLayout, m rl.Vector2) {
	for _, r := range lay.maps {
		if !rl.CheckCollisionPointRec(m, r) {
			continue
		}
		x, v := l.mapOffset(r, m)
		h := l.S.Halflife
		e, a := spring.TransitionCost(x, v, h), spring.TransitionCostApprox(x, v, h)
		lines := []string{fmt.Sprintf("x %+.3f m  v %+.2f m/s", x, v),
			fmt.Sprintf("exact %.4f m*s", e), fmt.Sprintf("feature %.4f m*s", a),
			fmt.Sprintf("error %.4f m*s", e-a), fmt.Sprintf("SAD %.3f m", spring.TransitionCostBaseline(x, v, 1, l.S.VelWeight))}
		const fs = ui.SmallText
		box := ui.CaptionRect(0, 0, fs, lines...)
		bx, by := m.X+14, m.Y+14
		if bx+box.Width > ui.Width() {
			bx = m.X - 14 - box.Width
		}
		by = min(by, ui.Height()-box.Height)
		ui.BeginBlock(ui.KindOverlay, "hover", rl.Rectangle{X: bx, Y: by, Width: box.Width, Height: box.Height})
		ui.Caption("hover", bx, by, fs, []color.RGBA{render.TextColor}, lines...)
		ui.EndBlock()
		return
	}
}

// drawCurve plots the picked offset decaying to zero in r: the area under
// it shaded (one colour before the zero crossing, another after: the exact
// cost adds both, the approximate feature subtracts them), the crossing
// marked, and the costs.
func (l *Lab) drawCurve(r rl.Rectangle) {
	const fs = ui.SmallText + 1
	ui.BeginBlock(ui.KindPlot, "offset curve", r)
	defer ui.EndBlock()
	rl.DrawRectangleRec(r, costPanelBg)
	rl.DrawRectangleLinesEx(r, 1, costPanelLine)
	pick := fmt.Sprintf("x %+.3f m, v %+.2f m/s", l.S.PickX, l.S.PickV)
	ui.DrawText(ui.Fit(r.Width-16, fs+2, "Offset after a transition: "+pick, "Offset from "+pick, pick),
		r.X+8, r.Y+6, fs+2, render.TextColor)
	area := rl.Rectangle{X: r.X + 62, Y: r.Y + 34, Width: r.Width - 74, Height: r.Height - 92}
	if area.Width < 20 || area.Height < 20 {
		return
	}
	lo, hi := float32(0), float32(0)
	for _, x := range l.Curve {
		lo, hi = min(lo, x), max(hi, x)
	}
	pad := (hi - lo) * 0.08
	lo, hi = lo-pad, hi+pad
	if !(hi > lo) {
		lo, hi = -1, 1
	}
	py := func(x float32) float32 { return area.Y + area.Height*(hi-x)/(hi-lo) }
	zero := py(0)
	at := func(t float32) float32 { // the curve at t (s), linear between samples
		f := t / l.CurveT * (costCurveN - 1)
		k := min(int(f), costCurveN-2)
		return l.Curve[k] + (l.Curve[k+1]-l.Curve[k])*(f-float32(k))
	}
	// Shaded area, one pixel column at a time.
	for px := int32(0); px < int32(area.Width); px++ {
		t := l.CurveT * (float32(px) + 0.5) / area.Width
		y := py(at(t))
		c := costLobeA
		if l.Crossing > 0 && t > l.Crossing {
			c = costLobeB
		}
		top, h := min(y, zero), costAbs(y-zero)
		rl.DrawRectangle(int32(area.X)+px, int32(top), 1, int32(h+0.5), c)
	}
	rl.DrawRectangleLinesEx(area, 1, color.RGBA{60, 64, 74, 255})
	rl.DrawLine(int32(area.X), int32(zero), int32(area.X+area.Width), int32(zero), render.DimText)
	for k := 1; k < costCurveN; k++ {
		t0, t1 := l.CurveT*float32(k-1)/(costCurveN-1), l.CurveT*float32(k)/(costCurveN-1)
		a := rl.Vector2{X: area.X + area.Width*t0/l.CurveT, Y: py(l.Curve[k-1])}
		b := rl.Vector2{X: area.X + area.Width*t1/l.CurveT, Y: py(l.Curve[k])}
		rl.DrawLineEx(a, b, 2, costCurveCol)
	}
	l.drawCrossing(area, zero, fs)

	// Axes: offset (m) at the top, zero and bottom; time (s) under.
	dim := render.DimText
	for _, y := range []float32{hi, 0, lo} {
		if y != 0 && costAbs(py(y)-zero) < 16 {
			continue
		}
		s := fmt.Sprintf("%.3g", y)
		if y == hi {
			s += " m"
		}
		ui.DrawText(s, r.X+6, py(y)-7, fs-2, dim)
	}
	for _, f := range []float32{0, 1} {
		s := fmt.Sprintf("%.3g s", f*l.CurveT)
		w := ui.Measure(s, fs-2)
		ui.DrawText(s, area.X+area.Width*f-w*f, area.Y+area.Height+4, fs-2, dim)
	}
	s := ui.Fit(area.Width-2*ui.Measure("0.000 s", fs-2)-16, fs-2, fmt.Sprintf("time after the transition, half-life %.3f s", l.S.Halflife),
		fmt.Sprintf("half-life %.3f s", l.S.Halflife), "")
	ui.DrawText(s, area.X+area.Width/2-ui.Measure(s, fs-2)/2, area.Y+area.Height+4, fs-2, dim)

	// Costs, coloured like the areas they measure.
	y := r.Y + r.Height - 2*fs - 6
	x := r.X + 8
	parts := []struct {
		s string
		c color.RGBA
	}{
		{fmt.Sprintf("exact %.4f m*s", l.PickExact), costLobeA},
		{fmt.Sprintf("  feature |signed| %.4f", l.PickApprox), render.TextColor},
		{fmt.Sprintf("  SAD %.3f m", l.PickSAD), render.DimText},
	}
	for _, p := range parts {
		c := p.c
		c.A = 255
		if x+ui.Measure(p.s, fs) > r.X+r.Width-8 {
			break
		}
		ui.DrawText(p.s, x, y, fs, c)
		x += ui.Measure(p.s, fs)
	}
	if l.Crossing > 0 {
		ui.DrawText(ui.Fit(r.Width-16, fs-2, "orange + purple = exact; orange - purple = feature", "exact: A + B, feature: |A - B|"),
			r.X+8, y+fs+2, fs-2, dim)
	}
}

// drawCrossing marks where the picked offset's curve, drawn in area with
// its zero at screen height zero, crosses zero, and says when (fs: the
// text's size); nothing if it does not cross within the curve.
func (l *Lab) drawCrossing(area rl.Rectangle, zero, fs float32) {
	if !(l.Crossing > 0 && l.Crossing < l.CurveT) {
		return
	}
	x := area.X + area.Width*l.Crossing/l.CurveT
	rl.DrawLineEx(rl.Vector2{X: x, Y: area.Y}, rl.Vector2{X: x, Y: area.Y + area.Height}, 2, costMarkCol)
	rl.DrawCircleV(rl.Vector2{X: x, Y: zero}, 5, costMarkCol)
	s := fmt.Sprintf("crosses 0 at %.3f s", l.Crossing)
	tx := x + 8
	if w := ui.Measure(s, fs); tx+w > area.X+area.Width-4 {
		tx = x - 8 - w
	}
	ty := area.Y + 6 // on the side of zero away from the lobe after the crossing
	if l.Curve[0] < 0 {
		ty = area.Y + area.Height - 22
	}
	ui.DrawText(s, tx, ty, fs, costMarkCol)
}

// costColor maps t in [0, 1] to an inferno-like colour ramp (black, purple,
// orange, pale yellow): dark is cheap, bright is expensive.
func costColor(t float32) color.RGBA {
	stops := [...][3]float32{{0, 0, 4}, {40, 11, 84}, {101, 21, 110}, {159, 42, 99},
		{212, 72, 66}, {245, 125, 21}, {250, 193, 39}, {252, 255, 164}}
	if !(t > 0) {
		t = 0
	}
	t = min(t, 1) * float32(len(stops)-1)
	i := min(int(t), len(stops)-2)
	f := t - float32(i)
	a, b := stops[i], stops[i+1]
	c := func(k int) uint8 { return uint8(a[k] + (b[k]-a[k])*f + 0.5) }
	return color.RGBA{R: c(0), G: c(1), B: c(2), A: 255}
}
