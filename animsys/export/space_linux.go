package export

import "syscall"

// freeSpace is the bytes free to an unprivileged writer on the file
// system holding dir, and whether it could be read. A variable so that
// tests can give a small disk.
var freeSpace = func(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true //nolint:unconvert // field types differ between systems
}
