package crowd

import (
	"runtime"
	"slices"
	"time"
)

// Bench-spec timing: warm-up ticks, then the median of timed ticks.
const (
	WarmupTicks = 3
	TimedTicks  = 21
	TickDt      = float32(1.0 / 60)
)

// BenchResult is the timing of a crowd over TimedTicks ticks.
type BenchResult struct {
	Characters      int     `json:"characters"`
	Threads         int     `json:"threads"`
	WarmupTicks     int     `json:"warmup_ticks"`
	TimedTicks      int     `json:"timed_ticks"`
	MedianTickNs    float64 `json:"median_tick_ns"`     // one whole-crowd tick
	NsPerCharTick   float64 `json:"ns_per_char_tick"`   // MedianTickNs / Characters
	CharTicksPerSec float64 `json:"char_ticks_per_sec"` // 1e9 / NsPerCharTick
	Checksum        float64 `json:"checksum"`           // sum over the timed ticks
}

// Bench times the crowd as bench-spec says: it runs on threads goroutines
// (Start), ticks WarmupTicks times, then times TimedTicks ticks one by one
// and reports the median. A garbage collection before the timed ticks keeps
// earlier allocations (clip library, poses) from being collected during
// them. The crowd is left running on threads goroutines.
func Bench(c *Crowd, threads int) BenchResult {
	c.Start(threads)
	for i := 0; i < WarmupTicks; i++ {
		c.Tick(TickDt)
	}
	runtime.GC()
	ns := make([]float64, TimedTicks)
	var sum float64
	for i := range ns {
		t0 := time.Now()
		sum += c.Tick(TickDt)
		ns[i] = float64(time.Since(t0).Nanoseconds())
	}
	slices.Sort(ns)
	med := ns[len(ns)/2]
	n := len(c.Characters)
	r := BenchResult{Characters: n, Threads: c.Threads(), WarmupTicks: WarmupTicks, TimedTicks: TimedTicks,
		MedianTickNs: med, Checksum: sum}
	if n > 0 && med > 0 {
		r.NsPerCharTick = med / float64(n)
		r.CharTicksPerSec = 1e9 / r.NsPerCharTick
	}
	return r
}
