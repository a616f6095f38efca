// Package regular opens input files that are regular files, and refuses
// the rest by name: a named pipe nobody writes to would block a reader for
// ever (a frozen window), and a device reads without end.
package regular

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Open opens path for reading if it is a regular file (through symbolic
// links); else the error says what it is: "path: a named pipe (FIFO), not
// a file".
func Open(path string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	return os.Open(path)
}

// Check is nil if path is a regular file (through symbolic links) and
// the error Open gives otherwise; a path that cannot be read gives the
// *fs.PathError os.Open would ("open path: no such file or directory").
func Check(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open"
		}
		return err
	}
	if st.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch m := st.Mode(); {
	case m.IsDir():
		what = "a folder"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%s: %s, not a file", path, what)
}
