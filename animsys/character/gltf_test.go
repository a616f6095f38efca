package character_test

import (
	"bytes"
	"kinelab/animsys/character"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/gltf"
	"kinelab/internal/fixture"
	"kinelab/internal/gltftest"
	"kinelab/internal/mocap"
)

// Every shared glTF file loads as a character: every animation a clip
// sampled from its curves, its own mesh where it has a skin, a height.
func TestLoadSharedGLTF(t *testing.T) {
	for _, path := range mocap.NeedGLTF(t) {
		ch, err := character.Load([]string{path}, bvh.ReadOptions{})
		if err != nil || ch == nil {
			t.Fatalf("%s: %v", path, err)
		}
		t.Logf("%s: %d joints, %d clips, opens on %q, height %.2f m, hips %s at %.2f m, human %v, own mesh %v",
			filepath.Base(path), ch.Skel.Len(), len(ch.Clips), ch.Clips[ch.Start].Name, ch.Height, ch.Skel.Names[ch.Hips], ch.HipsHeight, ch.Figure.Human, ch.Mesh != nil)
		for i := range ch.Clips {
			if ch.Clips[i].Curves == nil {
				t.Errorf("%s clip %d: not sampled from its curves", path, i)
			}
		}
		if !(ch.Height > 0) {
			t.Errorf("%s: height %v", path, ch.Height)
		}
		skinned := !strings.Contains(filepath.Base(path), "interpolation")
		if (ch.Mesh != nil) != skinned {
			t.Errorf("%s: own mesh %v, want %v", path, ch.Mesh != nil, skinned)
		}
	}
}

// A glTF file is a character on its own: loaded first, the files after it
// are refused; after BVH files, it is.
func TestGLTFLoadsAlone(t *testing.T) {
	paths := mocap.NeedGLTF(t)
	var glb string
	for _, p := range paths {
		if strings.HasSuffix(p, ".glb") {
			glb = p
		}
	}
	if glb == "" {
		t.Skip("SKIPPED: no .glb file in ../shared/gltf")
	}
	b := fixture.File(t, t.TempDir(), fixture.CMU())
	ch, err := character.Load([]string{glb, b}, bvh.ReadOptions{})
	errs := character.FileErrors(err)
	if ch == nil || ch.Mesh == nil || len(errs) != 1 || !strings.Contains(errs[0].Error(), "loads on its own") {
		t.Errorf("glTF then BVH: character %v, errors %v", ch != nil, errs)
	}
	ch, err = character.Load([]string{b, glb}, bvh.ReadOptions{})
	errs = character.FileErrors(err)
	if ch == nil || ch.Mesh != nil || len(ch.Clips) != 1 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "not with BVH files") {
		t.Errorf("BVH then glTF: character %v, errors %v", ch != nil, errs)
	}
}

// A human glTF character's Entity carries the hips' ground projection,
// exactly: every other joint's world position and velocity is the file's
// (within float32 rounding of the re-rooting), the Entity moves and stays
// under the hips, and its velocity and its children's are the central
// difference of their positions (h = 0.25 ms, between keys: 5 mm/s
// covers float32 positions of a few metres over 0.5 ms, about 6e-4, and
// the difference's h^2/6 x jerk; at h = 1 ms the cubic curves' jerk alone
// reaches 5.6 mm/s).
func TestGLTFRootMotion(t *testing.T) {
	for _, opt := range []gltftest.Options{{Interp: "LINEAR"}, {Interp: "CUBICSPLINE", ZUp: true, Scale: 0.01}, {Interp: "STEP", Uneven: true, GLB: true}} {
		path := filepath.Join(t.TempDir(), "walker.gltf")
		if opt.GLB {
			path = filepath.Join(t.TempDir(), "walker.glb")
		}
		if err := gltftest.Default(path, opt); err != nil {
			t.Fatal(err)
		}
		a, err := gltf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := character.FromGLTF(a)
		if err != nil {
			t.Fatal(err)
		}
		if !ch.Figure.Human || ch.Hips <= 1 || ch.Mesh == nil {
			t.Fatalf("%s: human %v (%s), hips %d, mesh %v", opt.Interp, ch.Figure.Human, ch.Figure.NotHuman, ch.Hips, ch.Mesh != nil)
		}
		n, parents := ch.Skel.Len(), ch.Skel.Parents
		p, g, r, gr := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
		lo, hi := animsys.NewPose(n), animsys.NewPose(n)
		var worstPos, worstVel, worstFD float32
		moved := false
		for i := range ch.Clips {
			c, an := &ch.Clips[i], a.Anims[i]
			pieces := c.Curves.(animsys.CurvePieces)
			for k := 0; k < 60; k++ {
				tt := (float32(k) + 0.5) / 60 * an.Duration
				animsys.SampleCubic(&p, c, tt)
				animsys.FK(&g, &p, parents)
				an.Sample(&r, tt)
				animsys.FK(&gr, &r, parents)
				for j := 1; j < n; j++ { // the Entity moves: the point
					worstPos = max(worstPos, g.Pos[j].Sub(gr.Pos[j]).Len())
					worstVel = max(worstVel, g.Vel[j].Sub(gr.Vel[j]).Len())
				}
				h := g.Pos[ch.Hips]
				if d := g.Pos[0].Sub(mgl32.Vec3{h[0], 0, h[2]}).Len(); d > 1e-5 {
					t.Fatalf("%s %s t %v: the Entity is %v m from under the hips", opt.Interp, c.Name, tt, d)
				}
				moved = moved || g.Pos[0].Len() > 0.1
				const step = 2.5e-4
				if pieces.Piece(float64(tt-step)) != pieces.Piece(float64(tt+step)) {
					continue
				}
				animsys.SampleCubic(&lo, c, tt-step)
				animsys.SampleCubic(&hi, c, tt+step)
				for j, pj := range parents {
					if j != 0 && pj != 0 {
						continue
					}
					fd := hi.Pos[j].Sub(lo.Pos[j]).Mul(1 / (2 * step))
					worstFD = max(worstFD, fd.Sub(p.Vel[j]).Len())
				}
			}
		}
		t.Logf("%s: worst world position %.2g m, world velocity %.2g m/s; Entity and its children's velocity vs central difference %.2g m/s", opt.Interp, worstPos, worstVel, worstFD)
		if worstPos > 1e-4 || worstVel > 1e-3 || worstFD > 5e-3 || !moved {
			t.Errorf("%s: the re-rooted clips differ from the file's (%.2g m, %.2g m/s, %.2g m/s), or the Entity never moved (%v)", opt.Interp, worstPos, worstVel, worstFD, moved)
		}
	}
}

