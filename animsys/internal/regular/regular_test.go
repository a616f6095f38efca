package regular

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpen: a file opens (through a link); a FIFO with no writer is
// refused at once, by name, instead of blocking; a folder and a device
// are refused too; a missing file is os.Stat's error.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file, fifo, link := filepath.Join(dir, "a.bvh"), filepath.Join(dir, "p.bvh"), filepath.Join(dir, "l.bvh")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link} {
		f, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f.Close()
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	for p, want := range map[string]string{fifo: "a named pipe (FIFO), not a file", dir: "a folder, not a file", "/dev/null": "a device, not a file"} {
		if _, err := Open(p); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", p, err, want)
		}
	}
	if _, err := Open(filepath.Join(dir, "none.bvh")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}
