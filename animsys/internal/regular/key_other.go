//go:build !unix

package regular

import "io/fs"

// fileKey is unused here: os.SameFile compares files one by one.
type fileKey struct{}

func keyOf(fs.FileInfo) (fileKey, bool) { return fileKey{}, false }
