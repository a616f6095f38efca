package ui

import (
	"image/color"
	"slices"
	"strings"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// Table is a table of text cells for DrawTable: a header, then rows (a
// nil row leaves its line empty), each in its colour. Column Name holds
// names (a clip's name and time): it gets what the other columns leave,
// at most NameMax of the table's width when NameMax > 0, and a name cut
// to fit is shortened in its middle with a tip giving it whole (Shorten,
// Tip). On a table too narrow even so, the columns in Drop are left out,
// in that order.
type Table struct {
	Head      []string
	Rows      [][]string
	Colors    []color.RGBA // per row; rows past its end take HeadColor
	HeadColor color.RGBA
	Name      int
	NameMax   float32
	// KeepAfter, when set, keeps a name's end from its last KeepAfter on
	// whole (" @ ": the time of "walk @ 1.25 s"), shortening the rest.
	KeepAfter string
	Drop      []int
}

// shortName fits name to width units at size fs: Shorten, but with the
// end from t.KeepAfter on kept whole where the start can still show.
func (t *Table) shortName(name string, width, fs float32) string {
	if i := strings.LastIndex(name, t.KeepAfter); t.KeepAfter != "" && i > 0 && Measure(name, fs) > width {
		end := name[i:]
		if room := width - Measure(end, fs); room >= Measure("ab…", fs) {
			return Shorten(name[:i], room, fs) + end
		}
	}
	return Shorten(name, width, fs)
}

// tablePad is the room (units) between a column's widest text and the
// next column.
const tablePad = 12

// DrawTable draws t at x, y in a table width units wide, text of size fs
// one line every row units, leaving out the lines that would end below
// bottom, and returns the y below its last line. Every cell is drawn in
// its own box (DrawTextIn), so the fit test checks each against its
// column.
func DrawTable(t *Table, x, y, width, bottom, fs, row float32) float32 {
	n := len(t.Head)
	w := make([]float32, n)
	for k, h := range t.Head {
		w[k] = Measure(h, fs) + tablePad
		for _, r := range t.Rows {
			if k < len(r) {
				w[k] = max(w[k], Measure(r[k], fs)+tablePad)
			}
		}
	}
	if t.NameMax > 0 {
		w[t.Name] = min(w[t.Name], max(Measure(t.Head[t.Name], fs)+tablePad, t.NameMax*width))
	}
	show := make([]int, n)
	for k := range show {
		show[k] = k
	}
	sum := func() (s float32) {
		for _, k := range show {
			s += w[k]
		}
		return s
	}
	for _, d := range t.Drop {
		if sum() > width {
			show = slices.DeleteFunc(show, func(k int) bool { return k == d })
		}
	}
	if over := sum() - width; over > 0 { // the names give way, down to a few runes
		w[t.Name] = max(Measure("ab…yz", fs)+tablePad, w[t.Name]-over)
	}
	line := func(texts []string, col color.RGBA) {
		cx := x
		for _, k := range show {
			if cx+w[k] > x+width+0.5 || k >= len(texts) {
				break
			}
			cell := rl.Rectangle{X: cx, Y: y - 1, Width: w[k], Height: row}
			s := Clip(texts[k], w[k]-tablePad/2, fs)
			if k == t.Name {
				if s = t.shortName(texts[k], w[k]-tablePad/2, fs); s != texts[k] {
					Tip(cell, texts[k])
				}
			}
			DrawTextIn(s, cx, y, fs, col, cell)
			cx += w[k]
		}
	}
	if y+fs > bottom {
		return y
	}
	line(t.Head, t.HeadColor)
	y += row
	for i, r := range t.Rows {
		if y+fs > bottom {
			break
		}
		col := t.HeadColor
		if i < len(t.Colors) {
			col = t.Colors[i]
		}
		if r != nil {
			line(r, col)
		}
		y += row
	}
	return y
}
