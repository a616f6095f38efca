package gltf

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"kinelab/animsys"
	"kinelab/internal/fuzzedit"
)

// bindSpread is the largest difference between the skinning matrices
// global_rest(Joint[k]) InverseBind[k] of the skin's joints and the first
// one's: 0 when the rest pose is the bind pose up to one constant matrix
// (a file whose mesh data is in the skinned node's frame, such as a Z-up
// mesh under a Z_UP node).
func bindSpread(a *Asset) (float64, mgl32.Mat4) {
	global := animsys.NewPose(a.Skel.Len())
	animsys.FKStatic(&global, &a.Rest, a.Skel.Parents)
	var first mgl32.Mat4
	spread := 0.0
	for k, j := range a.Joint {
		g := mgl32.Translate3D(global.Pos[j][0], global.Pos[j][1], global.Pos[j][2]).Mul4(global.Rot[j].Mat4()).
			Mul4(mgl32.Scale3D(global.Scl[j][0], global.Scl[j][1], global.Scl[j][2]))
		m := g.Mul4(a.InverseBind[k])
		if k == 0 {
			first = m
		}
		for i := range m {
			spread = math.Max(spread, math.Abs(float64(m[i]-first[i])))
		}
	}
	return spread, first
}

// Every shared file loads; the test reports what each holds and whether
// its rest pose is its bind pose.
func TestSharedFiles(t *testing.T) {
	for _, path := range sharedFiles(t) {
		a, err := Open(path)
		if err != nil {
			t.Error(err)
			continue
		}
		t.Logf("%s: %d joints (with the Entity), %d skin joints, %d animations", filepath.Base(path), a.Skel.Len(), len(a.Joint), len(a.Anims))
		for _, an := range a.Anims {
			modes := map[string]int{}
			for _, c := range an.Channels {
				modes[c.Interp.String()]++
			}
			c := an.Clip(30)
			t.Logf("  %q: %.3f s, %d channels %v, %d frames at 30 fps", an.Name, an.Duration, len(an.Channels), modes, c.Frames)
			if want := int(math.Ceil(float64(an.Duration)*30-1e-3)) + 1; c.Frames != want {
				t.Errorf("%s %s: %d frames, want %d", a.Name, an.Name, c.Frames, want)
			}
		}
		if m := a.Mesh; m != nil {
			t.Logf("  mesh: %d vertices, %d triangles, base colour %v, image %s (%d bytes)", len(m.Pos), len(m.Indices)/3, m.BaseColor, m.ImageMime, len(m.Image))
			for v, w := range m.Weights {
				if s := w[0] + w[1] + w[2] + w[3]; math.Abs(float64(s-1)) > 1e-5 {
					t.Fatalf("%s: vertex %d weights %v sum to %v", a.Name, v, w, s)
				}
				for _, j := range m.Joints[v] {
					if int(j) >= a.Skel.Len() {
						t.Fatalf("%s: vertex %d joint %d of %d", a.Name, v, j, a.Skel.Len())
					}
				}
			}
		} else {
			t.Logf("  no mesh")
		}
		if len(a.Joint) > 0 {
			spread, m := bindSpread(a)
			switch e := a.BindError(); {
			case e < 1e-4:
				t.Logf("  bind pose: rest global x inverse bind = identity to %.2g", e)
			case spread < 1e-4:
				t.Logf("  bind pose: rest global x inverse bind is one constant matrix (to %.2g), not the identity (off by %.2g): %v", spread, e, m)
			default:
				t.Logf("  not in bind pose: skinning matrices differ by up to %.3g", spread)
			}
		}
		for _, n := range a.Notes {
			t.Logf("  note: %s", n)
		}
	}
}

