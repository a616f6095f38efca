//go:build !linux

package regular

import "os"

// stored is size where the data and holes of a file cannot be told
// apart: every byte counts as data.
func stored(_ *os.File, size int64) int64 { return size }
