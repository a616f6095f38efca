package velocities

import (
	"testing"

	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/app/apptest"
)

// A BVH character runs through the lab with red and blue agreeing as for
// the default character.
func TestLabOnBVHCharacter(t *testing.T) {
	dir := t.TempDir()
	walk, run := apptest.WriteDefaultBVH(t, dir, "walk"), apptest.WriteDefaultBVH(t, dir, "run")
	ch, errs := app.LoadCharacter([]string{walk, run}, "auto")
	if ch == nil || len(errs) != 0 {
		t.Fatalf("no character: %v", errs)
	}
	l := newLab(ch)
	l.S.LookAt, l.S.IK, l.S.Additive = true, true, true
	var worst float32
	for i := 0; i < 600; i++ {
		l.Update(1.0 / 60)
		if !apptest.PoseFinite(&l.global) || !mathx.Finite(l.Max) {
			t.Fatalf("tick %d: non-finite pose", i)
		}
		if l.Event == "" && i > 1 {
			worst = max(worst, l.Mean)
		}
	}
	// Mean |red - blue| (m/s) as for the default character (~0.05).
	if worst > 0.5 {
		t.Errorf("BVH character: mean |red-blue| up to %v m/s", worst)
	}
}

// A character from a file whose root is the pelvis (an Entity root added
// below it, carrying the root motion) runs with look-at and IK on and
// stays finite.
func TestLabOnPelvisRootCharacter(t *testing.T) {
	ch, errs := app.LoadCharacter([]string{"../../../animsys/bvh/testdata/basic.bvh"}, "auto")
	if ch == nil || len(errs) != 0 {
		t.Fatalf("basic.bvh: %v", errs)
	}
	l := newLab(ch)
	l.S.LookAt, l.S.IK = true, true
	for i := 0; i < 300; i++ {
		l.Update(1.0 / 60)
		if !apptest.PoseFinite(&l.global) || !mathx.Finite(l.Max) {
			t.Fatalf("tick %d: non-finite pose", i)
		}
	}
}
