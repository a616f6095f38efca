package app

import (
	"image/color"
	"strings"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/render"
	"kinelab/ui"
)

// FigureNote names on screen, at the top left of the lab's area, a
// character that is not a human figure (why: character.Character.NotHuman)
// and what the lab turned off for it (off, e.g. "look-at and IK are off"),
// wrapped to at most half the area's width. It returns the box drawn
// (for DrawJointLabels to avoid); nothing is drawn when why is "".
func FigureNote(v *View, why, off string) rl.Rectangle {
	if why == "" {
		return rl.Rectangle{}
	}
	text := strings.ToUpper(why[:1]) + why[1:] + ": " + off
	size := float32(ui.TextSize)
	lines := ui.Wrap(text, max(v.Area.Width/2, 120), size)
	return ui.Caption("figure note", v.Area.X, v.Area.Y, size, []color.RGBA{render.TargetColor}, lines...)
}
