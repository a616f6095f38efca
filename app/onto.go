package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kinelab/animsys/character"
	"kinelab/animsys/retarget"
	"kinelab/assets"
	"kinelab/ui"
)

// onto is the character the captures play on (--onto, the file browser's
// Character choice): a glTF character, or the embedded one, read as
// human; the labs animate the captures retargeted onto it
// (retarget.Onto), the Matching lab matching on the captures themselves
// (character.Character.Source).
type onto struct {
	target *character.Character // nil: the captures play on their own figure
	path   string               // where target was read from
	m      *retarget.Map        // the map of the captures shown onto target
}

// SetOnto makes the captures (those loaded, else the embedded clips) play
// on the character in path (assets.OpenCharacter: a glTF file, or
// "default"), or on their own figure for "". A character that does not
// read, or is not read as a human, is refused with why, in the messages
// and on stderr, and the captures stay as they were. It reports whether
// the character was taken. Call it from the input stage or before the
// loop, never while drawing.
func (a *App) SetOnto(path string) bool {
	if path == "" {
		a.mocap.onto = onto{}
		a.use(a.mocap.source)
		return true
	}
	t, err := assets.OpenCharacter(path)
	if err == nil && t.NotHuman() != "" {
		err = fmt.Errorf("%s: %s: captures are not played on it", path, t.NotHuman())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kinelab: --onto:", err)
		a.alert(err.Error())
		return false
	}
	a.mocap.onto = onto{target: t, path: path}
	a.makeBody(t)
	a.use(a.mocap.source)
	return true
}

// startOnto reads --onto before the files given are loaded (which then
// play on it), or plays the embedded clips on it when none are; it
// reports whether the character was taken.
func (a *App) startOnto(cfg Config) bool {
	if cfg.Onto == "" {
		return true
	}
	if len(cfg.Files) > 0 {
		t, err := assets.OpenCharacter(cfg.Onto)
		if err == nil && t.NotHuman() != "" {
			err = fmt.Errorf("%s: %s: captures are not played on it", cfg.Onto, t.NotHuman())
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "kinelab: --onto:", err)
			a.alert(err.Error())
			return false
		}
		a.mocap.onto = onto{target: t, path: cfg.Onto}
		a.makeBody(t)
		return true
	}
	return a.SetOnto(cfg.Onto)
}

// retarget is src (the embedded clips for nil) retargeted onto the
// character they play on, or src when there is none; nil for the
// embedded clips on their own figure. A map that cannot be made (a
// capture not read as a human) is said, and src plays on its own figure.
func (a *App) retarget(src *character.Character) *character.Character {
	o := &a.mocap.onto
	o.m = nil
	if o.target == nil {
		return src
	}
	from := src
	if from == nil {
		from = assets.Character()
	}
	ch, m, err := retarget.Onto(o.target, from)
	if err != nil {
		msg := fmt.Sprintf("not played on %s: %v", filepath.Base(o.path), err)
		fmt.Fprintln(os.Stderr, "kinelab:", msg)
		a.alert(msg)
		return src
	}
	o.m = m
	fmt.Fprintln(os.Stderr, "kinelab:", m.Summary())
	a.say(m.Summary())
	return ch
}

// ontoLine says which character the captures play on, for the file
// browser.
func (a *App) ontoLine() string {
	if a.mocap.onto.target == nil {
		return "Character: each capture's own figure (select one .glb, As character, to play them on it)"
	}
	return "Character: " + filepath.Base(a.mocap.onto.path) + " (the captures play on it)"
}

// ontoSection is the Mocap section's readout of the map: which
// character the captures play on, how (Map.Summary), and which source
// joint drives which of its joints and which stay at rest (Map.Lines).
func (a *App) ontoSection(p *ui.Panel) {
	o := &a.mocap.onto
	if o.target == nil {
		return
	}
	p.Paragraph("Character: " + filepath.Base(o.path))
	if o.m == nil {
		p.Paragraph("the captures play on their own figure: no map")
		return
	}
	p.Paragraph(o.m.Summary())
	p.Paragraph("Map: " + strings.Join(o.m.Lines(), "; "))
}
