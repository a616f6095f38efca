//go:build unix

package regular

import (
	"io/fs"
	"syscall"
)

// fileKey names a file whatever its path: device and inode, what
// os.SameFile compares.
type fileKey struct{ dev, ino uint64 }

func keyOf(st fs.FileInfo) (fileKey, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(s.Dev), uint64(s.Ino)}, true //nolint:unconvert // int types differ between systems
}
