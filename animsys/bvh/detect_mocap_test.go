package bvh

import (
	"testing"

	"kinelab/animsys/bvh/mocap"
)

// TestDetectMocap prints what Detect reads from every real file.
func TestDetectMocap(t *testing.T) {
	for _, path := range mocap.Need(t) {
		f, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d := Detect(f)
		t.Logf("%s\n  up %s: %s\n  units %s (%.3f m): %s\n  skip %d: %s\n  figure err %v hips %s head %v",
			mocap.Base(path), d.Up, d.UpReason, d.Units, d.Height*d.Units.Scale(), d.UnitsReason, d.Skip, d.SkipReason, d.FigureErr,
			f.Joints[d.Figure.Hips].Name, d.Figure.Head)
	}
}
