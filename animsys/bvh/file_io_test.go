package bvh

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadFileAndUnitsFor(t *testing.T) {
	f, err := ReadFile("testdata/basic.bvh")
	if err != nil {
		t.Fatal(err)
	}
	if u, err := UnitsFor(f, "auto"); err != nil || u != DetectUnits(f) {
		t.Errorf("auto: %v, %v; want the detected %v", u, err, DetectUnits(f))
	}
	if u, err := UnitsFor(f, "in"); err != nil || u != Inches {
		t.Errorf("in: %v, %v", u, err)
	}
	if _, err := UnitsFor(f, "furlongs"); err == nil {
		t.Error("furlongs accepted")
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.bvh")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
