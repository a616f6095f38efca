package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/assets"
	"kinelab/internal/fixture"
)

// TestNamesNotUTF8: joint names whose bytes are not UTF-8 (a Latin-1 é,
// two stray bytes) have one spelling in every output, each bad byte
// U+FFFD: the CSV wrote them raw and the npz replaced them, one name, two
// spellings. The reading says so in a note naming them.
func TestNamesNotUTF8(t *testing.T) {
	spec := fixture.Mixamo()
	spec.Frames = 6
	dir := t.TempDir()
	path := fixture.File(t, dir, spec)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Mixamo's names: "mixamorig:LeftArm".
	raw := map[string]string{":LeftArm\n": ":Left\xe9Arm\n", ":RightArm\n": ":Right\xff\xfeArm\n"}
	want := map[string]bool{"mixamorig:Left\uFFFDArm": true, "mixamorig:Right\uFFFD\uFFFDArm": true}
	for ok, bad := range raw {
		if !bytes.Contains(b, []byte(ok)) {
			t.Fatalf("the fixture has no joint %q", ok)
		}
		b = bytes.Replace(b, []byte(ok), []byte(bad), 1)
	}
	bad := filepath.Join(dir, "latin.bvh")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	src, notes, err := ReadBVH(bad, bvh.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(notes, "\n"); !strings.Contains(n, "2 joint names not in UTF-8") || !strings.Contains(n, "Left\uFFFDArm") {
		t.Errorf("notes %q do not name the joints not in UTF-8", notes)
	}
	a := exportNPZ(t, src, Options{})
	var buf bytes.Buffer
	if err := Export(context.Background(), src, Options{}, NewCSVWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	npz := a["names"].strings()
	found := 0
	for j, name := range npz {
		if csvName := rows[1+j][3]; csvName != name {
			t.Errorf("joint %d: %q in the CSV, %q in the npz", j, csvName, name)
		}
		if want[name] {
			found++
		}
	}
	if found != len(want) {
		t.Errorf("npz names %q: want %d of %v", npz, len(want), want)
	}
}

// The fps an export stores is the source's own rate: a BVH file's as its
// Frame Time is written (0.0083333 s is 120.00048 frames a second, and
// 0.016666666667 s is 60 to 1e-10), a clip's the whole number of frames a
// second its float32 frame time holds; not 1/FrameTime in float32, which
// made a 60 fps file 59.99999687.
func TestFPSIsTheFilesOwn(t *testing.T) {
	spec := fixture.Mixamo()
	spec.Frames = 6
	dir := t.TempDir()
	b, err := os.ReadFile(fixture.File(t, dir, spec))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte("Frame Time: "))
	j := i + bytes.IndexByte(b[i:], '\n')
	for _, c := range []struct {
		ft   string
		want float64
	}{{"0.0083333", 1 / 0.0083333}, {"0.016666666667", 1 / 0.016666666667}, {"0.04", 25}} {
		path := filepath.Join(dir, "rate.bvh")
		if err := os.WriteFile(path, append(append(append([]byte(nil), b[:i]...), "Frame Time: "+c.ft...), b[j:]...), 0o644); err != nil {
			t.Fatal(err)
		}
		src, _, err := ReadBVH(path, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if fps := exportNPZ(t, src, Options{})["fps"].f64(0); fps != c.want {
			t.Errorf("Frame Time: %s: fps %.10g, want %.10g", c.ft, fps, c.want)
		}
	}
	sk := assets.Humanoid()
	clip := assets.Clips()[0]
	if fps := exportNPZ(t, ClipSource{Clip: &clip, Skel: &sk}, Options{})["fps"].f64(0); fps != 60 {
		t.Errorf("the embedded %s at 60 fps: fps %.10g", clip.Name, fps)
	}
}
