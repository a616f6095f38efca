package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/mathx"
	"kinelab/assets"
	"kinelab/internal/gltftest"
	"kinelab/internal/mocap"
)

// exportNPZ exports src with opt to a temporary .npz and reads it back.
func exportNPZ(t *testing.T, src Source, opt Options) map[string]npyArray {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.npz")
	w := NewNPZWriter(path)
	if err := Export(context.Background(), src, opt, w); err != nil {
		w.Abort()
		t.Fatal(err)
	}
	return readNPZ(t, path)
}

// reference computes what an export of clip c should hold at source frame
// f with fraction alpha, straight from animsys on the whole clip.
func reference(c *animsys.Clip, sk *animsys.Skeleton, f int, alpha float32, linear bool, local, world *animsys.Pose) {
	if linear {
		animsys.SampleLinearFrame(local, c, f, alpha)
	} else {
		animsys.SampleCubicFrame(local, c, f, alpha)
	}
	animsys.FK(world, local, sk.Parents)
}

// maxDiff is the largest component difference between two poses.
func maxDiff(a, b *animsys.Pose) float64 {
	var d float64
	v3 := func(x, y []mgl32.Vec3) {
		for j := range x {
			for k := 0; k < 3; k++ {
				d = math.Max(d, math.Abs(float64(x[j][k]-y[j][k])))
			}
		}
	}
	v3(a.Pos, b.Pos)
	v3(a.Scl, b.Scl)
	v3(a.Vel, b.Vel)
	v3(a.Ang, b.Ang)
	v3(a.Svl, b.Svl)
	for j := range a.Rot {
		q, r := a.Rot[j], b.Rot[j]
		d = math.Max(d, math.Abs(float64(q.W-r.W)))
		for k := 0; k < 3; k++ {
			d = math.Max(d, math.Abs(float64(q.V[k]-r.V[k])))
		}
	}
	return d
}

// poseAt reads frame f of the npz arrays with the given prefix.
func poseAt(a map[string]npyArray, prefix string, f int, p *animsys.Pose) {
	for j := range p.Pos {
		p.Pos[j] = a[prefix+"_pos"].vec3(f, j)
		p.Rot[j] = a[prefix+"_rot"].quat(f, j)
		p.Scl[j] = a[prefix+"_scl"].vec3(f, j)
		p.Vel[j] = a[prefix+"_vel"].vec3(f, j)
		p.Ang[j] = a[prefix+"_ang"].vec3(f, j)
		p.Svl[j] = a[prefix+"_svl"].vec3(f, j)
	}
}

// checkAgainstClip compares every frame of an export of the source's own
// frames with animsys run on the whole clip c: the streamed window must
// give what the clip gives. want is the largest difference allowed.
func checkAgainstClip(t *testing.T, name string, a map[string]npyArray, c *animsys.Clip, sk *animsys.Skeleton, linear bool, want float64) {
	t.Helper()
	n := sk.Len()
	if got := a["world_pos"].shape; len(got) != 3 || got[0] != c.Frames || got[1] != n || got[2] != 3 {
		t.Fatalf("%s: world_pos shape %v, want (%d, %d, 3)", name, got, c.Frames, n)
	}
	if got := a["local_rot"].shape; got[2] != 4 {
		t.Fatalf("%s: local_rot shape %v", name, got)
	}
	names := a["names"].strings()
	for j := 0; j < n; j++ {
		if names[j] != sk.Names[j] || int(a["parents"].i32(j)) != sk.Parents[j] {
			t.Fatalf("%s: joint %d is %q under %d, want %q under %d", name, j, names[j], a["parents"].i32(j), sk.Names[j], sk.Parents[j])
		}
	}
	local, world := animsys.NewPose(n), animsys.NewPose(n)
	gotL, gotW := animsys.NewPose(n), animsys.NewPose(n)
	var worst float64
	for f := 0; f < c.Frames; f++ {
		st, alpha := f, float32(0)
		if f == c.Frames-1 && f > 0 {
			st, alpha = f-1, 1
		}
		reference(c, sk, st, alpha, linear, &local, &world)
		poseAt(a, "local", f, &gotL)
		poseAt(a, "world", f, &gotW)
		worst = math.Max(worst, math.Max(maxDiff(&local, &gotL), maxDiff(&world, &gotW)))
		if tm, want := a["time"].f64(f), float64(f)*float64(c.FrameTime); tm != want {
			t.Fatalf("%s: frame %d at %v s, want %v", name, f, tm, want)
		}
	}
	t.Logf("%s: %d frames x %d joints; largest difference from animsys on the whole clip %.3g", name, c.Frames, n, worst)
	if worst > want {
		t.Errorf("%s: export differs from animsys on the whole clip by %.3g (allowed %.3g)", name, worst, want)
	}
}

