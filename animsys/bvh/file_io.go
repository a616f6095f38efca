package bvh

import (
	"context"
	"os"

	"kinelab/animsys"
	"kinelab/animsys/internal/regular"
)

// ReadFile parses the BVH file at path. The file goes to Parse as it is, so
// Parse can size the motion data from the file's length up front. A path
// that is no regular file (a FIFO, a device) or is over regular.MaxBVH
// bytes is refused by name.
func ReadFile(path string) (*File, error) {
	return ReadFileContext(context.Background(), path)
}

// ReadFileContext is ReadFile stopping once ctx is done (ParseContext).
func ReadFileContext(ctx context.Context, path string) (*File, error) {
	fh, err := regular.OpenLimit(path, regular.MaxBVH, "a BVH file")
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ParseContext(ctx, fh, path)
}

// WriteFile writes clip c of skeleton sk to a new BVH file at path (see
// Write; scale is file units per metre).
func WriteFile(path string, sk *animsys.Skeleton, c *animsys.Clip, scale float32) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, sk, c, scale); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
