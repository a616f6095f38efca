package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"kinelab/animsys/internal/regular"
)

// Output is an output file being written so that a failure never costs the
// user what was there: a regular file (or a new path) is written to a
// temporary file beside it and renamed over it by Commit, so until then
// the old file is intact and after Abort no trace is left. A path that
// is a symbolic link is followed: the file it points to is replaced and
// the link stays. A target that is not a regular file (a device such as
// /dev/full, a FIFO) or that is named through /proc (/dev/stdout, whose
// file belongs to whoever opened it) is written straight into, as
// os.Create would, and never removed or replaced.
//
// Every output of kinelab goes through one: exports, the BVH and golden
// files, --csv, screenshots and the settings file. Create refuses a
// target that is a file this process has read as an input (the same file
// through a symbolic or hard link: NoteInput, and every file read by
// packages bvh, gltf and character) and a read-only file: a temporary
// file renamed over it would replace it all the same.
//
// An Output is finished by Commit or given up by Abort; it has no Close, so
// that a deferred close cannot keep half a file. A command interrupted
// (its context cancelled) returns through its deferred Abort, leaving the
// target as it was and no temporary file.
type Output struct {
	f    *os.File
	name string // the path as given, for errors
	path string // the target, symbolic links followed
	tmp  string // the temporary file; "" when writing straight into path
	done bool
	// ready: written, flushed and closed (Ready), with readyErr.
	ready    bool
	readyErr error
}

// Create starts writing the output file path.
func Create(path string) (*Output, error) {
	target, proc, err := followLinks(path)
	if err != nil {
		return nil, err
	}
	st, err := checkTarget(path)
	if err != nil {
		return nil, err
	}
	if st != nil && (!st.Mode().IsRegular() || proc) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return nil, err
		}
		return &Output{f: f, name: path, path: path}, nil
	}
	// O_EXCL with a random name rather than os.CreateTemp: the file gets
	// the mode os.Create would give (0666 less the umask), not 0600.
	dir, base := filepath.Split(target)
	for range 100 {
		tmp := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(uint64(rand.Uint32()), 36))
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) { // not the temporary name: the user never gave it
				err = fmt.Errorf("%s: cannot create a file in %s: %w", path, filepath.Clean(dir), pe.Err)
			}
			return nil, err
		}
		if st != nil { // replacing a file: keep its permissions
			_ = f.Chmod(st.Mode().Perm())
		}
		temporary.add(tmp)
		return &Output{f: f, name: path, path: target, tmp: tmp}, nil
	}
	return nil, fmt.Errorf("%s: no free temporary name beside it", path)
}

// checkTarget is the file at path (nil if there is none yet), or the
// error that refuses it as an output: a folder, a file this process
// reads (IsInput), a read-only file.
func checkTarget(path string) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, syscall.ENOTDIR):
		return nil, fmt.Errorf("%s: a folder on the way is a file; expected a folder", path)
	case err != nil:
		return nil, err
	case st.IsDir():
		return nil, fmt.Errorf("%s: is a folder; expected a file name", path)
	case st.Mode().IsRegular() && regular.IsInput(st):
		return nil, fmt.Errorf("%s: is a file this run reads (itself or through a link); not overwritten: name another output", path)
	case st.Mode().IsRegular() && st.Mode().Perm()&0o222 == 0:
		return nil, fmt.Errorf("%s: read-only; not replaced", path)
	}
	return st, nil
}

// CheckTarget is nil if Create would take path as an output, else the
// error it would give for a folder, an input or a read-only file: for a
// command writing several files to check them all before writing one.
func CheckTarget(path string) error {
	_, err := checkTarget(path)
	return err
}

// NoteInput remembers the file at path (through links) as an input of
// this process, so that Create refuses to write over it: for a command
// that reads its inputs one by one as it writes its outputs, all noted
// before the first output.
func NoteInput(path string) { regular.NoteInput(path) }

