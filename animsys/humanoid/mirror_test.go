package humanoid_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/humanoid"
	"kinelab/assets"
	"kinelab/internal/fixture"
	"kinelab/internal/mocap"
)

func TestMirrorPairsNames(t *testing.T) {
	names := []string{
		"Hips", "LeftUpLeg", "RightUpLeg", "mixamorig:LeftArm", "mixamorig:RightArm",
		"l_hip", "r_hip", "L_Hip", "R_Hip", "LHipJoint", "RHipJoint", "Hip_L", "Hip_R",
		"LThumb", "RThumb", "lThigh", "rThigh", "Bip01 L Foot", "Bip01 R Foot", "foot.l", "foot.r",
		"lhand", "rhand", "ThighL", "ThighR", "LEFT_EYE", "RIGHT_EYE", "Root", "lowerback", "LowerBack",
		"LeftHand_End", "RightHand_End", "LeftToe", // no right toe
	}
	want := map[string]string{
		"LeftUpLeg": "RightUpLeg", "mixamorig:LeftArm": "mixamorig:RightArm", "l_hip": "r_hip", "L_Hip": "R_Hip",
		"LHipJoint": "RHipJoint", "Hip_L": "Hip_R", "LThumb": "RThumb", "lThigh": "rThigh",
		"Bip01 L Foot": "Bip01 R Foot", "foot.l": "foot.r", "lhand": "rhand", "ThighL": "ThighR",
		"LEFT_EYE": "RIGHT_EYE", "LeftHand_End": "RightHand_End",
	}
	for k, v := range want {
		want[v] = k
	}
	pairs := humanoid.MirrorPairs(names)
	for j, nm := range names {
		got := names[pairs[j]]
		w, ok := want[nm]
		if !ok {
			w = nm
		}
		if got != w {
			t.Errorf("%q pairs with %q, want %q", nm, got, w)
		}
	}
}

// checkPairs checks that pairs is an involution and that every joint
// whose name reads as sided (SideOf) found a partner on the other side;
// it returns the names of those that did not.
func checkPairs(t *testing.T, what string, names []string, pairs []int) (lone []string) {
	t.Helper()
	for j, q := range pairs {
		if pairs[q] != j {
			t.Errorf("%s: %s pairs with %s, which pairs with %s", what, names[j], names[q], names[pairs[q]])
		}
		s, ok := humanoid.SideOf(names[j])
		switch {
		case q == j && ok:
			lone = append(lone, names[j])
		case q != j:
			// MirrorPairs reads a little more than SideOf (CMU's "lhand"),
			// never a side other than SideOf's.
			if sq, okq := humanoid.SideOf(names[q]); ok != okq || (ok && sq == s) {
				t.Errorf("%s: %s pairs with %s, not a joint of the other side", what, names[j], names[q])
			}
		}
	}
	return lone
}

// sharedFiles returns the .bvh files of ../shared/<dir> (a folder beside
// the repository's), skipping the test when there are none.
func sharedFiles(t *testing.T, dir string) []string {
	t.Helper()
	if dir == "mocap" {
		return mocap.Need(t)
	}
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		if paths, _ := filepath.Glob(filepath.Join(d, "shared", dir, "*.bvh")); len(paths) > 0 {
			return paths
		}
		if filepath.Dir(d) == d {
			t.Skipf("SKIPPED: no BVH files in ../shared/%s; these checks need them", dir)
		}
	}
}

