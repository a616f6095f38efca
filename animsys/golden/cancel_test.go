package golden

import (
	"context"
	"errors"
	"os"
	"testing"

	"kinelab/internal/ctxtest"
)

// TestWriteChecksEveryFile checks that Write looks at its context before
// each operation's file (the longest takes a fraction of a second to
// generate) and, cancelled at any check, stops there with nothing written.
func TestWriteChecksEveryFile(t *testing.T) {
	all := ctxtest.New(-1)
	if _, err := Write(all, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if all.Checks < len(Ops()) {
		t.Errorf("%d checks writing %d files; want one before each", all.Checks, len(Ops()))
	}
	for _, at := range []int{0, 1, len(Ops()) / 2} {
		dir := t.TempDir()
		ctx := ctxtest.New(at)
		_, err := Write(ctx, dir)
		left, _ := os.ReadDir(dir)
		if !errors.Is(err, context.Canceled) || ctx.Checks != at+1 || len(left) > 0 {
			t.Errorf("cancelled at check %d: %v after %d checks, %d files left; want context.Canceled at once, none", at, err, ctx.Checks, len(left))
		}
	}
}
