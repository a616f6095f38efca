package render

import (
	"image/color"
	"math"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
)

func TestPlotRingAndRange(t *testing.T) {
	p := NewPlot("x", "m", 4)
	p.AddSeries("a", color.RGBA{})
	p.AddSeries("b", color.RGBA{})
	for i := 0; i < 6; i++ {
		p.Push(float64(i), float32(i), float32(-i))
	}
	if p.Len() != 4 {
		t.Fatalf("len %d, want 4", p.Len())
	}
	if got := p.t[p.at(0)]; got != 2 {
		t.Fatalf("oldest sample at t=%v, want 2", got)
	}
	lo, hi := p.yRange()
	if lo > -5 || hi < 5 || lo < -10 || hi > 10 {
		t.Fatalf("range [%v, %v] does not fit the data [-5, 5] snugly", lo, hi)
	}
	// NaN and Inf never widen the range.
	p.Push(6, float32(math.NaN()), float32(math.Inf(1)))
	lo2, hi2 := p.yRange()
	if !finite(lo2) || !finite(hi2) || hi2 > 10 {
		t.Fatalf("non-finite samples leaked into the range: [%v, %v]", lo2, hi2)
	}
	p.Hold = true
	p.lo, p.hi = -1, 1
	p.Push(7, 100, 100)
	if lo, hi := p.yRange(); lo != -1 || hi != 1 {
		t.Fatalf("held range moved to [%v, %v]", lo, hi)
	}
	if allocs := testing.AllocsPerRun(100, func() { p.Push(8, 1, 2) }); allocs != 0 {
		t.Fatalf("Push allocates %v times", allocs)
	}
}

// The additions for the signal labs: a time window, hidden series, held
// ranges, value lookup and event marks.
func TestPlotWindowHiddenAndRange(t *testing.T) {
	p := NewPlot("x", "m", 100)
	p.AddSeries("a", color.RGBA{})
	p.AddSeries("b", color.RGBA{})
	p.Window = 2
	for i := 0; i < 100; i++ {
		p.Push(float64(i)*0.1, float32(i), 1000)
	}
	k0, t0, t1 := p.span()
	if math.Abs(t0-7.9) > 1e-9 || math.Abs(t1-9.9) > 1e-9 || math.Abs(p.t[p.at(k0)]-7.9) > 1e-9 {
		t.Fatalf("window span k0 %d [%v, %v], want the last 2 s [7.9, 9.9]", k0, t0, t1)
	}
	p.SetVisible(1, false)
	if lo, hi := p.yRange(); lo > 79 || hi < 99 || hi > 200 {
		t.Fatalf("range [%v, %v] should fit series a's samples in view, 79..99, and ignore hidden b", lo, hi)
	}
	// Saturated signals keep the range finite.
	p.Push(10, -math.MaxFloat32, math.MaxFloat32)
	p.SetVisible(1, true)
	if lo, hi := p.yRange(); !finite(lo) || !finite(hi) {
		t.Fatalf("saturated samples gave range [%v, %v]", lo, hi)
	}
	p.SetRange(-2, 2)
	if lo, hi := p.yRange(); lo != -2 || hi != 2 || !p.Hold {
		t.Fatalf("SetRange: range [%v, %v], hold %v", lo, hi, p.Hold)
	}
	r := rl.Rectangle{X: 0, Y: 0, Width: 400, Height: 262}
	a := p.Area(r)
	if v := p.ValueAt(r, a.Y); v != 2 {
		t.Fatalf("value at the top of the area %v, want 2", v)
	}
	if v := p.ValueAt(r, a.Y+a.Height/2); math.Abs(float64(v)) > 1e-6 {
		t.Fatalf("value at the middle %v, want 0", v)
	}
	if allocs := testing.AllocsPerRun(100, func() { p.Mark(3) }); allocs != 0 {
		t.Fatalf("Mark allocates %v times", allocs)
	}
}

// A marked event's spike does not set the range: a signal near 0.1 with a
// 180 spike on the tick of a marked teleport (and a decaying tail on the
// next) keeps a range around 0.1, the spike clipped at its top with 180
// written there; unmarked, the spike sets the range. A view holding only
// marked samples ranges over them.
func TestPlotMarkedEventsClipped(t *testing.T) {
	p := NewPlot("x", "m/s", 600)
	p.AddSeries("mean", color.RGBA{})
	p.AddSeries("max", color.RGBA{})
	p.Window = 5
	const dt = 1.0 / 60
	for i := 0; i < 200; i++ {
		tm := float64(i) * dt
		v := float32(0.1 + 0.02*math.Sin(float64(i)))
		switch i {
		case 90:
			p.Mark(tm)
			v = 180
		case 91:
			v = 40
		}
		p.Push(tm, v/4, v)
	}
	k0, _, _ := p.span()
	lo, hi := p.yRange()
	if hi > 1 || lo < -1 {
		t.Fatalf("range [%v, %v], want the signal's (0.1 or so) without the marked spike", lo, hi)
	}
	pk := p.clippedPeaks(nil, k0, lo, hi)
	if len(pk) != 1 || pk[0].v != 180 || p.t[p.at(pk[0].k)] != 90*dt {
		t.Fatalf("clipped peaks %+v, want the 180 at the mark", pk)
	}
	q := NewPlot("x", "m/s", 600)
	q.AddSeries("max", color.RGBA{})
	for i := 0; i < 200; i++ {
		v := float32(0.1)
		if i == 90 {
			v = 180
		}
		q.Push(float64(i)*dt, v)
	}
	if _, hi := q.yRange(); hi < 180 {
		t.Errorf("unmarked, the spike should set the range: hi %v", hi)
	}
	r := NewPlot("x", "m/s", 10)
	r.AddSeries("a", color.RGBA{})
	r.Mark(0)
	r.Push(0, 5)
	r.Push(dt, 7)
	if lo, hi := r.yRange(); lo > 5 || hi < 7 {
		t.Errorf("only marked samples in view: range [%v, %v], want them in it", lo, hi)
	}
}
