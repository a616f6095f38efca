package character_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/animtest"
	"kinelab/internal/fixture"
	"kinelab/internal/gltftest"
	"kinelab/internal/mocap"
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
	neuron := fixture.Neuron()
	neuron.Frames = 10 // fewer than walk's: of groups of one file each, the one with more frames loads
	other := fixture.File(t, dir, neuron)
	ch, err := character.Load([]string{walk, bad, missing, other}, bvh.ReadOptions{})
	errs := character.FileErrors(err)
	if ch == nil || len(errs) != 2 || len(ch.Skipped) != 1 {
		t.Fatalf("character %v, errors %q: want one and 2", ch != nil, errs)
	}
	for i, want := range []string{bad + ":5:1: expected", "open " + missing + ": no such file"} {
		if !strings.HasPrefix(errs[i].Error(), want) {
			t.Errorf("error %d: %q, want it to begin %q", i, errs[i], want)
		}
	}
	if err.Error() != errs[0].Error()+"\n"+errs[1].Error() {
		t.Errorf("the joined error reads %q", err)
	}
	// A file of another skeleton is no error: it is skipped, saying why.
	if want := other + ": skipped: its skeleton differs from the file loaded (" + walk + "'s: joint "; !strings.HasPrefix(ch.Skipped[0].Error(), want) {
		t.Errorf("skipped %q, want it to begin %q", ch.Skipped[0], want)
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

// mixedFolder writes, in a new folder, a LAFAN1 capture named to sort
// first and three Bandai captures (each at its own rate, so their clips
// differ), and returns the folder, the LAFAN1 file and the Bandai files.
func mixedFolder(t *testing.T) (dir, lafan string, bandai []string) {
	dir = t.TempDir()
	l := fixture.LAFAN1()
	l.Name = "a_lafan1"
	lafan = fixture.File(t, dir, l)
	for i, fps := range []float32{30, 24, 40} {
		b := fixture.Bandai()
		b.Name, b.FPS = fmt.Sprintf("bandai_%d", i+1), fps
		bandai = append(bandai, fixture.File(t, dir, b))
	}
	return dir, lafan, bandai
}

// A folder of captures of two skeletons loads the larger group, as those
// files alone load, and names the file it skipped and why: no error. The
// character names what it holds by its folder.
func TestLoadMixedFolder(t *testing.T) {
	dir, lafan, bandai := mixedFolder(t)
	ch, err := character.Load([]string{dir}, bvh.ReadOptions{})
	if err != nil || ch == nil {
		t.Fatalf("loading the folder: %v", err)
	}
	alone, err := character.Load(bandai, bvh.ReadOptions{})
	if err != nil || alone == nil {
		t.Fatalf("the Bandai files alone: %v", err)
	}
	if len(ch.Clips) != 3 || ch.Name != "bandai_1" || ch.Start != 0 || !slices.Equal(ch.Files, bandai) {
		t.Errorf("%d clips, name %q, start %d, files %q: want the 3 Bandai files, bandai_1 first", len(ch.Clips), ch.Name, ch.Start, ch.Files)
	}
	if !reflect.DeepEqual(ch.Skel, alone.Skel) || !reflect.DeepEqual(ch.Clips, alone.Clips) || !slices.Equal(ch.Notes, alone.Notes) {
		t.Errorf("the folder's character is not the Bandai files': notes\n%s\nalone\n%s", strings.Join(ch.Notes, "\n"), strings.Join(alone.Notes, "\n"))
	}
	if !strings.HasPrefix(ch.Notes[0], "units cm (detected)") {
		t.Errorf("notes begin %q, want the Bandai file's units", ch.Notes[0])
	}
	want := lafan + ": skipped: its skeleton differs from the 3 files loaded (" + bandai[0] + "'s: joint 1 is "
	if len(ch.Skipped) != 1 || !strings.HasPrefix(ch.Skipped[0].Error(), want) || !strings.HasSuffix(ch.Skipped[0].Error(), "; load it on its own") {
		t.Errorf("skipped %q, want one beginning %q", ch.Skipped, want)
	}
	if got, want := ch.Contents(), "3 clips from "+filepath.Base(dir)+"/"; got != want {
		t.Errorf("contents %q, want %q", got, want)
	}
	// Files of one skeleton: nothing skipped, nothing else changed.
	if alone.Skipped != nil || !slices.Equal(alone.Files, bandai) {
		t.Errorf("the Bandai files alone: skipped %q, files %q", alone.Skipped, alone.Files)
	}
}

// Of groups of a size and of as many frames, the one whose first file
// comes first loads (TestLoadTieByFrames: of more frames first); the
// larger group loads wherever its files are; a file of a third skeleton
// is skipped as well.
func TestLoadLargestGroup(t *testing.T) {
	dir := t.TempDir()
	spec := func(s fixture.Spec, name string, fps float32) string {
		s.Name, s.FPS = name, fps
		return fixture.File(t, dir, s)
	}
	b1, l1, b2, l2 := spec(fixture.Bandai(), "b1", 30), spec(fixture.LAFAN1(), "l1", 30), spec(fixture.Bandai(), "b2", 24), spec(fixture.LAFAN1(), "l2", 24)
	n := spec(fixture.Neuron(), "n", 125)
	for _, c := range []struct {
		paths, files, skipped []string
	}{
		{[]string{b1, l1, b2, l2}, []string{b1, b2}, []string{l1, l2}},
		{[]string{l1, b1, b2, l2}, []string{l1, l2}, []string{b1, b2}},
		{[]string{l1, b1, n, b2}, []string{b1, b2}, []string{l1, n}},
	} {
		ch, err := character.Load(c.paths, bvh.ReadOptions{})
		if err != nil || ch == nil {
			t.Fatalf("%q: %v", c.paths, err)
		}
		var skipped []string
		for _, s := range ch.Skipped {
			file, _, _ := strings.Cut(s.Error(), ": skipped: ")
			skipped = append(skipped, file)
			if !strings.Contains(s.Error(), "differs from the 2 files loaded ("+c.files[0]+"'s: ") {
				t.Errorf("%q: %v", c.paths, s)
			}
		}
		if !slices.Equal(ch.Files, c.files) || !slices.Equal(skipped, c.skipped) {
			t.Errorf("%q: loaded %q, skipped %q; want %q and %q", c.paths, ch.Files, skipped, c.files, c.skipped)
		}
	}
}

// A folder with nothing to load is an error for each file, and no
// character; a skipped file is never among the errors.
func TestLoadNothingUsable(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.bvh", "b.bvh"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ch, err := character.Load([]string{dir}, bvh.ReadOptions{})
	if errs := character.FileErrors(err); ch != nil || len(errs) != 2 {
		t.Errorf("character %v, errors %q: want none and 2", ch != nil, errs)
	}
}

// The real captures: the 50 Bandai files of ../shared/locomotion with a
// capture of another skeleton (from ../shared/mocap) sorted first load as
// the Bandai files alone do, the other skipped.
func TestLoadMixedCaptures(t *testing.T) {
	loco := mocap.NeedLocomotion(t)
	other := mocap.Need(t)[0]
	dir := t.TempDir()
	odd := filepath.Join(dir, "00_"+filepath.Base(other))
	for _, p := range append([]string{other}, loco...) {
		b, err := os.ReadFile(p)
		if err == nil {
			dst := filepath.Join(dir, filepath.Base(p))
			if p == other {
				dst = odd
			}
			err = os.WriteFile(dst, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	ch, err := character.Load([]string{dir}, bvh.ReadOptions{})
	if err != nil || ch == nil {
		t.Fatalf("loading the folder: %v", err)
	}
	alone, err := character.Load(loco, bvh.ReadOptions{})
	if err != nil || alone == nil || alone.Skipped != nil {
		t.Fatalf("the captures alone: %v, skipped %q", err, alone.Skipped)
	}
	if len(ch.Clips) != len(loco) || !reflect.DeepEqual(ch.Skel, alone.Skel) || !slices.Equal(ch.Notes, alone.Notes) {
		t.Errorf("%d clips of %d joints, want %d of %d; notes\n%s", len(ch.Clips), ch.Skel.Len(), len(loco), alone.Skel.Len(), strings.Join(ch.Notes, "\n"))
	}
	want := fmt.Sprintf("%s: skipped: its skeleton differs from the %d files loaded (", odd, len(loco))
	if len(ch.Skipped) != 1 || !strings.HasPrefix(ch.Skipped[0].Error(), want) {
		t.Errorf("skipped %q, want one beginning %q", ch.Skipped, want)
	}
	if got, want := ch.Contents(), fmt.Sprintf("%d clips from %s/", len(loco), filepath.Base(dir)); got != want {
		t.Errorf("contents %q, want %q", got, want)
	}
	t.Logf("%s; %v", ch.Contents(), ch.Skipped[0])
}

// Groups of as many files (one capture of each skeleton) tie: the group
// with the most frames loads, not the earliest file's (a 0.6 s clip became
// the whole database beside a longer capture). Of equal frames too, the
// earliest.
func TestLoadTieByFrames(t *testing.T) {
	dir := t.TempDir()
	short := fixture.LAFAN1()
	short.Name, short.Frames = "a_short", 18 // 0.6 s at 30 fps
	long := fixture.Bandai()
	long.Name, long.Frames = "b_long", 90
	fixture.File(t, dir, short)
	fixture.File(t, dir, long)
	ch, err := character.Load([]string{dir}, bvh.ReadOptions{})
	if ch == nil || len(ch.Clips) != 1 || ch.Clips[0].Name != "b_long" {
		t.Fatalf("a tie of one file each: %+v, %v; want b_long's group", ch != nil && len(ch.Clips) > 0, err)
	}
	if len(ch.Skipped) != 1 || !strings.Contains(ch.Skipped[0].Error(), "a_short.bvh: skipped") {
		t.Errorf("skipped %v, want a_short named", ch.Skipped)
	}
	same := t.TempDir()
	long.Name, short.Name, short.Frames = "b_second", "a_first", long.Frames
	fixture.File(t, same, short)
	fixture.File(t, same, long)
	if ch, _ := character.Load([]string{same}, bvh.ReadOptions{}); ch == nil || ch.Clips[0].Name != "a_first" {
		t.Errorf("as many frames: the earliest file's group should load")
	}
}

// LoadProgress tells how far a folder's load has come: before each file,
// in order, its count of those read and the path, then once at the end.
func TestLoadProgress(t *testing.T) {
	dir := t.TempDir()
	for i, s := range []fixture.Spec{fixture.Bandai(), fixture.Bandai(), fixture.Bandai()} {
		s.Name = fmt.Sprintf("b%d", i)
		fixture.File(t, dir, s)
	}
	var got []string
	ch, err := character.LoadProgress(context.Background(), []string{dir}, bvh.ReadOptions{}, func(done, total int, path string) {
		got = append(got, fmt.Sprintf("%d/%d %s", done, total, filepath.Base(path)))
	})
	if err != nil || ch == nil || len(ch.Clips) != 3 {
		t.Fatalf("loading: %v", err)
	}
	want := []string{"0/3 b0.bvh", "1/3 b1.bvh", "2/3 b2.bvh", "3/3 ."}
	if !slices.Equal(got, want) {
		t.Errorf("progress %q, want %q", got, want)
	}
}
