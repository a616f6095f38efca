package export

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// names lists dir's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func writeAll(t *testing.T, path, s string) *Output {
	t.Helper()
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(s)); err != nil {
		f.Abort()
		t.Fatal(err)
	}
	return f
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A file is replaced only by Commit, keeps its permissions, and leaves no
// temporary file either way.
func TestOutputReplacesOnCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	f := writeAll(t, path, "new")
	if got := content(t, path); got != "old" {
		t.Errorf("before Commit the file holds %q", got)
	}
	f.Abort()
	if got, ls := content(t, path), names(t, dir); got != "old" || !slices.Equal(ls, []string{"out.csv"}) {
		t.Errorf("after Abort: %q, folder %v", got, ls)
	}
	if err := writeAll(t, path, "new").Commit(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if got, ls := content(t, path), names(t, dir); got != "new" || !slices.Equal(ls, []string{"out.csv"}) || st.Mode().Perm() != 0o640 {
		t.Errorf("after Commit: %q, mode %v, folder %v", got, st.Mode(), ls)
	}
	fresh := filepath.Join(dir, "fresh.csv")
	f = writeAll(t, fresh, "x")
	if err := f.Commit(); err != nil || content(t, fresh) != "x" {
		t.Errorf("a new file: %v", err)
	}
	f.Abort() // after Commit: nothing
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("Abort after Commit removed the file: %v", err)
	}
	if _, err := Create(dir); err == nil {
		t.Error("Create on a folder: no error")
	}
}

// A symbolic link stays a link: the file it points to is replaced, or
// created; a device it points to is written into and stays.
func TestOutputThroughLinks(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.csv"), filepath.Join(dir, "link.csv")
	os.WriteFile(target, []byte("old"), 0o644)
	os.Symlink("target.csv", link)
	if err := writeAll(t, link, "new").Commit(); err != nil {
		t.Fatal(err)
	}
	isLink := func(p string) bool { st, err := os.Lstat(p); return err == nil && st.Mode()&fs.ModeSymlink != 0 }
	if !isLink(link) || content(t, target) != "new" {
		t.Errorf("through a link: link kept %v, target %q", isLink(link), content(t, target))
	}
	dangling := filepath.Join(dir, "dangling.csv")
	os.Symlink("missing.csv", dangling)
	if err := writeAll(t, dangling, "made").Commit(); err != nil {
		t.Fatal(err)
	}
	if !isLink(dangling) || content(t, filepath.Join(dir, "missing.csv")) != "made" {
		t.Errorf("through a dangling link: link kept %v", isLink(dangling))
	}

	if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
		t.Skip("no /dev/full")
	}
	full := filepath.Join(dir, "full.csv")
	os.Symlink("/dev/full", full)
	f, err := Create(full)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Write([]byte("data"))
	f.Abort()
	if err == nil {
		t.Error("writing /dev/full: no error")
	}
	if st, err := os.Stat("/dev/full"); !isLink(full) || err != nil || st.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("after a failed write to a link to /dev/full: link kept %v, /dev/full %v %v", isLink(full), st, err)
	}
	if ls := names(t, dir); !slices.Equal(ls, []string{"dangling.csv", "full.csv", "link.csv", "missing.csv", "target.csv"}) {
		t.Errorf("folder holds %v", ls)
	}
}

// A file named through /proc (/dev/stdout is /proc/self/fd/1) belongs to
// whoever opened it: it is written into, not replaced.
func TestOutputThroughProc(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stdout.txt")
	opened, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	proc := "/proc/self/fd/" + strconv.Itoa(int(opened.Fd()))
	if _, err := os.Stat(proc); err != nil {
		t.Skip(err)
	}
	before, _ := opened.Stat()
	if err := writeAll(t, proc, "rows").Commit(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil || !os.SameFile(before, after) || content(t, path) != "rows" {
		t.Errorf("through %s: same file %v, %q, %v", proc, err == nil && os.SameFile(before, after), content(t, path), err)
	}
	if ls := names(t, dir); !slices.Equal(ls, []string{"stdout.txt"}) {
		t.Errorf("folder holds %v", ls)
	}
}

// Create refuses a read-only file (a rename would replace it all the
// same) and a file the process has read, under any name (a hard link, a
// symbolic link): both stay as they were, with no temporary file beside.
// A file never read, beside them, is written.
func TestOutputRefusesInputsAndReadOnly(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.csv")
	if err := os.WriteFile(ro, []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(ro); err == nil || err.Error() != ro+": read-only; not replaced" {
		t.Errorf("a read-only file: %v", err)
	}
	in := filepath.Join(dir, "in.bvh")
	if err := os.WriteFile(in, []byte("HIERARCHY"), 0o644); err != nil {
		t.Fatal(err)
	}
	hard, sym := filepath.Join(dir, "hard.csv"), filepath.Join(dir, "sym.csv")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.bvh", sym); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{hard, sym} {
		f, err := Create(p)
		if err != nil {
			t.Fatalf("%s before the input is read: %v", p, err)
		}
		f.Abort()
	}
	NoteInput(in)
	for _, p := range []string{in, hard, sym} {
		if _, err := Create(p); err == nil || !strings.Contains(err.Error(), "is a file this run reads") {
			t.Errorf("%s: %v", p, err)
		}
	}
	if got := content(t, in); got != "HIERARCHY" || content(t, ro) != "old" {
		t.Errorf("the input holds %q, the read-only file %q", got, content(t, ro))
	}
	if err := writeAll(t, filepath.Join(dir, "new.csv"), "x").Commit(); err != nil {
		t.Error(err)
	}
	if ls := names(t, dir); !slices.Equal(ls, []string{"hard.csv", "in.bvh", "new.csv", "ro.csv", "sym.csv"}) {
		t.Errorf("folder holds %v", ls)
	}
}
