// Package ctxio reads through a context, so that reading a large input
// (parsing a capture, copying an export's arrays into its archive) stops
// soon after an interrupt: each read checks the context first.
package ctxio

import (
	"context"
	"io"
)

// Reader reads r until ctx is done, then fails with ctx's error. Each
// Read checks ctx first, so the work between checks is one read's.
func Reader(ctx context.Context, r io.Reader) io.Reader { return reader{ctx, r} }

type reader struct {
	ctx context.Context
	r   io.Reader
}

func (c reader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}
