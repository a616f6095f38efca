package app

import (
	"fmt"
	"image/color"
	"strings"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/render"
	"kinelab/ui"
)

// drawHelp lists every key and mouse control over the scene, with the
// action names --do scripts use.
func (a *App) drawHelp(lab Lab, v *View) {
	var keys []Key
	for _, k := range a.Keys() {
		if !strings.HasPrefix(k.Name, "lab-") {
			keys = append(keys, k)
		}
	}
	keys = append(keys, Key{Label: fmt.Sprintf("1-%d", len(a.entries)), Name: "lab-NAME", Help: "switch lab: " + strings.Join(entryNames(a.entries), ", ")})
	const fs = ui.TextSize
	const line = fs * 1.25
	intro := []string{
		"Mouse: left-drag orbit, right-drag pan, wheel zoom; click a joint to pick it",
		"Ctrl+left-drag: move the lab's target. Esc: quit",
		"Sliders: right-click resets, double-click (or Enter) types a value",
		"Drop .bvh files on the window, or Open... (O) to browse for them",
	}
	labelW, nameW := float32(0), ui.Measure("--do name", fs)
	for _, k := range keys {
		labelW = max(labelW, ui.Measure(k.Label, fs))
		nameW = max(nameW, ui.Measure(k.Name, fs))
	}
	W, H := float32(v.Width), float32(v.Height)
	w := min(W-20, 900)
	helpW := w - 32 - labelW - 16 - nameW - 16
	type row struct {
		key, name string
		help      []string
	}
	var rows []row
	n := 0
	for _, k := range keys {
		r := row{k.Label, k.Name, ui.Wrap(k.Help, helpW, fs)}
		rows = append(rows, r)
		n += len(r.help)
	}
	var introLines []string
	for _, t := range intro {
		introLines = append(introLines, ui.Wrap(t, w-32, fs)...)
	}
	h := float32(n+len(introLines)+2)*line + 40
	// Too tall for the screen: the rows go in two columns.
	cols := 1
	if h > H-tabBarH-10 {
		cols = 2
		w = W - 20
		helpW = (w-32)/2 - labelW - 16 - nameW - 16
		n = 0
		for i := range rows {
			rows[i].help = ui.Wrap(keys[i].Help, helpW, fs)
			n += len(rows[i].help)
		}
		h = float32((n+1)/2+len(introLines)+2)*line + 40
	}
	x := (W - w) / 2
	y := max(tabBarH+4, (H-h)/2)
	box := rl.Rectangle{X: x, Y: y, Width: w, Height: h}
	ui.BeginBlock(ui.KindOverlay, "help", box)
	rl.DrawRectangleRec(box, color.RGBA{16, 18, 22, 240})
	rl.DrawRectangleLinesEx(box, 1, color.RGBA{110, 120, 140, 255})
	title := ui.Clip("kinelab keys - "+lab.Title(), w-32-nameW-16, fs)
	ui.DrawText(title, x+16, y+12, fs, color.RGBA{255, 214, 120, 255})
	colW := (w - 32) / float32(cols)
	ty := y + 12 + line*1.5
	for _, t := range introLines {
		ui.DrawText(t, x+16, ty, fs, render.TextColor)
		ty += line
	}
	ty += line / 2
	top := ty
	per := (n + cols - 1) / cols
	used := 0
	cx := x + 16
	for c := 0; c < cols; c++ {
		ui.DrawText("--do name", cx+colW-nameW-16, top-line*0.9, fs*0.8, render.DimText)
	}
	for _, r := range rows {
		if cols == 2 && used >= per && cx == x+16 {
			cx, ty = x+16+colW, top
		}
		cell := func(x0, w float32) rl.Rectangle {
			return rl.Rectangle{X: x0, Y: ty - 2, Width: w, Height: line*float32(len(r.help)) + 2}
		}
		ui.DrawTextIn(r.key, cx, ty, fs, color.RGBA{255, 236, 180, 255}, cell(cx, labelW+8))
		hx := cx + labelW + 16
		for i, t := range r.help {
			ui.DrawTextIn(t, hx, ty+float32(i)*line, fs, render.TextColor, cell(hx, helpW+4))
		}
		nx := cx + colW - nameW - 16
		ui.DrawTextIn(r.name, nx, ty, fs, render.DimText, cell(nx, nameW+8))
		ty += line * float32(len(r.help))
		used += len(r.help)
	}
	ui.EndBlock()
}
