package render

import (
	"fmt"
	"image/color"
	"math"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/ui"
)

// Plot is a scrolling history of several signals against time, with a
// legend, axis units, an automatic y range that can be held, and a readout
// of the values under the mouse. Labs Push samples in their update; Draw
// only reads them. Non-finite samples are stored but never drawn.
type Plot struct {
	Title string
	YUnit string // unit of the values, shown on the axis ("m/s", "rad")
	Hold  bool   // keep the current y range instead of following the data
	// Window, if > 0, is the time span (s) the x axis shows: the history
	// fills it from the left, then scrolls, whatever the sample rate. At 0
	// the axis spans every stored sample.
	Window float64
	// Rows, if set, name the values 0, 1, ... instead of numbering the
	// y axis: a plot of on/off states drawn as rows of bars.
	Rows []string

	names  []string
	colors []color.RGBA
	widths []float32   // line width of each series (px)
	hidden []bool      // series left out of the drawing and the y range
	marks  []float64   // times (s) of events drawn as vertical lines, a ring
	markAt int         // next write index in marks
	t      []float64   // sample times (s), a ring of cap samples
	v      [][]float32 // per series, parallel to t
	head   int         // next write index
	n      int         // samples stored
	lo, hi float32     // y range in use
	// atMark[i] marks the stored sample i as one of a marked event's
	// (markSpan): left out of the y range (yRange), scratch for it.
	atMark []bool
}

// markSpan (s) and markSamples are how long after a marked event (a
// teleport, a wrap, a restart) its samples are, at least markSamples of
// them: a finite difference spikes on the tick of a jump and settles
// within a few, and the spike (180 m/s where the signal is 0.1) would
// flatten the plot for its whole window. They are left out of the y range
// and drawn clipped at its edge, the peak written there.
const (
	markSpan    = 0.1
	markSamples = 2
)

// NewPlot makes a plot keeping the last capacity samples.
func NewPlot(title, yUnit string, capacity int) *Plot {
	return &Plot{Title: title, YUnit: yUnit, t: make([]float64, capacity), lo: -1, hi: 1}
}

// AddSeries adds a signal drawn in colour c; call before the first Push.
func (p *Plot) AddSeries(name string, c color.RGBA) {
	p.names = append(p.names, name)
	p.colors = append(p.colors, c)
	p.widths = append(p.widths, 2)
	p.hidden = append(p.hidden, false)
	p.v = append(p.v, make([]float32, len(p.t)))
}

// SetLineWidth sets the width (px, default 2) series i is drawn with; a
// wide, muted reference under thin lines shows where they follow it.
func (p *Plot) SetLineWidth(i int, w float32) {
	if i >= 0 && i < len(p.widths) {
		p.widths[i] = w
	}
}

// SetVisible shows or hides series i. A hidden series keeps its samples,
// is left out of the y range, and its legend entry is dimmed.
func (p *Plot) SetVisible(i int, on bool) {
	if i >= 0 && i < len(p.hidden) {
		p.hidden[i] = !on
	}
}

// SetRange fixes the y range at [lo, hi] and holds it.
func (p *Plot) SetRange(lo, hi float32) {
	if finite(lo) && finite(hi) && hi > lo {
		p.lo, p.hi, p.Hold = lo, hi, true
	}
}

// Mark records an event at time t (s), drawn as a faint vertical line
// while it is in view; the last 64 are kept. Its samples (markSpan) are
// left out of the automatic y range and drawn clipped at its edge, with
// the value they reach written there. It does not allocate.
func (p *Plot) Mark(t float64) {
	if p.marks == nil {
		p.marks = make([]float64, 64)
		for i := range p.marks {
			p.marks[i] = math.NaN()
		}
	}
	p.marks[p.markAt] = t
	p.markAt = (p.markAt + 1) % len(p.marks)
}