// The .npz holds, frame for frame, what animsys gives on the whole clip:
// for the embedded clips and a bench clip with animated scales (cubic and
// linear), read back by the test's own .npz reader.
func TestNPZMatchesAnimsys(t *testing.T) {
	sk := assets.Humanoid()
	bench := animsys.GenerateBenchClip(1)
	bench.Frames = 120 // two seconds are plenty
	for _, c := range append(assets.Clips(), bench) {
		for _, linear := range []bool{false, true} {
			a := exportNPZ(t, ClipSource{Clip: &c, Skel: &sk}, Options{Linear: linear})
			name := c.Name + map[bool]string{false: " cubic", true: " linear"}[linear]
			// Bit for bit: the window of four frames is sampled exactly
			// as the whole clip is (Clip.Prepare's cache is bit-identical
			// to sampling without it).
			checkAgainstClip(t, name, a, &c, &sk, linear, 0)
			if u := a["units"].strings(); u[0] != "m" || a["sample"].strings()[0] != map[bool]string{false: "cubic", true: "linear"}[linear] {
				t.Errorf("%s: units %q sample %q", name, u, a["sample"].strings())
			}
			if fps := a["fps"].f64(0); fps != 60 { // the clip's own rate: 59.99999... was float32's 1/60 inverted
				t.Errorf("%s: fps %v, want 60", name, fps)
			}
		}
	}
}

