package app

import (
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys/character"
	"kinelab/render"
	"kinelab/ui"
)

// fileBrowser is the in-window file browser (Open..., the O key): folders
// and .bvh, .gltf and .glb files, for systems where dropping files on the window does not
// work. Choosing files loads them as App.Load does; choosing one glTF
// file "As character" plays the captures on it (App.SetOnto).
type fileBrowser struct {
	dir      string
	dirs     []string // sub-folders of dir
	files    []string // .bvh, .gltf and .glb files in dir
	selected map[string]bool
	err      string
	list     ui.Panel
}

// OpenBrowser opens the file browser in the folder of the loaded files, or
// the current folder.
func (a *App) OpenBrowser() {
	dir := "."
	if len(a.mocap.files) > 0 {
		dir = filepath.Dir(a.mocap.files[0])
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	a.chrome.browser = &fileBrowser{}
	a.chrome.browser.cd(abs)
}

// BrowserOpen reports whether the file browser is showing.
func (a *App) BrowserOpen() bool { return a.chrome.browser != nil }

// browserKinds are the files the browser lists (besides files with no
// extension whose content is one), and browserTitle its title, which
// names them all (it said "Open BVH files" and listed glTF too).
var browserKinds = []string{".bvh", ".gltf", ".glb"}

const browserTitle = "Open BVH or glTF files (.bvh, .gltf, .glb)"

// cd lists folder dir.
func (b *fileBrowser) cd(dir string) {
	b.dir, b.dirs, b.files, b.err = dir, nil, nil, ""
	b.selected = map[string]bool{}
	b.list.Scroll = 0
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.err = err.Error()
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		switch {
		case isDir:
			b.dirs = append(b.dirs, name)
		case slices.Contains(browserKinds, strings.ToLower(filepath.Ext(name))):
			b.files = append(b.files, name)
		case filepath.Ext(name) == "" && e.Type().IsRegular():
			// A file with no extension is listed by its content (read
			// only for these: a folder of images is not opened file by
			// file); a FIFO or device is not.
			p := filepath.Join(dir, name)
			if character.IsBVH(p) || character.IsGLTF(p) {
				b.files = append(b.files, name)
			}
		}
	}
	slices.Sort(b.dirs)
	slices.Sort(b.files)
}

// drawBrowser draws the browser over everything and returns what its
// buttons ask for (loading the chosen files, closing it). Moving between
// folders is the browser's own state and happens at once.
func (a *App) drawBrowser(v *View) (asked []func()) {
	b := a.chrome.browser
	W, H := float32(v.Width), float32(v.Height)
	w, h := min(720, W-40), min(640, H-tabBarH-30)
	box := rl.Rectangle{X: (W - w) / 2, Y: tabBarH + (H-tabBarH-h)/2, Width: w, Height: h}
	ui.BeginBlock(ui.KindOverlay, "file browser", box)
	rl.DrawRectangleRec(box, color.RGBA{16, 18, 22, 245})
	rl.DrawRectangleLinesEx(box, 1, color.RGBA{110, 120, 140, 255})
	x, y := box.X+12, box.Y+10
	ui.DrawText(ui.Clip(browserTitle, w-24, ui.TextSize), x, y, ui.TextSize, color.RGBA{255, 214, 120, 255})
	y += 28
	ui.DrawText(ui.Clip(b.dir, w-24, ui.SmallText), x, y, ui.SmallText, render.DimText)
	y += 20
	ui.DrawText(ui.Clip(a.ontoLine(), w-24, ui.SmallText), x, y, ui.SmallText, render.DimText)
	y += 24
	n := 0
	var one string // the file selected, when only one is
	for _, s := range b.files {
		if b.selected[s] {
			n, one = n+1, filepath.Join(b.dir, s)
		}
	}
	bw := (w - 24 - 12) / 4
	row := func(i int) rl.Rectangle {
		return rl.Rectangle{X: x + float32(i)*(bw+4), Y: box.Y + h - 36, Width: bw, Height: 26}
	}
	load := "Load selected"
	if n > 0 {
		load = "Load " + strconv.Itoa(n) + " file"
		if n > 1 {
			load += "s"
		}
	}
	if ui.Button(row(0), "Up a folder") {
		b.cd(filepath.Dir(b.dir))
	}
	if ui.Button(row(1), load) && n > 0 {
		var paths []string
		for _, s := range b.files {
			if b.selected[s] {
				paths = append(paths, filepath.Join(b.dir, s))
			}
		}
		asked = append(asked, func() { a.CloseBrowser(); a.Load(paths) })
	}
	// The Character choice: a glTF character selected alone becomes the
	// one the captures play on; with none selected, the captures go back
	// to their own figure.
	switch {
	case n == 1 && character.IsGLTF(one):
		if ui.Button(row(2), "As character") {
			asked = append(asked, func() { a.CloseBrowser(); a.SetOnto(one) })
		}
	case n == 0 && a.mocap.onto.target != nil:
		if ui.Button(row(2), "No character") {
			asked = append(asked, func() { a.CloseBrowser(); a.SetOnto("") })
		}
	default:
		ui.Button(row(2), "Character...") // pick one .glb to play the captures on
	}
	if ui.Button(row(3), "Cancel") || rl.IsKeyPressed(rl.KeyEscape) {
		asked = append(asked, a.CloseBrowser)
	}
	p := &b.list
	p.X, p.Y, p.W = x, y, w-24
	p.MaxH = box.Y + h - 46 - y
	p.Begin()
	if b.err != "" {
		p.ParagraphColor(b.err, color.RGBA{255, 150, 130, 255})
	}
	if len(b.dirs)+len(b.files) == 0 && b.err == "" {
		p.Text("no folders or .bvh files here")
	}
	for _, d := range b.dirs {
		if p.Button(ui.Clip(d+"/", p.W-40, ui.TextSize)) {
			b.cd(filepath.Join(b.dir, d))
			break
		}
	}
	for _, f := range b.files {
		on := b.selected[f]
		if p.Check(ui.Clip(f, p.W-60, ui.TextSize), &on) {
			b.selected[f] = on
		}
	}
	p.End()
	ui.EndBlock()
	if m := rl.GetMousePosition(); rl.CheckCollisionPointRec(m, p.Bounds()) {
		if wh := rl.GetMouseWheelMove(); wh != 0 {
			p.ScrollBy(wh)
		}
	}
	return asked
}
