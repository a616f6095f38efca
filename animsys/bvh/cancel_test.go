package bvh

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"testing"

	"kinelab/internal/ctxtest"
	"kinelab/internal/fixture"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += n
	return n, err
}

// TestParseChecksCancellation parses a 6,000-frame file (3.4 MB) and
// checks that it looks at its context at least once per 64 KiB read (a
// few milliseconds of parsing), and that once the context is done it
// stops with its error and reads nothing more.
func TestParseChecksCancellation(t *testing.T) {
	var buf bytes.Buffer
	if err := writeLarge(&buf, 6000, nil); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	all := ctxtest.New(-1)
	if _, err := ParseContext(all, bytes.NewReader(data), "large.bvh"); err != nil {
		t.Fatal(err)
	}
	if most := len(data)/bufSize + 1; all.Checks < most {
		t.Errorf("%d checks parsing %d bytes; want one per %d bytes read, %d", all.Checks, len(data), bufSize, most)
	}
	for _, at := range []int{0, 1, all.Checks / 2, all.Checks - 1} {
		ctx := ctxtest.New(at)
		r := &countingReader{r: bytes.NewReader(data)}
		_, err := ParseContext(ctx, r, "large.bvh")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled at check %d: %v; want context.Canceled", at, err)
			continue
		}
		// The last read before the cancel is at most one window.
		if most := (at + 1) * bufSize; r.n > most {
			t.Errorf("cancelled at check %d: %d bytes read; want at most %d, none after the cancel", at, r.n, most)
		}
		if ctx.Checks != at+1 {
			t.Errorf("cancelled at check %d: %d checks; want it to stop at the first that fails", at, ctx.Checks)
		}
	}
}

// TestDetectChecksCancellation detects a 120 fps walk and checks that
// the comparison of the leading second with the motion (the quadratic
// part of Detect) looks at its context once per frame of that second,
// and stops with its error at the first check after the cancel.
func TestDetectChecksCancellation(t *testing.T) {
	s := fixture.Mixamo()
	s.FPS, s.Frames = 120, 1000
	f := parseSpec(t, s)
	all := ctxtest.New(-1)
	if _, err := DetectContext(all, f); err != nil {
		t.Fatal(err)
	}
	rows := min(f.Frames/4, int(math.Ceil(leadTime/float64(f.FrameTime))))
	if all.Checks < rows {
		t.Errorf("%d checks detecting %d frames; want one per frame of the leading second, %d", all.Checks, f.Frames, rows)
	}
	for _, at := range []int{0, rows / 2, all.Checks - 1} {
		ctx := ctxtest.New(at)
		if _, err := DetectContext(ctx, f); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled at check %d: %v; want context.Canceled", at, err)
		}
		if ctx.Checks != at+1 {
			t.Errorf("cancelled at check %d: %d checks; want it to stop at the first that fails", at, ctx.Checks)
		}
	}
}
