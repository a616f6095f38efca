package main

import (
	"os"
	"syscall"
)

// stdoutClosed reports whether kinelab started with its standard output
// closed (`kinelab export walk --out - >&-`): Go's runtime then opens
// /dev/null, read-write, in its place, and every write would succeed into
// nothing. A shell's `> /dev/null` opens it write-only, so that is no
// closed stdout; `1<>/dev/null`, read-write, is taken for one.
func stdoutClosed() bool {
	st, err := os.Stdout.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	if err != nil || !os.SameFile(st, null) {
		return false
	}
	fl, _, errno := syscall.Syscall(syscall.SYS_FCNTL, os.Stdout.Fd(), syscall.F_GETFL, 0)
	return errno == 0 && fl&syscall.O_ACCMODE == syscall.O_RDWR
}
