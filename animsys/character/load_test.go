package character_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/animtest"
	"kinelab/internal/fixture"
	"kinelab/internal/gltftest"
)

// A BVH character gets an Entity root and its roles from its figure (the
// Velocities lab's tests run it through the lab).
func TestLoadCharacterFromBVH(t *testing.T) {
	dir := t.TempDir()
	walk, run := animtest.WriteDefaultBVH(t, dir, "walk"), animtest.WriteDefaultBVH(t, dir, "run")
	bad := filepath.Join(dir, "bad.bvh")
	os.WriteFile(bad, []byte("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n"), 0o644)

	ch, err := character.Load([]string{walk, bad, run}, bvh.ReadOptions{})
	errs := character.FileErrors(err)
	if ch == nil {
		t.Fatalf("no character: %v", errs)
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), bad+":5:1: expected") {
		t.Fatalf("errors %v, want one at %s:5:1", errs, bad)
	}
	if len(ch.Clips) != 2 || ch.Skel.Names[0] != "Entity" {
		t.Fatalf("%d clips, root %q", len(ch.Clips), ch.Skel.Names[0])
	}
	// The clips in the order loaded; the labs open on the first file's.
	if ch.Clips[0].Name != "walk" || ch.Clips[1].Name != "run" || ch.Start != 0 || ch.Name != "walk" {
		t.Fatalf("clips %q, %q, start %d, name %q: want walk first", ch.Clips[0].Name, ch.Clips[1].Name, ch.Start, ch.Name)
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
	if h := ch.Clips[0].PosAt(0, ch.Hips)[1]; h < 0.8 || h > 1.1 {
		t.Fatalf("hips height %v m after unit detection", h)
	}
}

func TestLoadCharacterUnitsOverride(t *testing.T) {
	walk := animtest.WriteDefaultBVH(t, t.TempDir(), "walk")
	ch, err := character.Load([]string{walk}, bvh.ReadOptions{Units: "m"}) // wrongly: the file is in cm
	if err != nil {
		t.Fatal(err)
	}
	if h := ch.Clips[0].PosAt(0, ch.Hips)[1]; h < 80 {
		t.Fatalf("with --units m the hips are %v units high, want ~93", h)
	}
	if _, err := character.Load([]string{walk}, bvh.ReadOptions{Units: "furlongs"}); err == nil {
		t.Fatal("bad units accepted")
	}
}

// A file whose root is the pelvis (most mocap) gets an Entity root added
// at the floor below it, carrying the root motion.
func TestLoadCharacterPelvisRoot(t *testing.T) {
	ch, err := character.Load([]string{"../bvh/testdata/basic.bvh"}, bvh.ReadOptions{})
	if ch == nil || err != nil {
		t.Fatalf("basic.bvh: %v", err)
	}
	if ch.Skel.Names[0] != "Entity" || ch.Skel.Names[1] != "Hips" || ch.Skel.Parents[1] != 0 {
		t.Fatalf("joints %v parents %v: want an Entity above Hips", ch.Skel.Names[:2], ch.Skel.Parents[:2])
	}
	c := &ch.Clips[0]
	for f := 0; f < c.Frames; f++ {
		e, h := c.PosAt(f, 0), c.PosAt(f, 1)
		if e[1] != 0 || h[0] != 0 || h[2] != 0 {
			t.Fatalf("frame %d: entity %v hips %v: want the ground projection on the entity", f, e, h)
		}
	}
}

// The roles the procedural stages act on are the figure's head and left
// leg (thigh, knee, ankle as the fixture declares them) in every
// exporter's convention, and its right arm; a chain of three joints, no
// figure, has none.
func TestRoles(t *testing.T) {
	dir := t.TempDir()
	for _, spec := range fixture.All() {
		path, err := fixture.WriteFile(dir, spec)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if ch == nil {
			t.Fatalf("%s: %v", spec, err)
		}
		role := func(j int) fixture.Role {
			for _, jt := range spec.Joints {
				if j >= 0 && jt.Name == ch.Skel.Names[j] {
					return jt.Role
				}
			}
			return -1
		}
		name := func(j int) string {
			if j < 0 {
				return "(none)"
			}
			return ch.Skel.Names[j]
		}
		if !strings.Contains(strings.ToLower(name(ch.Head)), "head") {
			t.Errorf("%s: head %s", spec, name(ch.Head))
		}
		if role(ch.Leg.Root) != fixture.LeftThigh || role(ch.Leg.Mid) != fixture.LeftKnee ||
			ch.Skel.Parents[ch.Leg.End] != ch.Leg.Mid || ch.Skel.Parents[ch.Leg.Mid] != ch.Leg.Root {
			t.Errorf("%s: leg %s %s %s", spec, name(ch.Leg.Root), name(ch.Leg.Mid), name(ch.Leg.End))
		}
		if role(ch.Arm.Root) != fixture.RightUpperArm {
			t.Errorf("%s: arm from %s", spec, name(ch.Arm.Root))
		}
	}
	chain := filepath.Join(dir, "chain.bvh")
	os.WriteFile(chain, []byte("HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"+
		" JOINT b\n {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\n"+
		"MOTION\nFrames: 2\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 10\n"), 0o644)
	ch, err := character.Load([]string{chain}, bvh.ReadOptions{Units: "m", Up: "y"})
	if ch == nil {
		t.Fatal(err)
	}
	if ch.Head >= 0 || ch.Leg.Root >= 0 || ch.Arm.Root >= 0 || ch.Figure.Human {
		t.Errorf("a chain has roles: head %d, leg %v, arm %v", ch.Head, ch.Leg, ch.Arm)
	}
}

