package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/internal/ctxtest"
)

// countingWriter counts the frames a Writer is given.
type countingWriter struct {
	Writer
	frames int
}

func (c *countingWriter) Frame(f *Frame) error {
	c.frames++
	return c.Writer.Frame(f)
}

// TestRunChecksEveryFrame streams a 600-frame export and cancels it at
// several checks: it stops at the first that fails, having written one
// frame per check before it and none after.
func TestRunChecksEveryFrame(t *testing.T) {
	f := synthFile(t, 600)
	for _, at := range []int{0, 1, 300, 599} {
		src, _, err := NewBVHSource(f, bvh.ReadOptions{}) // a source is read once
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewStream(src, Options{FD: at%2 == 1})
		if err != nil {
			t.Fatal(err)
		}
		ctx := ctxtest.New(at)
		w := &countingWriter{Writer: NewCSVWriter(discard{})}
		if err := s.Run(ctx, w); !errors.Is(err, context.Canceled) || ctx.Checks != at+1 || w.frames != at {
			t.Errorf("cancelled at check %d: %v after %d checks and %d frames; want context.Canceled at once, %d frames", at, err, ctx.Checks, w.frames, at)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestNPZEndChecksCancellation writes a 1,500-frame export's archive (18
// arrays, 24 MB) and checks that End, which copies every array into it,
// looks at the context StopWith gave at least once per 32 KiB copied, and
// that cancelled at any of its checks it stops there, leaving neither
// archive nor temporary file.
func TestNPZEndChecksCancellation(t *testing.T) {
	f := synthFile(t, 1500)
	run := func(ctx context.Context) (int64, error) {
		src, _, err := NewBVHSource(f, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "out.npz")
		w := NewNPZWriter(path)
		w.StopWith(ctx)
		err = Export(context.Background(), src, Options{}, w)
		st, serr := os.Stat(path)
		left, _ := os.ReadDir(filepath.Dir(path))
		switch {
		case err == nil && serr == nil:
			return st.Size(), nil
		case err != nil && (serr == nil || len(left) > 0):
			t.Errorf("%v: left %d entries beside the output", err, len(left))
		}
		return 0, err
	}
	all := ctxtest.New(-1)
	size, err := run(all)
	if err != nil {
		t.Fatal(err)
	}
	if most := int(size / (32 << 10)); all.Checks < most {
		t.Errorf("%d checks copying a %d-byte archive; want one per 32 KiB, %d", all.Checks, size, most)
	}
	for _, at := range []int{0, 1, all.Checks / 2, all.Checks - 1} {
		ctx := ctxtest.New(at)
		if _, err := run(ctx); !errors.Is(err, context.Canceled) || ctx.Checks != at+1 {
			t.Errorf("cancelled at check %d: %v after %d checks; want context.Canceled at once", at, err, ctx.Checks)
		}
	}
}

// TestReadyContextGivesUp flushes an output with its context done: it
// gives up with the context's error, and Abort leaves the target as it
// was and nothing beside it. With a live context the output commits.
func TestReadyContextGivesUp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(path, []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Write([]byte("after")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := o.ReadyContext(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadyContext with its context done: %v; want context.Canceled", err)
	}
	o.Abort()
	if b, _ := os.ReadFile(path); string(b) != "before" {
		t.Errorf("the target holds %q after Abort; want it as it was", b)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("%d entries in the folder after Abort; want the target alone", len(left))
	}
	o, err = Create(path)
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("after"))
	if err := o.ReadyContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "after" {
		t.Errorf("the target holds %q after Commit; want the new content", b)
	}
}
