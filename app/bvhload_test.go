package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/app"
	"kinelab/app/apptest"
)

// A BVH character gets an Entity root and its roles found by name (the
// Velocities lab's tests run it through the lab).
func TestLoadCharacterFromBVH(t *testing.T) {
	dir := t.TempDir()
	walk, run := apptest.WriteDefaultBVH(t, dir, "walk"), apptest.WriteDefaultBVH(t, dir, "run")
	bad := filepath.Join(dir, "bad.bvh")
	os.WriteFile(bad, []byte("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n"), 0o644)

	ch, errs := app.LoadCharacter([]string{walk, bad, run}, "auto")
	if ch == nil {
		t.Fatalf("no character: %v", errs)
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), bad+":5:1: expected") {
		t.Fatalf("errors %v, want one at %s:5:1", errs, bad)
	}
	if len(ch.Clips) != 2 || ch.Skel.Names[0] != "Entity" {
		t.Fatalf("%d clips, root %q", len(ch.Clips), ch.Skel.Names[0])
	}
	if err := ch.Skel.Validate(); err != nil {
		t.Fatal(err)
	}
	name := func(j int) string {
		if j < 0 {
			return "none"
		}
		return ch.Skel.Names[j]
	}
	if name(ch.Head) != "Head" || name(ch.Leg.End) != "LeftFoot" || name(ch.Arm.End) != "RightHand" {
		t.Fatalf("roles: head %s, leg end %s, arm end %s", name(ch.Head), name(ch.Leg.End), name(ch.Arm.End))
	}
	if ch.Facing[2] < 0.99 {
		t.Fatalf("facing %v, want +z", ch.Facing)
	}
	// Detected units: the file is in centimetres, the character in metres.
	if h := ch.Clips[0].Pos[ch.Clips[0].At(0, ch.Hips)][1]; h < 0.8 || h > 1.1 {
		t.Fatalf("hips height %v m after unit detection", h)
	}
}

func TestLoadCharacterUnitsOverride(t *testing.T) {
	walk := apptest.WriteDefaultBVH(t, t.TempDir(), "walk")
	ch, errs := app.LoadCharacter([]string{walk}, "m") // wrongly: the file is in cm
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if h := ch.Clips[0].Pos[ch.Clips[0].At(0, ch.Hips)][1]; h < 80 {
		t.Fatalf("with --units m the hips are %v units high, want ~93", h)
	}
	if _, errs := app.LoadCharacter([]string{walk}, "furlongs"); len(errs) == 0 {
		t.Fatal("bad units accepted")
	}
}

// A file whose root is the pelvis (most mocap) gets an Entity root added
// at the floor below it, carrying the root motion.
func TestLoadCharacterPelvisRoot(t *testing.T) {
	ch, errs := app.LoadCharacter([]string{"../animsys/bvh/testdata/basic.bvh"}, "auto")
	if ch == nil || len(errs) != 0 {
		t.Fatalf("basic.bvh: %v", errs)
	}
	if ch.Skel.Names[0] != "Entity" || ch.Skel.Names[1] != "Hips" || ch.Skel.Parents[1] != 0 {
		t.Fatalf("joints %v parents %v: want an Entity above Hips", ch.Skel.Names[:2], ch.Skel.Parents[:2])
	}
	c := &ch.Clips[0]
	for f := 0; f < c.Frames; f++ {
		e, h := c.Pos[c.At(f, 0)], c.Pos[c.At(f, 1)]
		if e[1] != 0 || h[0] != 0 || h[2] != 0 {
			t.Fatalf("frame %d: entity %v hips %v: want the ground projection on the entity", f, e, h)
		}
	}
}