// Area is the rectangle (px) the data fills when the plot is drawn in r.
func (p *Plot) Area(r rl.Rectangle) rl.Rectangle {
	return rl.Rectangle{X: r.X + 70, Y: r.Y + 32, Width: r.Width - 80, Height: r.Height - 62}
}

// ValueAt is the value at screen height y (px) of the plot drawn in r
// with the y range of its last Draw, clamped to that range: for editing a
// signal with the mouse (hold the range while doing so).
func (p *Plot) ValueAt(r rl.Rectangle, y float32) float32 {
	a := p.Area(r)
	f := max(0, min(1, (a.Y+a.Height-y)/a.Height))
	return p.lo + (p.hi-p.lo)*f
}

// Push records one sample of every series at time t (s); vals[i] belongs
// to series i. It does not allocate.
func (p *Plot) Push(t float64, vals ...float32) {
	p.t[p.head] = t
	for i := range p.v {
		var x float32
		if i < len(vals) {
			x = vals[i]
		}
		p.v[i][p.head] = x
	}
	p.head = (p.head + 1) % len(p.t)
	if p.n < len(p.t) {
		p.n++
	}
}

// Clear forgets all samples and marks (after a reset of the signal's time).
func (p *Plot) Clear() {
	p.head, p.n = 0, 0
	for i := range p.marks {
		p.marks[i] = math.NaN()
	}
}

// Series is how many signals the plot has.
func (p *Plot) Series() int { return len(p.names) }

// Len is the number of samples stored.
func (p *Plot) Len() int { return p.n }

// index of the k-th oldest stored sample.
func (p *Plot) at(k int) int { return (p.head - p.n + k + len(p.t)) % len(p.t) }

func finite(x float32) bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }

// niceRange widens [lo, hi] to round values so the axis does not jitter.
func niceRange(lo, hi float32) (float32, float32) {
	if !(hi > lo) {
		lo, hi = lo-1, hi+1
	}
	span := float64(hi) - float64(lo)
	step := math.Pow(10, math.Floor(math.Log10(span)))
	for span/step > 8 {
		step *= 2
	}
	// Rounding out may pass the float32 range when a signal saturates.
	lim := float64(math.MaxFloat32)
	return float32(max(-lim, math.Floor(float64(lo)/step)*step)), float32(min(lim, math.Ceil(float64(hi)/step)*step))
}

// span returns the first stored sample in view (k0) and the times (s) at
// the left and right of the x axis.
func (p *Plot) span() (k0 int, t0, t1 float64) {
	if p.n == 0 {
		return 0, 0, 1
	}
	first, last := p.t[p.at(0)], p.t[p.at(p.n-1)]
	if !(p.Window > 0) {
		if !(last > first) {
			last = first + 1
		}
		return 0, first, last
	}
	t0 = max(first, last-p.Window)
	for k0 < p.n-1 && p.t[p.at(k0)] < t0 {
		k0++
	}
	return k0, t0, t0 + p.Window
}

// yRange is the range Draw uses: the held one, or the data's in view
// rounded out, leaving out the samples of marked events (markSpan) when
// any others are in view.
func (p *Plot) yRange() (float32, float32) {
	if p.Hold || p.n == 0 {
		return p.lo, p.hi
	}
	k0, _, _ := p.span()
	marked := p.markSamples(k0)
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for pass := 0; pass < 2 && lo > hi; pass++ { // the second with the marked samples too
		for s := range p.v {
			if p.hidden[s] {
				continue
			}
			for k := k0; k < p.n; k++ {
				x := p.v[s][p.at(k)]
				if finite(x) && (pass == 1 || !marked[p.at(k)]) {
					lo, hi = min(lo, x), max(hi, x)
				}
			}
		}
	}
	if lo > hi {
		return p.lo, p.hi
	}
	return niceRange(lo, hi)
}