func TestMirrorPairsFiles(t *testing.T) {
	sk := animsys.BenchSkeleton()
	if lone := checkPairs(t, "bench", sk.Names, humanoid.MirrorPairs(sk.Names)); len(lone) > 0 {
		t.Errorf("bench: unpaired %v", lone)
	}
	dir := t.TempDir()
	var paths []string
	for _, s := range append(fixture.All(), fixture.CMUFingerNames()) {
		path, err := fixture.WriteFile(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	for _, set := range []string{"mocap", "locomotion"} {
		t.Run(set, func(t *testing.T) {
			for _, path := range sharedFiles(t, set) {
				checkFile(t, path)
			}
		})
	}
	for _, path := range paths {
		checkFile(t, path)
	}
}

// checkFile checks the pairs of a file's joints, End Sites included.
func checkFile(t *testing.T, path string) {
	t.Helper()
	f, err := bvh.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(f.Joints))
	for j, jt := range f.Joints {
		names[j] = jt.Name
	}
	pairs := humanoid.MirrorPairs(names)
	paired := 0
	for j, q := range pairs {
		if q != j {
			paired++
		}
		// Mirroring needs partners to hang from partners.
		if p, pq := f.Joints[j].Parent, f.Joints[q].Parent; p >= 0 && (pq < 0 || pairs[p] != pq) {
			t.Errorf("%s: %s hangs from %s, its partner %s from %s", mocap.Base(path), names[j], names[p], names[q], names[max(pq, 0)])
		}
	}
	lone := checkPairs(t, mocap.Base(path), names, pairs)
	t.Logf("%s: %d of %d joints paired; unpaired sided: %v", mocap.Base(path), paired, len(names), lone)
	if len(lone) > 0 {
		t.Errorf("%s: sided joints without a partner: %s", mocap.Base(path), strings.Join(lone, ", "))
	}
}

// TestMirrorAssets mirrors the default character's clips (a symmetric
// skeleton) across its lateral axis: mirroring twice gives the clip back,
// and the mirrored poses are the reflected partners' (FK of the frames,
// float32 rounding only: 1e-5 m on a figure within a few metres). Lean
// left mirrored is logged against lean right, which it roughly is.
func TestMirrorAssets(t *testing.T) {
	sk := assets.Humanoid()
	pairs := humanoid.MirrorPairs(sk.Names)
	x := mgl32.Vec3{1, 0, 0}
	refl := func(v mgl32.Vec3) mgl32.Vec3 { return mgl32.Vec3{-v[0], v[1], v[2]} }
	clips := assets.Clips()
	n := sk.Len()
	la, lb, ga, gb := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
	var mirroredLeft animsys.Clip
	for i := range clips {
		c := &clips[i]
		m := animsys.MirrorClip(&sk, c, pairs, x)
		if c.Name == "lean left" {
			mirroredLeft = m
		}
		back := animsys.MirrorClip(&sk, &m, pairs, x)
		var twice, pos float32
		for f := 0; f < c.Frames; f++ {
			c.Frame(&la, f)
			back.Frame(&lb, f)
			animsys.FKStatic(&ga, &la, sk.Parents)
			animsys.FKStatic(&gb, &lb, sk.Parents)
			for j := range n {
				twice = max(twice, ga.Pos[j].Sub(gb.Pos[j]).Len())
			}
			m.Frame(&lb, f)
			animsys.FKStatic(&gb, &lb, sk.Parents)
			for j, q := range pairs {
				pos = max(pos, gb.Pos[j].Sub(refl(ga.Pos[q])).Len())
			}
		}
		t.Logf("%s: mirrored twice off by %.2g m, mirrored vs reflected partners %.2g m", c.Name, twice, pos)
		if twice > 1e-5 || pos > 1e-5 {
			t.Errorf("%s: mirrored twice off by %g m, mirrored vs reflected partners %g m", c.Name, twice, pos)
		}
		if m.LoopStart != c.LoopStart || m.LoopEnd != c.LoopEnd {
			t.Errorf("%s: loop %g-%g s, want %g-%g s", c.Name, m.LoopStart, m.LoopEnd, c.LoopStart, c.LoopEnd)
		}
	}
	for i := range clips {
		if c := &clips[i]; c.Name == "lean right" && mirroredLeft.Frames == c.Frames {
			var d float32
			for f := 0; f < c.Frames; f++ {
				c.Frame(&la, f)
				mirroredLeft.Frame(&lb, f)
				animsys.FKStatic(&ga, &la, sk.Parents)
				animsys.FKStatic(&gb, &lb, sk.Parents)
				for j := 1; j < n; j++ { // the Entity walks its own way
					d = max(d, ga.Pos[j].Sub(ga.Pos[0]).Sub(gb.Pos[j].Sub(gb.Pos[0])).Len())
				}
			}
			t.Logf("lean left mirrored vs lean right: %.3f m at most, relative to the root", d)
		}
	}
}
