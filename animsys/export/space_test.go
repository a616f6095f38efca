package export

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"kinelab/assets"
)

// TestSize: the size an export is estimated to take before it is written
// is no less than what it takes, and not far more: a CSV file within a
// quarter over its size, an npz archive twice its size (its arrays'
// temporary files, then the archive) within a tenth.
func TestSize(t *testing.T) {
	sk := assets.Humanoid()
	c := assets.Clips()[2] // run
	src := ClipSource{Clip: &c, Skel: &sk}
	dir := t.TempDir()
	for _, opt := range []Options{{FPS: 600, FD: true}, {}} {
		for _, npz := range []bool{false, true} {
			need, err := Size(src, opt, npz)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "run.csv")
			if npz {
				path = filepath.Join(dir, "run.npz")
				w := NewNPZWriter(path)
				if err := Export(context.Background(), src, opt, w); err != nil {
					t.Fatal(err)
				}
			} else {
				f, err := os.Create(path)
				if err != nil {
					t.Fatal(err)
				}
				err = Export(context.Background(), src, opt, NewCSVWriter(f))
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			got, lo, hi := st.Size(), st.Size(), st.Size()*5/4
			if npz {
				lo, hi = 2*got, 2*got*11/10
			}
			t.Logf("fps %g, npz %v: %d bytes written, %d estimated", opt.FPS, npz, got, need)
			if need < lo || need > hi {
				t.Errorf("fps %g, npz %v: estimated %d bytes, want %d to %d (%d written)", opt.FPS, npz, need, lo, hi, got)
			}
		}
	}
}

// TestCheckSpace: an output needing more than its folder's file system
// has free is refused, saying what it needs and what is free; one that
// fits, or where the free space cannot be read, is not.
func TestCheckSpace(t *testing.T) {
	real := freeSpace
	defer func() { freeSpace = real }()
	freeSpace = func(string) (int64, bool) { return 1_200_000_000, true }
	err := CheckSpace("/data/walk.csv", 5_400_000_000)
	if want := "/data/walk.csv: the export needs about 5.4 GB; 1.2 GB is free in /data; nothing written"; err == nil || err.Error() != want {
		t.Errorf("5.4 GB into 1.2 GB: %v, want %q", err, want)
	}
	if err := CheckSpace("/data/walk.csv", 1_200_000_000); err != nil {
		t.Errorf("1.2 GB into 1.2 GB: %v", err)
	}
	freeSpace = func(string) (int64, bool) { return 0, false }
	if err := CheckSpace("/data/walk.csv", 5_400_000_000); err != nil {
		t.Errorf("free space unknown: %v", err)
	}
	freeSpace = real
	if free, ok := freeSpace(t.TempDir()); ok && !(free > 0) {
		t.Errorf("the test's folder has %d bytes free, read as such", free)
	}
}
