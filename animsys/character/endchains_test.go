package character

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/internal/fixture"
)

// dropJoints is spec s renamed, without the joints drop picks (and their
// subtrees).
func dropJoints(s fixture.Spec, name string, drop func(fixture.Joint) bool) fixture.Spec {
	s.Name = name
	index := make([]int, len(s.Joints))
	var js []fixture.Joint
	for i, j := range s.Joints {
		index[i] = -1
		if drop(j) || (j.Parent >= 0 && index[j.Parent] < 0) {
			continue
		}
		index[i] = len(js)
		if j.Parent >= 0 {
			j.Parent = index[j.Parent]
		}
		js = append(js, j)
	}
	s.Joints = js
	return s
}

// worlds is every joint's world position (m), by name, on every frame of
// clip c of ch.
func worlds(ch *Character, c int) map[string][]mgl32.Vec3 {
	clip := &ch.Clips[c]
	n := ch.Skel.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	out := map[string][]mgl32.Vec3{}
	for f := 0; f < clip.Frames; f++ {
		clip.Frame(&local, f)
		animsys.FKStatic(&global, &local, ch.Skel.Parents)
		for j, name := range ch.Skel.Names {
			out[name] = append(out[name], global.Pos[j])
		}
	}
	return out
}

// sameMotion checks that every joint of clip c of ch moves as the same
// joint does in file path loaded alone.
func sameMotion(t *testing.T, ch *Character, c int, path string) {
	t.Helper()
	alone, err := Load([]string{path}, bvh.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, want := worlds(ch, c), worlds(alone, 0)
	if ch.Clips[c].Frames != alone.Clips[0].Frames {
		t.Fatalf("%s: clip %d has %d frames, alone %d", path, c, ch.Clips[c].Frames, alone.Clips[0].Frames)
	}
	var worst float32
	for name, ps := range got {
		if want[name] == nil {
			t.Errorf("%s: joint %s is not in the file", path, name)
			continue
		}
		for f, p := range ps {
			worst = max(worst, p.Sub(want[name][f]).Len())
		}
	}
	if worst > 1e-5 {
		t.Errorf("%s: clip %d's joints lie up to %.3g m from where the file alone puts them", path, c, worst)
	}
}

// Two CMU conversions that name their fingers differently load together
// on the joints they share, whichever comes first, each clip keeping its
// file's motion; the notes name the fingers each lost.
func TestLoadFingerNames(t *testing.T) {
	dir := t.TempDir()
	b := fixture.CMUFingerNames()
	b.FPS = 100 // its frames are other poses of the walk
	pa, pb := fixture.File(t, dir, fixture.CMU()), fixture.File(t, dir, b)
	lost := map[string]string{
		"cmu":              "cmu: 8 finger joints not in cmu_finger_names.bvh dropped: LeftHandIndex1, LeftHandIndex1_End, LThumb, LThumb_End, RightHandIndex1,",
		"cmu_finger_names": "cmu_finger_names: 8 finger joints not in cmu.bvh dropped: LeftFingerIndex1, LeftFingerIndex1_End, LeftThumb, LeftThumb_End,",
	}
	for _, paths := range [][]string{{pa, pb}, {pb, pa}} {
		ch, err := Load(paths, bvh.ReadOptions{})
		if err != nil || ch == nil || len(ch.Clips) != 2 {
			t.Fatalf("%v: %v", paths, err)
		}
		notes := strings.Join(ch.Notes, "\n")
		for _, p := range paths {
			if n := lost[clipName(p)]; !strings.Contains(notes, n) {
				t.Errorf("%v: notes lack %q:\n%s", paths, n, notes)
			}
		}
		for _, name := range []string{"LeftHandIndex1", "LeftFingerIndex1", "LThumb", "RightThumb"} {
			if slices.Contains(ch.Skel.Names, name) {
				t.Errorf("%v: %s kept", paths, name)
			}
		}
		if !slices.Contains(ch.Skel.Names, "LeftFingerBase") || !slices.Contains(ch.Skel.Names, "LeftHand") || !ch.Figure.Human {
			t.Errorf("%v: joints %v", paths, ch.Skel.Names)
		}
		for c, p := range paths {
			sameMotion(t, ch, c, p)
		}
	}
}

// Files with fewer finger joints and no toe ends load with one that has
// them, on the joints they share; a third file of the first skeleton is
// cut to the same joints, and says so.
func TestLoadFingerCounts(t *testing.T) {
	dir := t.TempDir()
	full := fixture.Mixamo()
	fewer := dropJoints(full, "mixamo_fewer", func(j fixture.Joint) bool {
		return strings.HasSuffix(j.Name, "4") || strings.HasSuffix(j.Name, "Toe_End")
	})
	fewer.FPS = 24
	pf, pl := fixture.File(t, dir, full), fixture.File(t, dir, fewer)
	again := filepath.Join(t.TempDir(), "mixamo.bvh")
	if _, err := fixture.WriteFile(filepath.Dir(again), full); err != nil {
		t.Fatal(err)
	}
	ch, err := Load([]string{pf, pl, again}, bvh.ReadOptions{})
	if err != nil || ch == nil || len(ch.Clips) != 3 {
		t.Fatalf("%v", err)
	}
	notes := strings.Join(ch.Notes, "\n")
	for _, n := range []string{
		"mixamo: 10 finger and 2 toe joints not in mixamo_fewer.bvh dropped: mixamorig:LeftHandThumb4,",
		"mixamo: 10 finger and 2 toe joints not in every file before it dropped",
	} {
		if !strings.Contains(notes, n) {
			t.Errorf("notes lack %q:\n%s", n, notes)
		}
	}
	if got, want := ch.Skel.Len(), len(fewer.Joints)+1; got != want {
		t.Errorf("%d joints, want the fewer file's %d and the Entity", got, want-1)
	}
	for c, p := range []string{pf, pl, again} {
		sameMotion(t, ch, c, p)
	}
	// The other way round nothing of the first is lost.
	ch, err = Load([]string{pl, pf}, bvh.ReadOptions{})
	if err != nil || ch == nil || len(ch.Clips) != 2 || strings.Contains(strings.Join(ch.Notes, "\n"), "mixamo_fewer: ") {
		t.Fatalf("%v\n%s", err, strings.Join(ch.Notes, "\n"))
	}
	for c, p := range []string{pl, pf} {
		sameMotion(t, ch, c, p)
	}
}

// Skeletons that differ above the hands and feet are still not loaded
// together: a renamed forearm is no finger. Of two groups of one file the
// first file's loads, the other is skipped.
func TestLoadEndChainsOnly(t *testing.T) {
	dir := t.TempDir()
	arm := variant(fixture.CMUFingerNames(), "cmu_forearm", func(js []fixture.Joint, at func(string) int) {
		js[at("LeftForeArm")].Name = "LeftElbow"
	})
	pa, pb := fixture.File(t, dir, fixture.CMU()), fixture.File(t, dir, arm)
	ch, err := Load([]string{pa, pb}, bvh.ReadOptions{})
	if err != nil || ch == nil || len(ch.Clips) != 1 || len(ch.Skipped) != 1 || !strings.Contains(ch.Skipped[0].Error(), `is "LeftElbow", not "LeftForeArm"`) {
		t.Fatalf("%v, skipped %v", err, ch.Skipped)
	}
}