// Refusals name the file and say what is wrong.
func TestErrors(t *testing.T) {
	cases := []struct {
		name, want string
		edit       func(f *fx)
	}{
		{"shear", "sheared matrix", func(f *fx) {
			f.doc.Nodes[2].Translation = [3]float64{}
			f.doc.Nodes[2].Matrix = mat64(mgl32.Mat4{1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0.3, 0, 1})
		}},
		{"nonuniform", "non-uniform scale", func(f *fx) { f.doc.Nodes[0].Scale = [3]float64{1, 2, 1} }},
		{"nonuniform_anim", "non-uniform scale", func(f *fx) { f.animate(0, 0, gltf.InterpolationLinear, gltf.TRSScale) }},
		{"decreasing", "key times decrease", func(f *fx) {
			f.channel(0, 1, gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1, 0.5}, [][3]float32{{}, {}, {}})
		}},
		{"counts", "output values for", func(f *fx) {
			f.channel(0, 1, gltf.TRSTranslation, gltf.InterpolationCubicSpline, []float32{0, 1}, [][3]float32{{}, {}})
		}},
		{"cycle", "two nodes", func(f *fx) { f.child(3, 1) }},
		{"joint_range", "does not exist", func(f *fx) { f.doc.Skins[0].Joints[0] = 99 }},
		{"int_translation", "must be FLOAT", func(f *fx) {
			f.channel(0, 1, gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1}, [][3]int16{{}, {}})
		}},
	}
	for _, c := range cases {
		f := newFx(20)
		_, hips, spine, head := f.chain3()
		f.skinned([]int{hips, spine, head}, false)
		c.edit(f)
		_, err := Open(f.save(t, t.TempDir(), c.name+".gltf", false))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name+".gltf: ") {
			t.Errorf("%s: %v, want an error naming the file and saying %q", c.name, err, c.want)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none.glb")); err == nil || !strings.Contains(err.Error(), "none.glb") {
		t.Errorf("a missing file: %v", err)
	}
}

// seeds are a small .glb and .gltf (the LINEAR fixture).
func seeds(t testing.TB) (glb, gl []byte) {
	f := fixtures()[1].f
	dir := t.TempDir()
	var err error
	if glb, err = os.ReadFile(f.save(t, dir, "seed.glb", false)); err != nil {
		t.Fatal(err)
	}
	if gl, err = os.ReadFile(f.save(t, dir, "seed.gltf", false)); err != nil {
		t.Fatal(err)
	}
	return glb, gl
}

// FuzzRead mutates a small .glb and .gltf: Read never panics, errors
// name the input ("name: what"), and an asset that reads samples and
// resamples without panicking. The fuzzer mutates a script of edits to
// either file (package fuzzedit), not the file itself: fed the 6 KB files,
// it spent its minutes minimizing inputs and ran a few hundred a minute.
func FuzzRead(f *testing.F) {
	glb, gl := seeds(f)
	bases := [][]byte{glb, gl}
	f.Add(uint8(0), []byte(nil))
	f.Add(uint8(1), []byte(nil))
	f.Add(uint8(0), fuzzedit.Replace(100, glb[100]^0xff))
	f.Add(uint8(1), fuzzedit.Replace(300, gl[300]^'9'))
	f.Fuzz(func(t *testing.T, base uint8, edits []byte) {
		data := fuzzedit.Apply(bases[int(base)%len(bases)], edits)
		a, err := Read(bytes.NewReader(data), "fuzz.glb", "")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.glb: ") {
				t.Fatalf("error %q does not name the input", err)
			}
			return
		}
		pose := animsys.NewPose(a.Skel.Len())
		for _, an := range a.Anims {
			for _, tt := range []float32{-1, 0, an.Duration / 3, an.Duration, float32(math.NaN())} {
				an.Sample(&pose, tt)
			}
			if an.Duration < 60 {
				an.Clip(10)
			}
		}
		a.BindError()
	})
}

// The seeds and a set of fixed mutations (every 97th byte, three ways)
// read without panicking, in the ordinary test run.
func TestReadMutations(t *testing.T) {
	glb, gl := seeds(t)
	for _, seed := range [][]byte{glb, gl} {
		if _, err := Read(bytes.NewReader(seed), "seed", ""); err != nil {
			t.Fatalf("seed: %v", err)
		}
		for at := 0; at < len(seed); at += 97 {
			for _, b := range []byte{0xff, 0x01, '"'} {
				data := bytes.Clone(seed)
				data[at] ^= b
				if a, err := Read(bytes.NewReader(data), "m.glb", ""); err != nil {
					if !strings.HasPrefix(err.Error(), "m.glb: ") {
						t.Fatalf("error %q does not name the input", err)
					}
				} else {
					pose := animsys.NewPose(a.Skel.Len())
					for _, an := range a.Anims {
						an.Sample(&pose, an.Duration/2)
					}
				}
			}
		}
	}
}
