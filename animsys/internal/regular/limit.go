package regular

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Size limits of the files kinelab reads. Each is far above any real
// capture or character (the largest CMU capture is 20 MB, a detailed
// glTF character a few hundred MB) and well below what would exhaust the
// memory of the machines kinelab runs on.
const (
	MaxBVH   = 1 << 30   // a BVH file
	MaxGLTF  = 1 << 30   // a .gltf or .glb file
	MaxURI   = 1 << 30   // a glTF buffer or image file named by a URI
	MaxImage = 256 << 20 // a texture image file
	// MaxGLBJSON bounds a GLB file's JSON chunk: the document alone,
	// without the binary data (a 43-joint robot with 14 clips has 0.4
	// MB of it), checked before a byte of it is read.
	MaxGLBJSON = 64 << 20
)

// TooBig is the error for a file of size bytes over limit: "x.glb: 3.2 GB
// is over the 1 GiB limit for a glTF file".
func TooBig(path string, size, limit int64, what string) error {
	return fmt.Errorf("%s: %s is over the %s limit for %s", path, Bytes(size), binaryBytes(limit), what)
}

// A file more than half of which is holes (a sparse file's unwritten
// stretches, which read as zeros) and over minSparse bytes is refused by
// OpenLimit: no exporter writes one, and reading it would take memory
// for data the file does not hold (a GLB header claiming a gigabyte over
// a few kilobytes of data took 2.2 GB to refuse).
const minSparse = 16 << 20

// Sparse is the error for a file of size bytes, only stored of which
// are data: "x.glb: 1.1 GB long, of which 4.1 KB is data and the rest
// holes (a sparse file's unwritten space, which reads as zeros): refused
// unread".
func Sparse(path string, size, stored int64) error {
	return fmt.Errorf("%s: %s long, of which %s is data and the rest holes (a sparse file's unwritten space, which reads as zeros): refused unread", path, Bytes(size), Bytes(stored))
}

// Bytes is n as a short decimal size: "3.2 GB", "512.0 KB", "12 bytes".
func Bytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// binaryBytes is a limit as it is set: "1 GiB", "256 MiB".
func binaryBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return Bytes(n)
}

// OpenLimit is Open for a regular file of at most limit bytes, not mostly
// holes (Sparse); what names the kind of file in the error ("a BVH
// file"). The file is remembered as an input (IsInput).
func OpenLimit(path string, limit int64, what string) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() { // replaced since Check
		err = fmt.Errorf("%s: not a file", path)
	}
	if err == nil && st.Size() > limit {
		err = TooBig(path, st.Size(), limit, what)
	}
	if err == nil && st.Size() > minSparse {
		if n := stored(f, st.Size()); 2*n < st.Size() {
			err = Sparse(path, st.Size(), n)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	noteInput(path, st)
	return f, nil
}

// ReadFile reads the regular file at path, of at most limit bytes (what
// names its kind in the error). It never blocks on a FIFO nor reads a
// device, and reads no more than limit bytes should the file grow.
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := OpenLimit(path, limit, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if int64(len(b)) > limit {
		return nil, TooBig(path, int64(len(b)), limit, what)
	}
	return b, nil
}

// DirFS is an fs.FS of the files in folder dir, as os.DirFS, whose files
// are read only if they are regular files (through symbolic links) of at
// most limit bytes: what a glTF document's URIs name, so that a URI onto
// /dev/zero, a FIFO or a folder is refused by name instead of read for
// ever. Names with ".." are refused, as fs.ValidPath says.
func DirFS(dir string, limit int64, what string) fs.FS {
	return dirFS{dir: dir, limit: limit, what: what}
}

type dirFS struct {
	dir, what string
	limit     int64
}

func (d dirFS) name(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(d.dir, filepath.FromSlash(path.Clean(name))), nil
}

// Open opens a regular file under the limit.
func (d dirFS) Open(name string) (fs.File, error) {
	p, err := d.name("open", name)
	if err != nil {
		return nil, err
	}
	return OpenLimit(p, d.limit, d.what)
}

// ReadFile reads a regular file under the limit (fs.ReadFile uses it).
func (d dirFS) ReadFile(name string) ([]byte, error) {
	p, err := d.name("read", name)
	if err != nil {
		return nil, err
	}
	return ReadFile(p, d.limit, d.what)
}

// inputs are the files this process has opened as inputs, so that no
// output of it replaces one (IsInput): a --out that is a link to, or
// another name of, a file read (a glTF file's buffer, say) is refused.
// Each is kept by its path and identity (device and inode where the
// system has them); IsInput checks that the path still names that file,
// with the size and modification time it had, since a file deleted
// since (a test's temporary folder) frees its inode for a new file that
// is no input.
var inputs struct {
	sync.Mutex
	paths map[fileKey][]input // by identity, where keyOf gives one
	other []input             // else compared one by one
}

// input is a file read: its path and what it was when read.
type input struct {
	path string
	size int64
	mod  time.Time
}

// same reports whether st is the file in.path still is, unchanged.
func (in input) same(st fs.FileInfo) bool {
	now, err := os.Stat(in.path)
	return err == nil && os.SameFile(now, st) && now.Size() == in.size && now.ModTime().Equal(in.mod)
}

// NoteInput remembers the file at path (through links) as an input of
// this process; a path that cannot be stat'ed is ignored (it was not
// read).
func NoteInput(path string) {
	if st, err := os.Stat(path); err == nil {
		noteInput(path, st)
	}
}

func noteInput(path string, st fs.FileInfo) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // the working folder may change
	}
	in := input{path: path, size: st.Size(), mod: st.ModTime()}
	inputs.Lock()
	defer inputs.Unlock()
	k, ok := keyOf(st)
	if !ok {
		inputs.other = append(inputs.other, in)
		return
	}
	if inputs.paths == nil {
		inputs.paths = map[fileKey][]input{}
	}
	for i, p := range inputs.paths[k] {
		if p.path == path {
			inputs.paths[k][i] = in // read again: as it is now
			return
		}
	}
	inputs.paths[k] = append(inputs.paths[k], in)
}

// IsInput reports whether st is the same file as one this process has
// read as an input (OpenLimit, ReadFile, DirFS) or noted (NoteInput),
// and that file is still where it was read, as it was.
func IsInput(st fs.FileInfo) bool {
	inputs.Lock()
	var ins []input
	if k, ok := keyOf(st); ok {
		ins = slices.Clone(inputs.paths[k])
	} else {
		ins = slices.Clone(inputs.other)
	}
	inputs.Unlock()
	for _, in := range ins {
		if in.same(st) {
			return true
		}
	}
	return false
}