// A real file exports what the app's character of it holds (its joints,
// the Entity the app adds first, and its clip: bvh.File.ClipWith with the
// detected units, up axis and rest frames, stood on the Entity), frame for
// frame: one joint list in the app and every export.
func TestNPZMatchesMocap(t *testing.T) {
	for _, path := range mocap.Need(t) {
		src, notes, err := ReadBVH(path, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a := exportNPZ(t, src, Options{})
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstClip(t, mocap.Base(path), a, &ch.Clips[0], &ch.Skel, false, 0)
		f, _ := bvh.ReadFile(path)
		end, at := a["end_site"], ch.Skel.Len()-len(f.Joints) // the Entity's 1, or 0
		if ch.Skel.Names[0] != "Entity" || a["names"].strings()[0] != "Entity" || at != 1 {
			t.Errorf("%s: the character's joint 0 %q, the export's %q; want the Entity both", path, ch.Skel.Names[0], a["names"].strings()[0])
		}
		for j := range f.Joints {
			if (end.data[j+at] == 1) != f.Joints[j].EndSite {
				t.Errorf("%s: joint %d end_site %d", path, j+at, end.data[j+at])
			}
		}
		if len(notes) < 2 {
			t.Errorf("%s: notes %q", path, notes)
		}
	}
}

// The CSV holds the same numbers as the .npz (shortest decimals of the
// same float32s), one row per frame and joint, with units in the header.
func TestCSVMatchesNPZ(t *testing.T) {
	sk := assets.Humanoid()
	c := assets.Clips()[2] // run
	src := ClipSource{Clip: &c, Skel: &sk}
	opt := Options{FPS: 90, FD: true, Units: bvh.Centimetres}
	a := exportNPZ(t, src, opt)
	var buf bytes.Buffer
	if err := Export(context.Background(), src, opt, NewCSVWriter(&buf)); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	frames := a["time"].shape[0]
	if len(rows) != 1+frames*sk.Len() {
		t.Fatalf("%d rows, want 1 + %d x %d", len(rows), frames, sk.Len())
	}
	head := rows[0]
	for i, want := range map[int]string{0: "frame", 1: "time_s", 2: "joint", 3: "name", 4: "parent",
		5: "local_pos_x_cm", 8: "local_rot_w", 12: "local_scl_x", 15: "local_vel_x_cm/s", 18: "local_ang_x_rad/s",
		21: "local_svl_x_1/s", 24: "world_pos_x_cm", len(head) - 1: "world_svl_fd_z_1/s"} {
		if head[i] != want {
			t.Errorf("column %d is %q, want %q", i, head[i], want)
		}
	}
	qs := Quantities(&Header{Units: "cm", FD: true})
	for r, row := range rows[1:] {
		f, j := r/sk.Len(), r%sk.Len()
		if row[0] != strconv.Itoa(f) || row[2] != strconv.Itoa(j) || row[3] != sk.Names[j] || row[4] != strconv.Itoa(sk.Parents[j]) {
			t.Fatalf("row %d: %v", r+1, row[:5])
		}
		col := 5
		for _, q := range qs {
			arr := a[q.Name]
			for k := 0; k < q.Dim; k++ {
				v, err := strconv.ParseFloat(row[col], 32)
				if want := arr.f32((f*sk.Len()+j)*q.Dim + k); err != nil || float32(v) != want {
					t.Fatalf("row %d %s: %q, npz %v", r+1, head[col], row[col], want)
				}
				col++
			}
		}
	}
	// Centimetres: positions are 100 times the metres export's.
	m := exportNPZ(t, src, Options{FPS: 90})
	for f := 0; f < frames; f += 17 {
		for j := 0; j < sk.Len(); j++ {
			if p, q := a["world_pos"].vec3(f, j), m["world_pos"].vec3(f, j).Mul(100); p.Sub(q).Len() > 1e-4*max(1, q.Len()) {
				t.Fatalf("frame %d joint %d: %v cm, %v from metres", f, j, p, q)
			}
			if p, q := a["world_ang"].vec3(f, j), m["world_ang"].vec3(f, j); p != q {
				t.Fatalf("frame %d joint %d: angular velocity %v in cm, %v in m", f, j, p, q)
			}
		}
	}
}

// checkFD compares the propagated velocities of an export at a fine rate
// with the finite difference of its own poses, on every frame whose
// neighbours two frames either side lie in the same source interval (the
// cubic curve's acceleration jumps at source frames; linear velocity
// does). The tolerances are animsys/verify's for exact operations (5e-3
// m/s, 2e-3 rad/s, 2e-3 /s plus 1e-3 of the velocity) plus, as verify
// does, the central difference's own truncation error, estimated from the
// difference over twice the step. It returns the largest error per
// quantity.
//
// For a clip sampled from keyframed curves (pieces not nil), frames
// whose neighbours lie in different pieces (a key between them) are left
// out too: a linear curve's velocity jumps at its keys.
func checkFD(t *testing.T, name string, a map[string]npyArray, frameTime float64, pieces animsys.CurvePieces) [3]float64 {
	t.Helper()
	fps := a["fps"].f64(0)
	frames, n := a["time"].shape[0], a["world_pos"].shape[1]
	interval := func(k int) int { return int(math.Floor(float64(k) / fps / frameTime)) }
	abs := [3]float64{5e-3, 2e-3, 2e-3}
	var worst [3]float64
	checked := 0
	for k := 2; k+2 < frames; k++ {
		if interval(k-2) != interval(k+2) || float64(k+2)/fps/frameTime == float64(interval(k+2)) {
			continue
		}
		if pieces != nil && pieces.Piece(a["time"].f64(k-2)) != pieces.Piece(a["time"].f64(k+2)) {
			continue
		}
		checked++
		h1, h2 := a["time"].f64(k+1)-a["time"].f64(k-1), a["time"].f64(k+2)-a["time"].f64(k-2)
		for _, side := range []string{"local", "world"} {
			pos, rot, scl := a[side+"_pos"], a[side+"_rot"], a[side+"_scl"]
			for j := 0; j < n; j++ {
				fd := func(d int, h float64) [3]mgl32.Vec3 {
					dp := pos.vec3(k+d, j).Sub(pos.vec3(k-d, j)).Mul(float32(1 / h))
					dr := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(rot.quat(k+d, j), rot.quat(k-d, j)))).Mul(float32(1 / h))
					ds := mathx.Vec3Log(mathx.Vec3Div(scl.vec3(k+d, j), scl.vec3(k-d, j))).Mul(float32(1 / h))
					return [3]mgl32.Vec3{dp, dr, ds}
				}
				ref, ref2 := fd(1, h1), fd(2, h2)
				prop := [3]mgl32.Vec3{a[side+"_vel"].vec3(k, j), a[side+"_ang"].vec3(k, j), a[side+"_svl"].vec3(k, j)}
				if fdArr, ok := a[side+"_vel_fd"]; ok {
					// The export's own finite difference is this one, up to
					// float32 rounding (animsys.FiniteDiff takes its
					// logarithms by other means than mathx): a backward or
					// forward difference would be off by h/2 x acceleration,
					// 1e-3 of it and more.
					exp := [3]mgl32.Vec3{fdArr.vec3(k, j), a[side+"_ang_fd"].vec3(k, j), a[side+"_svl_fd"].vec3(k, j)}
					for q := range exp {
						if d := exp[q].Sub(ref[q]).Len(); d > 2e-4*(1+ref[q].Len()) {
							t.Fatalf("%s frame %d joint %d: exported %s finite difference %v, recomputed %v", name, k, j, side, exp[q], ref[q])
						}
					}
				}
				for q := range prop {
					e := float64(prop[q].Sub(ref[q]).Len())
					allow := abs[q] + 1e-3*float64(ref[q].Len()) + float64(ref2[q].Sub(ref[q]).Len())/3
					worst[q] = math.Max(worst[q], e)
					if e > allow {
						t.Fatalf("%s frame %d joint %d: %s %s velocity %v, finite difference %v (error %.3g > %.3g)",
							name, k, j, side, [3]string{"linear", "angular", "scalar"}[q], prop[q], ref[q], e, allow)
					}
				}
			}
		}
	}
	if checked < frames/4 {
		t.Fatalf("%s: only %d of %d frames checked", name, checked, frames)
	}
	t.Logf("%s: %d frames x %d joints: largest |propagated - finite difference| %.2e m/s, %.2e rad/s, %.2e /s",
		name, checked, n, worst[0], worst[1], worst[2])
	return worst
}

