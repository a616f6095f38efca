package golden

import (
	"context"
	"errors"
	"os"
	"testing"
)

// countingCtx is a context whose Err is nil for its first cancelAt calls
// (all of them when cancelAt < 0) and context.Canceled after.
type countingCtx struct {
	context.Context
	checks, cancelAt int
}

func (c *countingCtx) Err() error {
	c.checks++
	if c.cancelAt >= 0 && c.checks > c.cancelAt {
		return context.Canceled
	}
	return nil
}

// TestWriteChecksEveryFile checks that Write looks at its context before
// each operation's file (the longest takes a fraction of a second to
// generate) and, cancelled at any check, stops there with nothing written.
func TestWriteChecksEveryFile(t *testing.T) {
	all := &countingCtx{Context: context.Background(), cancelAt: -1}
	if _, err := Write(all, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if all.checks < len(Ops()) {
		t.Errorf("%d checks writing %d files; want one before each", all.checks, len(Ops()))
	}
	for _, at := range []int{0, 1, len(Ops()) / 2} {
		dir := t.TempDir()
		ctx := &countingCtx{Context: context.Background(), cancelAt: at}
		_, err := Write(ctx, dir)
		left, _ := os.ReadDir(dir)
		if !errors.Is(err, context.Canceled) || ctx.checks != at+1 || len(left) > 0 {
			t.Errorf("cancelled at check %d: %v after %d checks, %d files left; want context.Canceled at once, none", at, err, ctx.checks, len(left))
		}
	}
}
