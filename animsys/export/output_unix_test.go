//go:build unix

package export

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"kinelab/animsys"
	"kinelab/assets"
)

// underFileLimit runs the calling test again in a child process whose
// writes past n bytes of any file fail (EFBIG, as a full disk fails them;
// Go ignores SIGXFSZ): it returns true in the child, which runs the test,
// and false in this process once the child has passed. A child, because
// the limit would also stop this test binary's own log.
func underFileLimit(t *testing.T, n uint64) bool {
	t.Helper()
	if os.Getenv("KINELAB_TEST_FSIZE") != "" {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
		lim.Cur = n
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), "KINELAB_TEST_FSIZE=1")
	if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Errorf("under a %d-byte file size limit: %v\n%s", n, err, out)
	}
	return false
}

// An export that fails part way leaves the file that was there and no
// temporary file, as CSV (through an Output) and as .npz.
func TestFailedExportKeepsOutput(t *testing.T) {
	// The walk's .npz arrays are 26 kB at most, the archive 250 kB, the
	// CSV 480 kB: the archive fails in End, the CSV part way.
	if !underFileLimit(t, 64<<10) {
		return
	}
	dir := t.TempDir()
	csvPath, npzPath := filepath.Join(dir, "out.csv"), filepath.Join(dir, "out.npz")
	for _, p := range []string{csvPath, npzPath} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clips, sk := assets.Clips(), assets.Humanoid()
	i := slices.IndexFunc(clips, func(c animsys.Clip) bool { return c.Name == "walk" })
	src := ClipSource{Clip: &clips[i], Skel: &sk}

	f, err := Create(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	err = Export(src, Options{}, NewCSVWriter(f))
	if err == nil {
		err = f.Commit()
	}
	f.Abort()
	if err == nil {
		t.Error("a CSV export past the file size limit: no error")
	}
	w := NewNPZWriter(npzPath)
	err = Export(src, Options{}, w)
	w.Abort()
	if err == nil {
		t.Error("an .npz export past the file size limit: no error")
	}
	for _, p := range []string{csvPath, npzPath} {
		if b, err := os.ReadFile(p); err != nil || string(b) != "old" {
			t.Errorf("%s after a failed export: %q, %v", filepath.Base(p), b, err)
		}
	}
	if ls := names(t, dir); !slices.Equal(ls, []string{"out.csv", "out.npz"}) {
		t.Errorf("the failed exports left %v", ls)
	}
}
