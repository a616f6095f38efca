package render

import (
	"image/color"
	"math"
	"testing"
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
