package app

import (
	"cmp"
	"context"
	"fmt"
	"image/color"
	"kinelab/animsys/words"
	"os"
	"path/filepath"
	"slices"
	"strings"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/assets"
	"kinelab/render"
	"kinelab/ui"
)

// mocapState is the character loaded from BVH files (nil: the default)
// and how its files were read, and the character they play on.
type mocapState struct {
	character *character.Character // what the labs animate: source, or source retargeted onto onto
	source    *character.Character // the captures as loaded (nil: the embedded clips)
	files     []string             // the BVH files it was loaded from
	opts      bvh.ReadOptions      // how they were read (the Mocap section changes it)
	onto
}

// Load reads BVH files as the character of every lab that animates one
// (drag and drop does the same), with the Mocap section's options (the
// command line's at first), and makes its body; with a character to play
// them on (--onto, the file browser's Character choice), retargeted onto
// it (onto.go). Errors go to stderr and
// the screen; so do the files left out for their skeleton
// (character.Load: the largest group of one skeleton loads), as notices
// that stay in view until dismissed (Message.Sticky), as does the note
// of a figure not read as a human. The app keeps running. It reports whether every file read: a file
// skipped is no failure. Call it from the input stage or before the loop,
// never while drawing.
func (a *App) Load(files []string) bool {
	ch, err := character.LoadProgress(context.Background(), files, a.mocap.opts, a.loadingFrame)
	errs := character.FileErrors(err) // each file's on a line of its own
	for _, err := range errs {
		fmt.Fprintln(os.Stderr, "kinelab:", err)
	}
	if ch != nil {
		a.mocap.source, a.mocap.files = ch, files
		for _, s := range ch.Skipped {
			fmt.Fprintln(os.Stderr, "kinelab:", s)
		}
		for _, r := range ch.Repeated {
			fmt.Fprintln(os.Stderr, "kinelab:", r)
		}
		for _, n := range ch.Notes {
			fmt.Fprintln(os.Stderr, "kinelab:", ch.Name+":", n)
		}
	}
	for _, err := range errs {
		a.sayErr(err.Error())
	}
	if ch != nil {
		a.say(loadedMessage(ch))
		for _, s := range ch.Skipped {
			a.alert(s.Error())
		}
		for _, r := range ch.Repeated {
			a.say(r)
		}
		for _, n := range ch.Notes {
			if n == ch.NotHuman() { // look-at, IK, matching on its clips are off
				a.alert(ch.Name + ": " + n)
			} else {
				a.say(ch.Name + ": " + n)
			}
		}
		a.use(ch)
	}
	return err == nil
}

// use gives every lab the captures src (nil: the embedded clips), or
// them retargeted onto the character they play on, and makes its body.
func (a *App) use(src *character.Character) {
	ch := a.retarget(src)
	a.mocap.character = ch
	if ch == nil {
		ch = assets.Character()
	}
	a.makeBody(ch)
	for _, l := range a.labs {
		if l != nil {
			l.SetCharacter(ch)
		}
	}
	if rl.IsWindowReady() {
		rl.SetWindowTitle(a.title())
	}
	a.ResetCamera() // framed for the new character's size
}

// loadingFrame shows, in a window a user watches, how far a load has
// come (character.LoadProgress): a frame of its own, drawn between two
// files, with a bar and the file being read ("Loading 5 of 27 files:
// walk_03.bvh"), where the window stayed black for seconds. A scripted
// run (--frames) draws only its own frames.
func (a *App) loadingFrame(done, total int, path string) {
	if !rl.IsWindowReady() || a.cfg.Headless() || total < 2 {
		return
	}
	w, h := ui.Width(), ui.Height()
	bw := min(560, w-80)
	box := rl.Rectangle{X: (w - bw) / 2, Y: h/2 - 40, Width: bw, Height: 80}
	text := fmt.Sprintf("Loading %d of %d files: %s", min(done+1, total), total, filepath.Base(path))
	if path == "" {
		text = fmt.Sprintf("Loaded %d files: making the character", total)
	}
	rl.BeginDrawing()
	rl.ClearBackground(render.Background)
	rl.BeginMode2D(rl.Camera2D{Zoom: ui.Scale()})
	rl.DrawRectangleRec(box, color.RGBA{16, 18, 22, 245})
	rl.DrawRectangleLinesEx(box, 1, color.RGBA{110, 120, 140, 255})
	ui.DrawText(ui.Shorten(text, bw-24, ui.TextSize), box.X+12, box.Y+12, ui.TextSize, render.TextColor)
	bar := rl.Rectangle{X: box.X + 12, Y: box.Y + 48, Width: bw - 24, Height: 16}
	rl.DrawRectangleLinesEx(bar, 1, color.RGBA{80, 86, 98, 255})
	bar.Width *= float32(done) / float32(total)
	rl.DrawRectangleRec(bar, render.TargetColor)
	rl.EndMode2D()
	rl.EndDrawing()
}

