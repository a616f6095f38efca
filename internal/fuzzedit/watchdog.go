package fuzzedit

import (
	"fmt"
	"time"
)

// Watchdog panics, naming what, once this process has used limit of CPU
// time more than it had when Watchdog was called, unless stop (the
// function it returns) was called first. A fuzz target that runs one
// input at a time arms it around each input: an input that loops is a
// crash the fuzzer keeps, where Go's fuzzer itself would wait. CPU time,
// not the clock's, so a busy machine, which slows the input but does not
// add to its CPU time, does not trip it. Where the CPU time is not known
// (not Unix) it does nothing.
func Watchdog(limit time.Duration, what func() string) (stop func()) {
	return watch(limit, what, func(msg string) { panic(msg) })
}

// watch is Watchdog calling fire instead of panicking.
func watch(limit time.Duration, what func() string, fire func(string)) (stop func()) {
	start, ok := cpuTime()
	if !ok {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if now, _ := cpuTime(); now-start > limit {
					fire(fmt.Sprintf("%s took over %v of CPU time", what(), limit))
					return
				}
			}
		}
	}()
	return func() { close(done) }
}