// Exported at 1000 fps (h = 1 ms, verify's step), the propagated
// velocities agree with the finite difference of the exported poses, local
// and world: on a bench clip with animated scales, an embedded clip, every
// real file, and with linear sampling.
func TestVelocitiesMatchFiniteDifference(t *testing.T) {
	sk := assets.Humanoid()
	bench := animsys.GenerateBenchClip(2)
	bench.Frames = 90
	walk := assets.Clips()[1]
	for _, c := range []*animsys.Clip{&bench, &walk} {
		for _, linear := range []bool{false, true} {
			a := exportNPZ(t, ClipSource{Clip: c, Skel: &sk}, Options{FPS: 1000, FD: true, Linear: linear})
			worst := checkFD(t, c.Name, a, float64(c.FrameTime), nil)
			if c == &bench && worst[2] == 0 {
				t.Errorf("%s: no scalar velocity was checked", c.Name)
			}
		}
	}
	for _, path := range mocap.Need(t) {
		src, _, err := ReadBVH(path, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// A second of each file is plenty (1000 frames).
		f := src.file
		f.Frames = min(f.Frames, src.Import().Skip+int(1/f.FrameTime)+1)
		a := exportNPZ(t, src, Options{FPS: 1000, FD: true})
		checkFD(t, mocap.Base(path), a, float64(f.FrameTime), nil)
	}
}

// A glTF character's clips export their curves exactly: at 1000 fps the
// propagated velocities agree with the finite difference of the exported
// poses between keys, local and world, on every animation (its first
// second) of a generated human in each interpolation (Z-up and in
// centimetres for one, uneven keys for another) and of every shared
// file, and the export says it sampled curves.
func TestGLTFVelocitiesMatchFiniteDifference(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, opt := range []gltftest.Options{{Interp: "STEP", Uneven: true}, {Interp: "LINEAR", ZUp: true, Scale: 0.01}, {Interp: "CUBICSPLINE", FPS: 24}} {
		path := filepath.Join(dir, strings.ToLower(opt.Interp)+".gltf")
		if err := gltftest.Default(path, opt); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	if len(mocap.GLTFFiles()) == 0 {
		t.Log("no ../shared/gltf: checking the generated files only")
	}
	for _, path := range append(paths, mocap.GLTFFiles()...) {
		ch, err := character.LoadGLTF(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ch.Clips {
			c := ch.Clips[i] // a copy: cut to its first second
			c.Frames = min(c.Frames, int(1/c.FrameTime)+1)
			a := exportNPZ(t, ClipSource{Clip: &c, Skel: &ch.Skel}, Options{FPS: 1000, FD: true})
			if s := a["sample"].strings()[0]; s != "curves" {
				t.Errorf("%s %s: sample %q, want curves", mocap.Base(path), c.Name, s)
			}
			checkFD(t, mocap.Base(path)+" "+c.Name, a, float64(c.FrameTime), c.Curves.(animsys.CurvePieces))
		}
	}
}

// A resampled export samples at k/fps: a frame that falls on a source
// frame holds it, the last is the source's last, and every frame's
// velocities are the sampled curve's, not zero at the end.
func TestResampledFrames(t *testing.T) {
	sk := assets.Humanoid()
	c := assets.Clips()[1]
	a := exportNPZ(t, ClipSource{Clip: &c, Skel: &sk}, Options{FPS: 30})
	frames := a["time"].shape[0]
	if want := int(float64(c.Frames-1)*float64(c.FrameTime)*30+1e-9) + 1; frames != want {
		t.Fatalf("%d frames at 30 fps from %d at 60, want %d", frames, c.Frames, want)
	}
	for k := 0; k < frames; k++ {
		src := 2 * k // 60 fps source
		for j := 0; j < sk.Len(); j++ {
			if p, q := a["local_pos"].vec3(k, j), c.PosAt(src, j); p.Sub(q).Len() > 1e-5 {
				t.Fatalf("frame %d joint %d: %v, source frame %d %v", k, j, p, src, q)
			}
		}
	}
	if v := a["world_vel"].vec3(frames-1, 0); v.Len() < 0.3 {
		t.Errorf("the walking root is at rest at the last frame: %v", v)
	}
}

// numpy.load reads the archive (where a Python with numpy is installed):
// every array's name, dtype and shape, and values equal to the test's own
// reader's.
func TestNumpyLoads(t *testing.T) {
	var python string
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("SKIPPED: no python3 with numpy here; the test's own .npz reader checks the format")
	}
	sk := assets.Humanoid()
	c := assets.Clips()[1]
	path := filepath.Join(t.TempDir(), "walk.npz")
	w := NewNPZWriter(path)
	if err := Export(context.Background(), ClipSource{Clip: &c, Skel: &sk}, Options{FD: true}, w); err != nil {
		t.Fatal(err)
	}
	a := readNPZ(t, path)
	script := `
import json, sys, numpy as np
d = np.load(sys.argv[1])
print(json.dumps({k: [str(d[k].dtype), list(d[k].shape)] for k in d.files} | {
    "world_vel_5_3": d["world_vel"][5, 3].tolist(), "local_rot_7_2": d["local_rot"][7, 2].tolist(),
    "names": d["names"].tolist(), "parents": d["parents"].tolist(), "units": str(d["units"]), "fps": float(d["fps"])}))
`
	out, err := exec.Command(python, "-c", script, path).Output()
	if err != nil {
		t.Fatalf("numpy.load: %v\n%s", err, out)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if s := got["world_pos"].([]any); s[0] != "float32" || s[1].([]any)[1] != float64(sk.Len()) || s[1].([]any)[2] != 3.0 {
		t.Errorf("world_pos: %v", s)
	}
	if s := got["names"].([]any); len(s) != sk.Len() || s[14] != "Head" || got["units"] != "m" {
		t.Errorf("names %v units %v", s, got["units"])
	}
	v := a["world_vel"].vec3(5, 3)
	q := a["local_rot"].quat(7, 2)
	for i, x := range got["world_vel_5_3"].([]any) {
		if float32(x.(float64)) != v[i] {
			t.Errorf("world_vel[5, 3] in numpy %v, %v here", got["world_vel_5_3"], v)
		}
	}
	if r := got["local_rot_7_2"].([]any); float32(r[0].(float64)) != q.W || float32(r[1].(float64)) != q.V[0] {
		t.Errorf("local_rot[7, 2] in numpy %v, %v here (w first)", r, q)
	}
	if len(got) != 2+len(a) { // two added keys; names, parents, units and fps replace the arrays' entries
		t.Errorf("numpy sees %d arrays, the test's reader %d", len(got)-2, len(a))
	}
}

// A glTF clip's last exported frame carries the velocity its curves end
// with: the second-order backward difference (3 x(T) - 4 x(T-h) +
// x(T-2h)) / 2h of the curves at their end T, h = 1 ms inside the last
// key interval. A last frame whose float32 time lands past T read the
// rest held there (0) in 11 of 23 moving clips of the shared files.
// The walks and runs of generated humans (LINEAR and CUBICSPLINE, at key
// rates whose durations float32 does not hold: the runs' last frames fell
// past their ends) and of robot.glb, when there (Walking and Running fell
// past theirs).
func TestGLTFLastFrameVelocity(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, opt := range []gltftest.Options{{Interp: "LINEAR", FPS: 30}, {Interp: "CUBICSPLINE", FPS: 24, ZUp: true, Scale: 0.01}} {
		path := filepath.Join(dir, strings.ToLower(opt.Interp)+".glb")
		opt.GLB = true
		if err := gltftest.Default(path, opt); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	if robot := filepath.Join(mocap.GLTFDir(), "robot.glb"); mocap.GLTFDir() != "" {
		paths = append(paths, robot)
	} else {
		t.Log("no ../shared/gltf: checking the generated walks only")
	}
	const h = 1e-3
	for _, path := range paths {
		ch, err := character.LoadGLTF(path)
		if err != nil {
			t.Fatal(err)
		}
		n := ch.Skel.Len()
		moving := 0
		for i := range ch.Clips {
			c := &ch.Clips[i]
			name := mocap.Base(path) + " " + c.Name
			if l := strings.ToLower(c.Name); !strings.Contains(l, "walk") && !strings.Contains(l, "run") {
				continue
			}
			ce, ok := c.Curves.(animsys.CurvesEnd)
			if !ok {
				t.Fatalf("%s: curves %T know no end", name, c.Curves)
			}
			a := exportNPZ(t, ClipSource{Clip: c, Skel: &ch.Skel}, Options{})
			last := a["time"].shape[0] - 1
			if got, want := a["time"].f64(last), ce.End(); got != want {
				t.Errorf("%s: last frame at %v s, want the end %v s", name, got, want)
			}
			got := animsys.NewPose(n)
			poseAt(a, "local", last, &got)
			var x [3]animsys.Pose
			for k := range x {
				x[k] = animsys.NewPose(n)
				ce.SampleCurves(&x[k], ce.End()-float64(k)*h)
			}
			worst, fastest := 0.0, 0.0
			for j := 0; j < n; j++ {
				lin := x[0].Pos[j].Mul(3).Sub(x[1].Pos[j].Mul(4)).Add(x[2].Pos[j]).Mul(1 / (2 * h))
				// Rotations: the angles from T-h and T-2h to T.
				r1 := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(x[0].Rot[j], x[1].Rot[j])))
				r2 := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(x[0].Rot[j], x[2].Rot[j])))
				ang := r1.Mul(4).Sub(r2).Mul(1 / (2 * h))
				for _, d := range [][2]mgl32.Vec3{{lin, got.Vel[j]}, {ang, got.Ang[j]}} {
					// float32 poses of about 1 m round by 1e-7, over 2 ms
					// and weights 3, 4, 1: 5e-4; a cubic's third
					// derivative adds h^2/3 of it.
					tol := 2e-3 + 1e-2*float64(d[0].Len())
					worst = max(worst, float64(d[0].Sub(d[1]).Len())/tol)
					fastest = max(fastest, float64(d[0].Len()))
				}
			}
			t.Logf("%s: end %.9g s, fastest joint at the end %.3g, worst error / tolerance %.3g", name, ce.End(), fastest, worst)
			if worst > 1 {
				t.Errorf("%s: the last frame's velocities differ from the curves' end derivative (worst %.3g of the tolerance)", name, worst)
			}
			if fastest > 0.1 {
				moving++
			}
		}
		if moving == 0 {
			t.Errorf("%s: no walk or run moving at its end: the test checks nothing", mocap.Base(path))
		}
	}
}

