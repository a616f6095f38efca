package apptest

import (
	"fmt"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/ui"
)

// Fit checks what one frame drew (ui.Record) on a screen of w x h units:
//
//   - cut text: a widget's caption wider than the widget (less a margin for
//     its border), a line of text outside the cell, widget or block it
//     belongs to, or a free label off the screen;
//   - overlap: two panels, plots or readouts drawn at top level that
//     overlap, or a free label drawn over one of them; a block or an
//     overlay (help, browser) that runs off the screen;
//   - unreachable rows: a panel row that no scroll position of its panel
//     shows whole.
//
// It returns one line per problem, naming the items.
func Fit(items []ui.Item, w, h float32) []string {
	const tol = 1.0 // units: rounding of text widths and positions
	screen := rl.Rectangle{Width: w, Height: h}
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	var blocks, labels []ui.Item
	for _, it := range items {
		switch it.Kind {
		case ui.KindWidget:
			if need := it.TextW + 2*widgetMargin; need > it.Rect.Width+tol {
				bad("cut: widget %q needs %.0f units, has %.0f (in %s)", it.Name, need, it.Rect.Width, it.Owner)
			}
		case ui.KindText:
			box, where := it.Box, it.Owner
			if !it.HasBox {
				box, where = screen, "the screen"
				labels = append(labels, it)
			}
			if !inside(it.Rect, box, tol) {
				bad("cut: text %q at %s does not fit %s %s", it.Name, rect(it.Rect), where, rect(box))
			}
		case ui.KindPanel, ui.KindPlot, ui.KindReadout:
			if it.Depth == 0 {
				blocks = append(blocks, it)
				if !inside(it.Rect, screen, tol) {
					bad("off screen: %s %q at %s", it.Kind, it.Name, rect(it.Rect))
				}
			}
		case ui.KindOverlay:
			if it.Depth == 0 && !inside(it.Rect, screen, tol) {
				bad("off screen: overlay %q at %s", it.Name, rect(it.Rect))
			}
		case ui.KindRow:
			if !reachable(it, tol) {
				bad("unreachable: a row of panel %q at %s (view %s, scroll left %.0f up, %.0f down)",
					it.Name, rect(it.Rect), rect(it.Box), it.Up, it.Down)
			}
		}
	}
	for i, a := range blocks {
		for _, b := range blocks[i+1:] {
			if overlap(a.Rect, b.Rect, tol) {
				bad("overlap: %s %q %s and %s %q %s", a.Kind, a.Name, rect(a.Rect), b.Kind, b.Name, rect(b.Rect))
			}
		}
	}
	for _, l := range labels {
		for _, b := range blocks {
			if overlap(l.Rect, b.Rect, tol) {
				bad("overlap: label %q %s under %s %q %s", l.Name, rect(l.Rect), b.Kind, b.Name, rect(b.Rect))
			}
		}
	}
	return out
}

// widgetMargin is the room (units) a widget's caption needs on each side:
// raygui's border and padding, and cuts text that does not fit with "...".
const widgetMargin = 4

func inside(r, box rl.Rectangle, tol float32) bool {
	return r.X >= box.X-tol && r.Y >= box.Y-tol && r.X+r.Width <= box.X+box.Width+tol && r.Y+r.Height <= box.Y+box.Height+tol
}

func overlap(a, b rl.Rectangle, tol float32) bool {
	return a.X+a.Width > b.X+tol && b.X+b.Width > a.X+tol && a.Y+a.Height > b.Y+tol && b.Y+b.Height > a.Y+tol
}

// reachable: some scroll of the row's panel, within what it can still
// scroll each way, shows the row whole in the panel's view.
func reachable(it ui.Item, tol float32) bool {
	r, view := it.Rect, it.Box
	if r.Height > view.Height+tol || r.X < view.X-tol || r.X+r.Width > view.X+view.Width+tol {
		return false
	}
	// Scrolling by d moves the row by -d, for d in [-Up, Down].
	lo := r.Y + r.Height - (view.Y + view.Height) // the least d that brings its bottom in
	hi := r.Y - view.Y                            // the most d that keeps its top in
	return max(lo, -it.Up) <= min(hi, it.Down)+tol
}

func rect(r rl.Rectangle) string {
	return fmt.Sprintf("[%.0f,%.0f %.0fx%.0f]", r.X, r.Y, r.Width, r.Height)
}