// Prepare writes a file to path's temporary file with write and makes it
// Ready, for a command that commits several outputs together once all are
// written; on an error (naming path) nothing is left behind.
func Prepare(path string, write func(io.Writer) error) (*Output, error) {
	f, err := Create(path)
	if err != nil {
		return nil, err
	}
	err = write(f)
	if err == nil {
		err = f.Ready()
	}
	if err != nil {
		f.Abort()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Commit finishes the file: the temporary file is flushed to the disk
// (where a full disk may be reported only now) and renamed over the
// target. On an error the target is as it was and the temporary file is
// gone.
func (f *Output) Commit() error {
	if f.done {
		return errors.New(f.name + ": already closed")
	}
	err := f.Ready()
	f.done = true
	if f.tmp == "" {
		return err
	}
	if err == nil {
		err = os.Rename(f.tmp, f.path)
	}
	if err != nil {
		os.Remove(f.tmp)
	}
	temporary.remove(f.tmp)
	return f.named(err)
}

// Ready finishes writing: the file is flushed to the disk (where a full
// disk may be reported only now) and closed, but not yet put in place,
// which Commit does (or Abort gives it up). A command writing many
// outputs to commit together so holds no file open for each.
func (f *Output) Ready() error {
	if f.ready {
		return f.readyErr
	}
	f.ready = true
	var err error
	if f.tmp != "" {
		err = f.f.Sync()
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	f.readyErr = f.named(err)
	return f.readyErr
}

// ReadyContext is Ready giving up, with ctx's error, once ctx is done (an
// interrupted command): flushing a large file to the disk (a gigabyte of
// export) takes seconds, which an interrupt does not wait for. The file
// is then flushed and closed in the background, and Abort removes it.
func (f *Output) ReadyContext(ctx context.Context) error {
	if f.ready || f.tmp == "" { // done, or a device written straight into
		return f.Ready()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f.ready = true // the file is the flush's now: Abort leaves it open
	file, done := f.f, make(chan error, 1)
	go func() {
		err := file.Sync()
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		done <- err
	}()
	select {
	case err := <-done:
		f.readyErr = f.named(err)
	case <-ctx.Done():
		f.readyErr = ctx.Err()
	}
	return f.readyErr
}

// Abort gives up the file: the temporary file is removed and the target
// left as it was (a device or FIFO written straight into keeps what was
// written). It does nothing after Commit, so it may be deferred.
func (f *Output) Abort() {
	if f.done {
		return
	}
	f.done = true
	if !f.ready {
		f.f.Close()
	}
	if f.tmp != "" {
		os.Remove(f.tmp)
		temporary.remove(f.tmp)
	}
}

// temporary holds the temporary files and folders being written, for
// RemoveTemporary.
var temporary tempSet

type tempSet struct {
	sync.Mutex
	paths map[string]bool
}

func (t *tempSet) add(path string) {
	t.Lock()
	defer t.Unlock()
	if t.paths == nil {
		t.paths = map[string]bool{}
	}
	t.paths[path] = true
}

func (t *tempSet) remove(path string) {
	t.Lock()
	defer t.Unlock()
	delete(t.paths, path)
}

// RemoveTemporary removes every temporary file and folder of the outputs
// not yet committed or aborted, leaving their targets as they were: for a
// process about to exit with a command still writing (an interrupt whose
// command did not stop in time). The outputs are not usable after it.
func RemoveTemporary() {
	temporary.Lock()
	defer temporary.Unlock()
	for p := range temporary.paths {
		os.RemoveAll(p)
	}
	temporary.paths = nil
}

// Write writes to the file (the temporary one until Commit).
func (f *Output) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	return n, f.named(err)
}

// named puts the path as given in an error about the temporary file: the
// user never asked for that name.
func (f *Output) named(err error) error {
	if err == nil || f.tmp == "" {
		return err
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe) && pe.Path == f.tmp:
		return &fs.PathError{Op: pe.Op, Path: f.name, Err: pe.Err}
	case errors.As(err, &le):
		return &fs.PathError{Op: le.Op, Path: f.name, Err: le.Err}
	}
	return err
}

// followLinks is the file path names through any symbolic links, whether
// or not that file exists yet (as os.Create would create it), and whether
// the path or a link on the way is in /proc.
func followLinks(path string) (target string, proc bool, err error) {
	p := path
	for range 40 {
		if abs, err := filepath.Abs(p); err == nil && strings.HasPrefix(abs, "/proc/") {
			proc = true
		}
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			break
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	if t, err := filepath.EvalSymlinks(path); err == nil {
		return t, proc, nil // also through linked folders
	}
	if st, err := os.Lstat(p); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return "", false, fmt.Errorf("%s: too many symbolic links", path)
	}
	return p, proc, nil
}
