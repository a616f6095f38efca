package mathx

import (
	"math"
	"testing"
)

// A rotation with a NaN w and a nonzero vector part (user input: a pose
// read from a damaged file) gives NaN; atan2OverS used to recurse on it
// until the stack overflowed, which no recover catches.
func TestLogFactorNaNW(t *testing.T) {
	nan := float32(math.NaN())
	for _, q := range []Q4{{nan, 0, 1, 0}, {nan, 0.3, 0, 0}, {nan, nan, 0, 0}} {
		if v := q.ToScaledAngleAxis(); v == v {
			t.Errorf("ToScaledAngleAxis(%v) = %v, want NaN", q, v)
		}
		if k := q.Abs().LogFactor(); k == k {
			t.Errorf("LogFactor(%v) = %v, want NaN", q, k)
		}
	}
}
