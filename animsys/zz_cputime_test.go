package animsys

import (
	"os"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

func cpuNow() time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 2, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

func TestZZCPUTime(t *testing.T) {
	if os.Getenv("CPUTIME") == "" {
		t.Skip()
	}
	c := benchCharacter()
	f := newBenchFixture()
	measure := func(name string, n int, fn func()) {
		best := time.Duration(1 << 62)
		for r := 0; r < 7; r++ {
			t0 := cpuNow()
			for i := 0; i < n; i++ {
				fn()
			}
			best = min(best, (cpuNow()-t0)/time.Duration(n))
		}
		t.Logf("%-12s %v", name, best)
	}
	measure("chain", 20000, func() { c.Tick(1.0 / 60) })
	measure("cubic", 50000, func() { SampleCubic(&f.s, &f.a, 2.3) })
	measure("fk", 100000, func() { FK(&f.s, &f.p, f.skel.Parents) })
	measure("bk", 100000, func() { BK(&f.s, &f.g, f.skel.Parents) })
	measure("blend", 50000, func() { Blend(&f.s, &f.p, &f.q, 0.3, 0.5) })
	measure("additive", 50000, func() { Additive(&f.s, &f.r, 0.3, 0.5) })
	measure("inert", 50000, func() { Inertialize(&f.s, &f.r, &f.q, 0.1, 0.5) })
	measure("fd", 100000, func() { FiniteDiff(&f.s, &f.p, &f.q, 1.0/60) })
}