// loadedMessage says what was loaded: "loaded walk: 30 joints, 1 clip",
// with how many files the clips came from when more than one was read
// ("..., 49 clips from 49 files") or some were skipped ("..., 49 clips
// from 49 of 50 files, 1 skipped").
func loadedMessage(ch *character.Character) string {
	clips := words.Count(len(ch.Clips), "clip")
	switch used, skipped := len(ch.Files), len(ch.Skipped); {
	case skipped > 0:
		clips += fmt.Sprintf(" from %d of %d files, %d skipped", used, used+skipped, skipped)
	case used > 1:
		clips += " from " + words.Count(used, "file")
	}
	return fmt.Sprintf("loaded %s: %s, %s", ch.Name, words.Count(ch.Skel.Len(), "joint"), clips)
}

// mocapSection is the playback panel's section for the loaded BVH files:
// what was detected and why, and the choices that read the files again
// (units, up axis, leading rest frames). A new choice comes back as an
// intent: the files are read again before the next update.
func (a *App) mocapSection(p *ui.Panel) (asked []func()) {
	ch := a.mocap.character
	if ch == nil || !p.Section("Mocap", &a.chrome.mocapOpen) {
		return nil
	}
	if len(a.mocap.files) > 0 {
		p.Paragraph(ch.Name + ": " + strings.Join(a.baseNames(), ", "))
	}
	a.ontoSection(p)
	o := a.mocap.opts
	// glTF is metres and +Y up, with no rest frames: no choice to make.
	if len(a.mocap.files) > 0 && !character.IsGLTF(a.mocap.files[0]) {
		readChoices(p, &o)
	}
	for _, n := range ch.Notes {
		p.Paragraph(n)
	}
	if msg := a.bodies.errs[keyOf(&ch.Skel)]; msg != "" {
		p.Paragraph("No skinned body: " + msg)
	}
	if o != a.mocap.opts {
		asked = append(asked, func() {
			a.mocap.opts = o
			a.Load(a.mocap.files)
		})
	}
	return asked
}

// readChoices are the Mocap section's choices of how to read BVH files:
// units, up axis, leading rest frames. A choice the buttons do not name
// (a factor from --units 0.05, -z from --up) lights none of them.
func readChoices(p *ui.Panel, o *bvh.ReadOptions) {
	units := []string{"auto", "m", "cm", "mm", "in", "cmu"}
	u := int32(slices.Index(units, cmp.Or(strings.ToLower(o.Units), "auto")))
	p.Text("Units")
	if p.Choice([]string{"Auto", "m", "cm", "mm", "in", "CMU"}, 3, &u) {
		o.Units = units[u]
	}
	ups := []string{"auto", "y", "z"}
	up := int32(slices.Index(ups, cmp.Or(strings.ToLower(o.Up), "auto")))
	p.Text("Up axis")
	if p.Choice([]string{"Auto", "Y", "Z"}, 3, &up) {
		o.Up = ups[up]
	}
	p.Check("Keep rest frames", &o.KeepRest)
}

// baseNames are the loaded files' names without their folders.
func (a *App) baseNames() []string {
	out := make([]string, len(a.mocap.files))
	for i, f := range a.mocap.files {
		out[i] = filepath.Base(f)
	}
	return out
}