// markSamples marks, in p.atMark (by storage index), the samples from k0
// on that belong to a marked event: from the first sample at or after its
// time, those within markSpan of it, at least markSamples of them.
func (p *Plot) markSamples(k0 int) []bool {
	if len(p.atMark) != len(p.t) {
		p.atMark = make([]bool, len(p.t))
	}
	clear(p.atMark)
	for _, tm := range p.marks {
		if math.IsNaN(tm) {
			continue
		}
		for k, c := k0, 0; k < p.n; k++ {
			t := p.t[p.at(k)]
			if t < tm {
				continue
			}
			if c >= markSamples && t > tm+markSpan {
				break
			}
			p.atMark[p.at(k)] = true
			c++
		}
	}
	return p.atMark
}

// peak is a marked event's sample drawn clipped at the range's edge: its
// index from the oldest stored, and its value.
type peak struct {
	k int
	v float32
}

// clippedPeaks lists, per marked event in view whose samples pass the
// range lo..hi, its sample farthest past it (visible series), appended
// to out.
func (p *Plot) clippedPeaks(out []peak, k0 int, lo, hi float32) []peak {
	marked := p.markSamples(k0)
	best := -1
	var bv float32
	flush := func() {
		if best >= 0 {
			out = append(out, peak{best, bv})
		}
		best = -1
	}
	for k := k0; k < p.n; k++ {
		if !marked[p.at(k)] {
			flush()
			continue
		}
		for s := range p.v {
			x := p.v[s][p.at(k)]
			if p.hidden[s] || !finite(x) || x >= lo && x <= hi {
				continue
			}
			if past := max(x-hi, lo-x); best < 0 || past > max(bv-hi, lo-bv) {
				best, bv = k, x
			}
		}
	}
	flush()
	return out
}

// Draw draws the plot in rectangle r (px); mouse is the cursor position,
// used for the value readout when it is inside r.
func (p *Plot) Draw(r rl.Rectangle, mouse rl.Vector2) {
	const small = ui.SmallText
	ui.BeginBlock(ui.KindPlot, p.Title, r)
	defer ui.EndBlock()
	rl.DrawRectangleRec(r, color.RGBA{18, 20, 25, 225})
	rl.DrawRectangleLinesEx(r, 1, color.RGBA{70, 76, 88, 255})
	p.drawHeader(r)

	lo, hi := p.yRange()
	p.lo, p.hi = lo, hi
	area := p.Area(r)
	rl.DrawRectangleLinesEx(area, 1, color.RGBA{60, 64, 74, 255})
	p.drawYAxis(r, area, lo, hi)
	hold := ""
	if p.Hold && p.Rows == nil {
		hold = "  (range held)"
	}
	if p.n < 2 {
		ui.DrawText("no samples yet"+hold, area.X+8, area.Y+8, small, DimText)
		return
	}
	k0, t0, t1 := p.span()
	ui.DrawText(fmt.Sprintf("t %.2f s .. %.2f s%s", t0, t1, hold), area.X, r.Y+r.Height-small-6, small, DimText)

	m := plotMap{area: area, t0: t0, t1: t1, lo: lo, hi: hi}
	p.drawMarks(m)
	p.drawSeries(m, k0)
	p.drawPeaks(m, k0)
	if !rl.CheckCollisionPointRec(mouse, area) {
		return
	}
	p.drawReadout(m, k0, mouse)
}

// plotMap maps times (s) and values to the plot area's pixels: t0 to t1
// across, lo to hi up.
type plotMap struct {
	area   rl.Rectangle
	t0, t1 float64
	lo, hi float32
}

// x is time t's x (px).
func (m plotMap) x(t float64) float32 {
	return m.area.X + m.area.Width*float32((t-m.t0)/(m.t1-m.t0))
}

// y is value v's y (px), clamped to the range.
func (m plotMap) y(v float32) float32 {
	v = max(m.lo, min(m.hi, v))
	return m.area.Y + m.area.Height*(1-(v-m.lo)/(m.hi-m.lo))
}

