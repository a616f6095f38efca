//go:build linux

package regular

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// lseek's whences that find data and holes (Linux's values).
const (
	seekData = 3
	seekHole = 4
)

// stored is how many of the first size bytes of f are data, not holes
// (a sparse file's unwritten stretches, which read as zeros): size where
// the file system cannot say. It leaves f at its start.
func stored(f *os.File, size int64) int64 {
	defer f.Seek(0, io.SeekStart)
	var n int64
	for off := int64(0); off < size; {
		d, err := f.Seek(off, seekData)
		if errors.Is(err, syscall.ENXIO) { // no data after off
			break
		}
		if err != nil {
			return size // SEEK_DATA not supported here: all data
		}
		h, err := f.Seek(d, seekHole)
		if err != nil {
			return size
		}
		h = min(h, size)
		n += h - d
		off = h
	}
	return n
}
