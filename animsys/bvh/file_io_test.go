package bvh

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadFile(t *testing.T) {
	f, err := ReadFile("testdata/basic.bvh")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Joints) == 0 {
		t.Error("no joints")
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.bvh")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
