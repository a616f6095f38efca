//go:build unix

package export

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"kinelab/animsys"
	"kinelab/assets"
	"kinelab/internal/animtest"
)

// An export that fails part way leaves the file that was there and no
// temporary file, as CSV (through an Output) and as .npz.
func TestFailedExportKeepsOutput(t *testing.T) {
	// The walk's .npz arrays are 26 kB at most, the archive 250 kB, the
	// CSV 480 kB: the archive fails in End, the CSV part way.
	if !animtest.UnderFileLimit(t, 64<<10) {
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
	err = Export(context.Background(), src, Options{}, NewCSVWriter(f))
	if err == nil {
		err = f.Commit()
	}
	f.Abort()
	if err == nil {
		t.Error("a CSV export past the file size limit: no error")
	}
	w := NewNPZWriter(npzPath)
	err = Export(context.Background(), src, Options{}, w)
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