// At a capture's first and last frame, exported at its own rate, the
// sampled local velocities are the motion's: the one-sided difference of
// the neighbouring frame, as --fd exports it there, to float32 rounding
// (the tolerance: 1e-4 of the velocity plus 1e-4 m/s or rad/s or 1/s).
// The article's cubic sampling with clamped end frames gave half of it.
// On every capture in ../shared/mocap and ../shared/locomotion.
func TestEndVelocitiesAreOneSided(t *testing.T) {
	paths := append(mocap.Need(t), mocap.NeedLocomotion(t)...)
	for _, path := range paths {
		src, _, err := ReadBVH(path, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a := exportNPZ(t, src, Options{FD: true})
		frames, n := a["time"].shape[0], a["local_pos"].shape[1]
		var worst float64
		for _, k := range []int{0, frames - 1} {
			for j := 0; j < n; j++ {
				for _, q := range [][2]string{{"local_vel", "local_vel_fd"}, {"local_ang", "local_ang_fd"}, {"local_svl", "local_svl_fd"}} {
					got, fd := a[q[0]].vec3(k, j), a[q[1]].vec3(k, j)
					e := float64(got.Sub(fd).Len())
					worst = math.Max(worst, e)
					if e > 1e-4*(1+float64(fd.Len())) {
						t.Fatalf("%s frame %d joint %d: %s %v, one-sided difference %v", mocap.Base(path), k, j, q[0], got, fd)
					}
				}
			}
		}
		t.Logf("%s: %d joints at frames 0 and %d: largest |sampled - one-sided difference| %.2g", mocap.Base(path), n, frames-1, worst)
	}
}
