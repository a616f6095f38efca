package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/internal/gltftest"
)

// `kinelab info` reports a glTF file's skeleton, skin, mesh and
// animations, passes a .bvh file to `bvh info`, and refuses other files.
func TestInfo(t *testing.T) {
	var out, errb bytes.Buffer
	robot := "../../../shared/gltf/robot.glb"
	if _, err := os.Stat(robot); err != nil {
		t.Skipf("no %s (the shared glTF characters): %v", robot, err)
	}
	if code := Info(context.Background(), []string{robot}, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"44 joints", "14 animations", "skin: 43 joints", "mesh: 7218 vertices", `animation "Robot_Walking"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.glb")
	if err := os.WriteFile(bad, []byte("glTF not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := Info(context.Background(), []string{bad}, &out, &errb); code != ExitFail || !strings.Contains(errb.String(), "bad.glb") {
		t.Errorf("a corrupt .glb: exit %d, %q", code, errb.String())
	}
	if code := Info(context.Background(), []string{"notes.txt"}, &out, &errb); code != ExitUsage {
		t.Errorf("a .txt file: exit %d", code)
	}
}

// info and the app give one reading of a figure, with one reason: the
// figure line of `kinelab info` is the loaded character's reading (the
// app's), for BVH captures (Detect's, which a character keeps: a crouching
// capture read "4 limbs reach the ground" in info and 3 in the app) and
// for glTF files (on the clip the app opens), human or not.
func TestInfoReadsAsTheApp(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, r := range []gltftest.Rig{gltftest.QuadrupedRig(71), gltftest.ArmedQuadrupedRig(100), gltftest.MixamoRig(1.7)} {
		sk, c := r.Skeleton(), r.Clip()
		var b bytes.Buffer
		if err := bvh.Write(&b, &sk, &c, 1); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, r.Name+".bvh")
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for _, r := range []gltftest.Rig{gltftest.IKRobotRig(1.8, false), gltftest.QuadrupedRig(71)} {
		p := filepath.Join(dir, r.Name+".gltf")
		if err := gltftest.WriteRig(p, r, gltftest.Options{}); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for _, p := range files {
		ch, err := character.Load([]string{p}, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := Info(context.Background(), []string{p}, &out, &errb); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", p, code, errb.String())
		}
		var line string
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "figure") {
				line = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(l, "figure:"), "figure"))
			}
		}
		t.Logf("%s: %s", filepath.Base(p), line)
		if want := ch.Figure.Reading(); !strings.HasPrefix(line, want) {
			t.Errorf("%s: info reads %q, the app %q", filepath.Base(p), line, want)
		}
		if human := !strings.HasPrefix(line, "not read"); human != strings.Contains(p, "mixamo") && human != strings.Contains(p, "ik-robot") {
			t.Errorf("%s: %q", filepath.Base(p), line)
		}
	}
}
