package app

import (
	"testing"
	"time"
)

func TestKLEUpdateTiming(t *testing.T) {
	c := NewCostLab()
	t0 := time.Now()
	for i := 0; i < 600; i++ {
		c.Update(1.0 / 60)
	}
	t.Logf("cost: %.3f ms/update, %d candidates", float64(time.Since(t0).Microseconds())/600/1000, len(c.cands))
	s := NewScalarLab()
	t0 = time.Now()
	for i := 0; i < 600; i++ {
		s.Update(1.0 / 60)
	}
	t.Logf("scalar: %.3f ms/update", float64(time.Since(t0).Microseconds())/600/1000)
	t0 = time.Now()
	c.S.Halflife = 0.2
	c.refresh()
	t.Logf("grid rebuild: %.3f ms", float64(time.Since(t0).Microseconds())/1000)
}