// A folder loads as its .bvh files, in name order (not its other files
// nor its subfolders); a folder with none is an error naming it.
func TestLoadFolder(t *testing.T) {
	dir := t.TempDir()
	animtest.WriteDefaultBVH(t, dir, "walk")
	animtest.WriteDefaultBVH(t, dir, "idle")
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a capture"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ch, err := character.Load([]string{dir}, bvh.ReadOptions{})
	if err != nil || ch == nil {
		t.Fatalf("loading the folder: %v", err)
	}
	if len(ch.Clips) != 2 || ch.Clips[0].Name != "idle" || ch.Clips[1].Name != "walk" {
		names := []string{}
		for _, c := range ch.Clips {
			names = append(names, c.Name)
		}
		t.Errorf("clips %v, want [idle walk]", names)
	}
	_, err = character.Load([]string{filepath.Join(dir, "sub")}, bvh.ReadOptions{})
	if errs := character.FileErrors(err); len(errs) != 1 || !strings.Contains(errs[0].Error(), "sub: a folder with no .bvh file") {
		t.Errorf("an empty folder gave %v", errs)
	}
}

// Load's error joins one error per file that did not load, in order,
// each with the text it always had, and each wraps its cause: a missing
// file is fs.ErrNotExist, a malformed one a *bvh.ParseError saying where,
// a truncated glTF file io.ErrUnexpectedEOF; errors.Is and errors.As find
// them through the join.
func TestLoadErrorsWrapTheirCauses(t *testing.T) {
	dir := t.TempDir()
	walk := animtest.WriteDefaultBVH(t, dir, "walk")
	bad := filepath.Join(dir, "bad.bvh")
	if err := os.WriteFile(bad, []byte("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.bvh")
	other := fixture.File(t, dir, fixture.Neuron())
	ch, err := character.Load([]string{walk, bad, missing, other}, bvh.ReadOptions{})
	errs := character.FileErrors(err)
	if ch == nil || len(errs) != 3 {
		t.Fatalf("character %v, errors %q: want one and 3", ch != nil, errs)
	}
	for i, want := range []string{bad + ":5:1: expected", "open " + missing + ": no such file", other + ": its skeleton differs from " + walk + "'s: joint "} {
		if !strings.HasPrefix(errs[i].Error(), want) {
			t.Errorf("error %d: %q, want it to begin %q", i, errs[i], want)
		}
	}
	if err.Error() != errs[0].Error()+"\n"+errs[1].Error()+"\n"+errs[2].Error() {
		t.Errorf("the joined error reads %q", err)
	}
	if !errors.Is(err, fs.ErrNotExist) || errors.Is(errs[0], fs.ErrNotExist) || !errors.Is(errs[1], fs.ErrNotExist) {
		t.Errorf("errors.Is(fs.ErrNotExist): joined %v, the bad file's %v, the missing file's %v; want true, false, true",
			errors.Is(err, fs.ErrNotExist), errors.Is(errs[0], fs.ErrNotExist), errors.Is(errs[1], fs.ErrNotExist))
	}
	var pe *bvh.ParseError
	if !errors.As(err, &pe) || pe.File != bad || pe.Line != 5 || pe.Col != 1 {
		t.Errorf("errors.As found %+v, want the parse error at %s:5:1", pe, bad)
	}

	glb := filepath.Join(dir, "cut.glb")
	if err := gltftest.Default(glb, gltftest.Options{GLB: true}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(glb)
	if err == nil {
		err = os.WriteFile(glb, b[:len(b)/2], 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := character.Load([]string{glb}, bvh.ReadOptions{}); !errors.Is(err, io.ErrUnexpectedEOF) || !strings.HasPrefix(err.Error(), glb+": ") {
		t.Errorf("a truncated glTF file: %v, want %s: and io.ErrUnexpectedEOF", err, glb)
	}
}