// sampleX is stored sample k's x (px).
func (p *Plot) sampleX(m plotMap, k int) float32 { return m.x(p.t[p.at(k)]) }

// legendWidth is the width (px) of the legend in text of size.
func (p *Plot) legendWidth(size float32) float32 {
	w := float32(0)
	for _, n := range p.names {
		w += ui.Measure(n, size) + 32
	}
	return w
}

// drawHeader draws the title row: the legend right-aligned, colours
// matching the lines; in smaller type when it does not fit beside the
// title, and the title left out when it still does not.
func (p *Plot) drawHeader(r rl.Rectangle) {
	const fs = ui.TextSize
	const small = ui.SmallText
	room := r.Width - 16 - ui.Measure(p.Title, fs) - 12
	lfs := float32(fs)
	if p.legendWidth(lfs) > room {
		lfs = small - 2
	}
	if p.legendWidth(lfs) <= room {
		ui.DrawText(p.Title, r.X+8, r.Y+6, fs, TextColor)
	} else if title := ui.Clip(p.Title, r.Width-16-p.legendWidth(lfs), fs); p.legendWidth(lfs) <= r.Width-16 && title != "" {
		ui.DrawText(title, r.X+8, r.Y+6, fs, TextColor)
	}
	p.drawLegend(r, lfs)
}

// drawLegend draws the series' names right-aligned on the title row in
// text of size lfs, each beside a box of its colour (an outline for a
// hidden series), as many as fit.
func (p *Plot) drawLegend(r rl.Rectangle, lfs float32) {
	const fs = ui.TextSize
	x := r.X + r.Width - 8
	legendY, boxY := r.Y+6+(fs-lfs)/2, r.Y+6+fs/2-4
	for i := len(p.names) - 1; i >= 0; i-- {
		w := ui.Measure(p.names[i], lfs)
		x -= w
		if x < r.X+8 { // no room left: the rest of the legend is left out
			break
		}
		if p.hidden[i] {
			ui.DrawText(p.names[i], x, legendY, lfs, DimText)
			x -= 18
			rl.DrawRectangleLinesEx(rl.Rectangle{X: x, Y: boxY, Width: 12, Height: 8}, 1, p.colors[i])
		} else {
			ui.DrawText(p.names[i], x, legendY, lfs, p.colors[i])
			x -= 18
			rl.DrawRectangleRec(rl.Rectangle{X: x, Y: boxY, Width: 12, Height: 8}, p.colors[i])
		}
		x -= 14
	}
}

// drawYAxis draws the axis labels with units: y at top, middle and
// bottom of the range lo to hi; and the zero line.
func (p *Plot) drawYAxis(r, area rl.Rectangle, lo, hi float32) {
	const small = ui.SmallText
	if p.Rows != nil {
		for i, name := range p.Rows {
			yy := area.Y + area.Height*(1-(float32(i)-lo)/(hi-lo))
			if yy >= area.Y && yy <= area.Y+area.Height {
				ui.DrawText(ui.Clip(name, area.X-r.X-10, small), r.X+6, yy-small/2, small, DimText)
			}
		}
		return
	}
	for _, f := range []float32{0, 0.5, 1} {
		yv := lo + (hi-lo)*f
		yy := area.Y + area.Height*(1-f)
		ui.DrawText(fmt.Sprintf("%.3g", yv), r.X+6, yy-small/2, small, DimText)
	}
	ui.DrawText(p.YUnit, r.X+6, r.Y+r.Height-small-6, small, DimText)
	if lo < 0 && hi > 0 {
		yy := area.Y + area.Height*(1-(0-lo)/(hi-lo))
		rl.DrawLine(int32(area.X), int32(yy), int32(area.X+area.Width), int32(yy), color.RGBA{70, 74, 84, 255})
	}
}

