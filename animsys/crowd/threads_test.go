package crowd

import (
	"testing"

	"kinelab/animsys"
)

// TestStartCapsThreads starts a crowd on more goroutines than MaxThreads
// (2^31 of them ran out of memory): it runs on MaxThreads, and ticks as
// a crowd on one goroutine does.
func TestStartCapsThreads(t *testing.T) {
	skel := animsys.BenchSkeleton()
	tick := func(threads int) (float64, int) {
		c, err := New(&skel, smallLibrary(), 16, 3)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Start(threads)
		return c.Tick(TickDt), c.Threads()
	}
	one, _ := tick(1)
	many, n := tick(1 << 31)
	if n != MaxThreads || many != one {
		t.Errorf("Start(1<<31) runs on %d goroutines, its tick sums to %v; want MaxThreads (%d), and %v as on one", n, many, MaxThreads, one)
	}
}