// gltfSeed is the generated human as GLB bytes, the fuzz seed.
func gltfSeed(t testing.TB) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "seed.glb")
	if err := gltftest.Default(path, gltftest.Options{Interp: "CUBICSPLINE", Texture: true, GLB: true, Uneven: true}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// loadMutated reads data as a glTF character: an error names the input,
// and a character read samples every clip at its ends and middle.
func loadMutated(t *testing.T, data []byte) {
	a, err := gltf.Read(bytes.NewReader(data), "fuzz.glb", "")
	if err != nil {
		if !strings.HasPrefix(err.Error(), "fuzz.glb: ") {
			t.Fatalf("error %q does not name the input", err)
		}
		return
	}
	ch, err := character.FromGLTF(a)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "fuzz: ") {
			t.Fatalf("error %q does not name the input", err)
		}
		return
	}
	p := animsys.NewPose(ch.Skel.Len())
	for i := range ch.Clips {
		c := &ch.Clips[i]
		for _, tt := range []float32{0, c.Duration() / 2, c.Duration()} {
			animsys.SampleCubic(&p, c, tt)
		}
	}
}

// Corrupt glTF files give an error naming the file, or a character,
// never a panic: on the generated human with fixed mutations here (64
// bytes spread over the file and 256 over the small one without a mesh,
// three ways each), and any with `go test -fuzz FuzzFromGLTF`.
func TestFromGLTFMutations(t *testing.T) {
	for seed, spots := range map[*[]byte]int{ptr(gltfSeed(t)): 64, ptr(smallGLTFSeed(t)): 256} {
		for i := 0; i < spots; i++ {
			at := i * len(*seed) / spots
			for _, b := range []byte{0xff, 0x01, '"'} {
				data := bytes.Clone(*seed)
				data[at] ^= b
				loadMutated(t, data)
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

// smallGLTFSeed is the generated human without its mesh, walking at 10
// keys a second: a few kilobytes, so that the fuzzer mutates what the
// character is made of rather than vertices.
func smallGLTFSeed(t testing.TB) []byte {
	t.Helper()
	sk, _, clips := gltftest.DefaultCharacter()
	path := filepath.Join(t.TempDir(), "small.glb")
	if err := gltftest.Write(path, &sk, nil, clips[:1], gltftest.Options{Interp: "LINEAR", FPS: 10, GLB: true}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func FuzzFromGLTF(f *testing.F) {
	f.Add(gltfSeed(f), uint(0), byte(0))
	f.Add(gltfSeed(f), uint(5000), byte(0xff))
	f.Add(smallGLTFSeed(f), uint(0), byte(0))
	f.Add(smallGLTFSeed(f), uint(700), byte('9'))
	f.Fuzz(func(t *testing.T, data []byte, at uint, b byte) {
		if len(data) > 0 {
			data = bytes.Clone(data)
			data[at%uint(len(data))] ^= b
		}
		loadMutated(t, data)
	})
}

// A glTF file with no animation is refused, naming the file.
func TestGLTFWithoutAnimation(t *testing.T) {
	sk, _, _ := gltftest.DefaultCharacter()
	none := filepath.Join(t.TempDir(), "none.gltf")
	if err := gltftest.Write(none, &sk, nil, nil, gltftest.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := character.LoadGLTF(none); err == nil || !strings.HasPrefix(err.Error(), none+": no animation") {
		t.Errorf("no animation: %v, want an error naming %s", err, none)
	}
}