// drawMarks draws the marked times in view as vertical lines.
func (p *Plot) drawMarks(m plotMap) {
	area := m.area
	for _, t := range p.marks {
		if t >= m.t0 && t <= m.t1 { // NaN (unused) fails both
			x := m.x(t)
			rl.DrawLineEx(rl.Vector2{X: x, Y: area.Y + 1}, rl.Vector2{X: x, Y: area.Y + area.Height - 1}, 1, color.RGBA{120, 126, 140, 255})
		}
	}
}

// drawPeaks writes, at the edge a marked event's samples are clipped at,
// the value they reach ("^ 180 m/s"), beside its mark.
func (p *Plot) drawPeaks(m plotMap, k0 int) {
	if p.Hold || p.Rows != nil {
		return
	}
	const small = ui.SmallText
	var buf [8]peak
	for _, pk := range p.clippedPeaks(buf[:0], k0, m.lo, m.hi) {
		label := fmt.Sprintf("^ %.3g %s", pk.v, p.YUnit)
		y := m.area.Y + 2
		if pk.v < m.lo {
			label, y = fmt.Sprintf("v %.3g %s", pk.v, p.YUnit), m.area.Y+m.area.Height-small-2
		}
		w := ui.Measure(label, small)
		x := p.sampleX(m, pk.k) + 4
		if x+w > m.area.X+m.area.Width {
			x = p.sampleX(m, pk.k) - 4 - w
		}
		ui.DrawText(label, x, y, small, TextColor)
	}
}

// drawSeries draws every visible series from sample k0 on, leaving gaps
// at values that are not finite.
func (p *Plot) drawSeries(m plotMap, k0 int) {
	for s := range p.v {
		if p.hidden[s] {
			continue
		}
		for k := k0 + 1; k < p.n; k++ {
			a, b := p.v[s][p.at(k-1)], p.v[s][p.at(k)]
			if !finite(a) || !finite(b) {
				continue
			}
			rl.DrawLineEx(rl.Vector2{X: p.sampleX(m, k-1), Y: m.y(a)}, rl.Vector2{X: p.sampleX(m, k), Y: m.y(b)}, p.widths[s], p.colors[s])
		}
	}
}

// drawReadout draws the readout of every visible series at the sample
// (from k0 on) nearest the mouse's time: a line there, and beside it the
// time and the values in their series' colours.
func (p *Plot) drawReadout(m plotMap, k0 int, mouse rl.Vector2) {
	const small = ui.SmallText
	area := m.area
	tm := m.t0 + (m.t1-m.t0)*float64((mouse.X-area.X)/area.Width)
	k := k0
	for k < p.n-1 && math.Abs(p.t[p.at(k+1)]-tm) <= math.Abs(p.t[p.at(k)]-tm) {
		k++
	}
	mx := p.sampleX(m, k)
	rl.DrawLine(int32(mx), int32(area.Y), int32(mx), int32(area.Y+area.Height), DimText)
	ty := area.Y + 4
	lines := []string{fmt.Sprintf("t %.3f s", p.t[p.at(k)])}
	for s := range p.v {
		if !p.hidden[s] {
			lines = append(lines, fmt.Sprintf("%.4g %s", p.v[s][p.at(k)], p.YUnit))
		}
	}
	w := float32(0)
	for _, l := range lines {
		w = max(w, ui.Measure(l, small))
	}
	lx := mx + 6
	if mx > area.X+area.Width/2 {
		lx = mx - 6 - w
	}
	for i, l := range lines {
		c := TextColor
		if i > 0 {
			c = p.colors[p.shown(i-1)]
		}
		ui.DrawText(l, lx, ty, small, c)
		ty += small * 1.2
	}
}

// shown is the index of the k-th visible series.
func (p *Plot) shown(k int) int {
	for s := range p.hidden {
		if !p.hidden[s] {
			if k == 0 {
				return s
			}
			k--
		}
	}
	return 0
}
