package regular

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestLimits: a file over its limit is refused, naming the file, its
// size and the limit, before anything is read (the file is sparse: a
// read would take seconds); one at the limit is read whole.
func TestLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "x.glb")
	f, err := os.Create(big)
	if err == nil {
		err = f.Truncate(3_200_000_000)
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	want := big + ": 3.2 GB is over the 1 GiB limit for a glTF file"
	if _, err := OpenLimit(big, 1<<30, "a glTF file"); err == nil || err.Error() != want {
		t.Errorf("OpenLimit: %v, want %q", err, want)
	}
	if _, err := ReadFile(big, 1<<30, "a glTF file"); err == nil || err.Error() != want {
		t.Errorf("ReadFile: %v, want %q", err, want)
	}
	small := filepath.Join(dir, "s.bin")
	if err := os.WriteFile(small, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(small, 5, "x"); err != nil || string(b) != "12345" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	if _, err := ReadFile(small, 4, "a buffer"); err == nil || !strings.HasSuffix(err.Error(), "5 bytes is over the 4 bytes limit for a buffer") {
		t.Errorf("over by one: %v", err)
	}
}

// TestDirFS: a URI naming a link to /dev/zero, a FIFO or a folder is
// refused by name at once (never read: /dev/zero has no end, a FIFO
// blocks); ".." is invalid; a regular file through a link is read and
// becomes an input.
func TestDirFS(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.bin"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"zero.bin": "/dev/zero", "link.bin": "a.bin"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.bin"), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := DirFS(dir, 1<<20, "a glTF buffer")
	for name, want := range map[string]string{
		"zero.bin": "a device, not a file",
		"fifo.bin": "a named pipe (FIFO), not a file",
		"sub.bin":  "a folder, not a file",
	} {
		if _, err := fs.ReadFile(fsys, name); err == nil || !strings.HasSuffix(err.Error(), want) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v, want ...%s: %s", name, err, name, want)
		}
	}
	if _, err := fs.ReadFile(fsys, "../a.bin"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("../a.bin: %v, want fs.ErrInvalid", err)
	}
	b, err := fs.ReadFile(fsys, "link.bin")
	if err != nil || string(b) != "data" {
		t.Fatalf("link.bin: %q, %v", b, err)
	}
	st, err := os.Stat(filepath.Join(dir, "a.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if !IsInput(st) {
		t.Error("a.bin, read through a link, is no input")
	}
	// Deleted, its inode may go to a new file: that is no input.
	if err := os.Remove(filepath.Join(dir, "a.bin")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.bin"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(filepath.Join(dir, "a.bin")); IsInput(st) {
		t.Error("a new file where an input was is an input")
	}
	other := filepath.Join(dir, "other.bin")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(other); IsInput(st) {
		t.Error("a file never read is an input")
	}
}

// TestSparse: a file over minSparse that is more than half holes is
// refused by OpenLimit and ReadFile, naming its size and its data, with
// none of it read; one half data reads whole. (Where the file system
// cannot tell holes, every byte counts as data and both read.)
func TestSparse(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, size, data int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err == nil {
			_, err = f.Write(bytes.Repeat([]byte{'x'}, int(data)))
		}
		if err == nil {
			err = f.Truncate(size)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	holes := mk("holes.bin", 1<<30, 4096)
	f, err := os.Open(holes)
	if err != nil {
		t.Fatal(err)
	}
	n := stored(f, 1<<30)
	f.Close()
	if n == 1<<30 {
		t.Skip("SKIPPED: this file system does not tell holes from data")
	}
	if n < 4096 || n > 1<<20 {
		t.Fatalf("stored: %d bytes of data in a file of 4096 written and a 1 GiB hole", n)
	}
	want := holes + ": 1.1 GB long, of which "
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err1 := OpenLimit(holes, 1<<30, "a glTF file")
	_, err2 := ReadFile(holes, 1<<30, "a glTF buffer")
	runtime.ReadMemStats(&after)
	for _, err := range []error{err1, err2} {
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "the rest holes") {
			t.Errorf("%v, want %q... the rest holes", err, want)
		}
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing the sparse file allocated %d bytes", got)
	}
	half := mk("half.bin", 32<<20, 16<<20)
	if b, err := ReadFile(half, 1<<30, "a glTF buffer"); err != nil || len(b) != 32<<20 {
		t.Errorf("a file half data: %d bytes, %v", len(b), err)
	}
	small := mk("small.bin", minSparse, 0)
	if b, err := ReadFile(small, 1<<30, "a glTF buffer"); err != nil || len(b) != minSparse {
		t.Errorf("a hole of minSparse bytes: %d bytes, %v", len(b), err)
	}
}
