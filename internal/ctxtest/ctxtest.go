// Package ctxtest holds a context for tests of cancellation: one that
// counts how often the code under test asks whether it is done, and says
// so after a given number of asks. For tests only.
package ctxtest

import "context"

// Counting is a context whose Err is nil for its first CancelAt calls
// (all of them when CancelAt < 0) and context.Canceled after; Checks
// counts the calls. The work between two checks is what a signal waits
// for at most.
type Counting struct {
	context.Context
	Checks, CancelAt int
}

// New is a Counting context over context.Background that cancels after
// cancelAt checks (never when cancelAt < 0).
func New(cancelAt int) *Counting {
	return &Counting{Context: context.Background(), CancelAt: cancelAt}
}

// Err is context.Canceled once CancelAt checks have passed.
func (c *Counting) Err() error {
	c.Checks++
	if c.CancelAt >= 0 && c.Checks > c.CancelAt {
		return context.Canceled
	}
	return nil
}
