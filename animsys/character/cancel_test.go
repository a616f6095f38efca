package character_test

import (
	"context"
	"errors"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/fixture"
)

// TestLoadStopsWhenCancelled loads files with a context done before and
// after the first file: no character, and an error that is the context's.
func TestLoadStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	a, b := fixture.Mixamo(), fixture.Mixamo()
	a.Name, b.Name = "a", "b"
	paths := []string{fixture.File(t, dir, a), fixture.File(t, dir, b)}
	for _, after := range []int{0, 1, 2, 5} {
		ctx := &cancelAfter{Context: context.Background(), n: after}
		ch, err := character.LoadContext(ctx, paths, bvh.ReadOptions{})
		if !errors.Is(err, context.Canceled) || ch != nil {
			t.Errorf("cancelled after %d checks: character %v, error %v; want none and context.Canceled", after, ch != nil, err)
		}
	}
}

// cancelAfter is a context done after n checks of Err.
type cancelAfter struct {
	context.Context
	n int
}

func (c *cancelAfter) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}
