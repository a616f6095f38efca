package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullWriter takes n bytes, then fails every write as a full disk does.
type fullWriter struct{ n int }

func (w *fullWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	n := w.n
	w.n = 0
	return n, syscall.ENOSPC
}

// Every subcommand whose stdout cannot be written exits 1 and says so on
// stderr, whether stdout fails at once or part way.
func TestFullStdoutFails(t *testing.T) {
	dir := t.TempDir()
	bvhFile := filepath.Join(dir, "walk.bvh")
	if code, _, errs := runBVH("export", bvhFile, "--clip", "walk"); code != ExitOK {
		t.Fatal(errs)
	}
	goldenDir := filepath.Join(dir, "golden")
	if code, _, errs := run(goldenCmd, goldenDir); code != ExitOK {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		cmd  func(context.Context, []string, io.Writer, io.Writer) int
		args []string
	}{
		{Export, []string{"walk", "--out", "-"}},
		{Export, []string{"walk", "--out", dir}},
		{Verify, []string{"--intervals", "4"}},
		{Verify, []string{"--intervals", "4", "--json"}},
		// Without the search timing: bench writes nothing before its
		// work is done, so what it timed does not change how a full
		// stdout fails it (and the search took 13 s a run).
		{Bench, []string{"--characters", "10", "--threads", "1", "--search=false"}},
		{Bench, []string{"--characters", "10", "--threads", "1", "--json", "--search=false"}},
		{BVH, []string{"info", bvhFile}},
		{BVH, []string{"export", filepath.Join(dir, "again.bvh"), "--clip", "idle"}},
		{BVH, []string{"help"}},
		{Golden, []string{goldenDir}},
		{Golden, []string{goldenDir, "--check"}},
		{Golden, []string{goldenDir, "--check", "--json"}},
	} {
		for _, room := range []int{0, 40} {
			var errb bytes.Buffer
			code := tc.cmd(context.Background(), tc.args, &fullWriter{room}, &errb)
			if code != ExitFail || !strings.Contains(errb.String(), "no space left on device") {
				t.Errorf("%q into a stdout full after %d bytes: exit %d, stderr %q; want exit 1 and the error", tc.args, room, code, errb.String())
			}
		}
	}
}

// The same with the process's real stdout on a full device.
func TestDevFullStdoutFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	var errb bytes.Buffer
	// --search=false: as in TestFullStdoutFails.
	if code := Bench(context.Background(), []string{"--characters", "10", "--threads", "1", "--search=false"}, full, &errb); code != ExitFail {
		t.Errorf("bench > /dev/full: exit %d, stderr %q", code, errb.String())
	}
}

// An export to a symbolic link to /dev/full fails with exit 1, and the link
// and the device stay; nothing else is left in the folder.
func TestExportIntoLinkToDevFull(t *testing.T) {
	if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	for _, name := range []string{"out.csv", "out.npz", "walk.csv"} {
		if err := os.Symlink("/dev/full", filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"walk", "--out", filepath.Join(dir, "out.csv")},
		{"walk", "--out", filepath.Join(dir, "out.npz")},
		{"walk", "--out", dir}, // to dir/walk.csv
	} {
		code, _, errs := run(exportCmd, args...)
		if code != ExitFail || !strings.Contains(errs, "no space left on device") {
			t.Errorf("%q: exit %d, stderr %q; want exit 1, no space left", args, code, errs)
		}
	}
	for _, name := range []string{"out.csv", "out.npz", "walk.csv"} {
		if st, err := os.Lstat(filepath.Join(dir, name)); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v %v", name, st, err)
		}
	}
	if st, err := os.Stat("/dev/full"); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/full is gone: %v %v", st, err)
	}
	if ls, _ := os.ReadDir(dir); len(ls) != 3 {
		t.Errorf("the failed exports left %v", ls)
	}
}

// goneWriter takes n bytes, then fails every write as a pipe whose reader
// has gone does (EPIPE).
type goneWriter struct{ n int }

func (w *goneWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	n := w.n
	w.n = 0
	return n, syscall.EPIPE
}

// A stdout whose reader goes (`| head -c 100`) loses what comes after:
// every command says so once, with how much the reader took, and exits 1
// (they exited 0, quietly).
func TestGoneStdoutFails(t *testing.T) {
	dir := t.TempDir()
	bvhFile := filepath.Join(dir, "walk.bvh")
	if code, _, errs := runBVH("export", bvhFile, "--clip", "walk"); code != ExitOK {
		t.Fatal(errs)
	}
	for _, tc := range []struct {
		cmd  func(context.Context, []string, io.Writer, io.Writer) int
		args []string
	}{
		{Export, []string{"walk", "--out", "-"}},
		{Verify, []string{"--intervals", "4"}},
		{Bench, []string{"--characters", "10", "--threads", "1", "--search=false"}},
		{BVH, []string{"info", bvhFile}},
		{Info, []string{bvhFile}},
	} {
		for _, room := range []int{0, 100} {
			var errb bytes.Buffer
			code := tc.cmd(context.Background(), tc.args, &goneWriter{room}, &errb)
			want := fmt.Sprintf("the reader of standard output closed it after %d bytes", room)
			if code != ExitFail || strings.Count(errb.String(), want) != 1 {
				t.Errorf("%q into a pipe whose reader goes after %d bytes: exit %d, stderr %q; want exit 1 and %q once", tc.args, room, code, errb.String(), want)
			}
		}
	}
}
