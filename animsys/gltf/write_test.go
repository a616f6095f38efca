package gltf_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/gltf"
	"kinelab/assets"
	"kinelab/internal/gltftest"
	"kinelab/internal/mocap"
)

// glbs are GLB files to add animations to: a character written Z-up
// under an Armature in centimetres (folded nodes and a baked scale), and
// robot.glb where ../shared has it.
func glbs(t *testing.T) map[string][]byte {
	dir := t.TempDir()
	path := filepath.Join(dir, "zup.glb")
	if err := gltftest.Default(path, gltftest.Options{GLB: true, ZUp: true, Scale: 0.01, Texture: true}); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out["zup"] = b
	if d := mocap.GLTFDir(); d != "" {
		if b, err := os.ReadFile(filepath.Join(d, "robot.glb")); err == nil {
			out["robot"] = b
		}
	}
	return out
}

// chunks are a GLB file's JSON document (decoded) and binary chunk.
func chunks(t *testing.T, glb []byte) (map[string]json.RawMessage, []byte) {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(glb[12:]))
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(glb[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	at := 20 + n
	if at+8 > len(glb) {
		return doc, nil
	}
	m := int(binary.LittleEndian.Uint32(glb[at:]))
	return doc, glb[at+8 : at+8+m]
}

// Animations added to a GLB file play back as they were sampled: read
// again, each new animation's curves give, at every key, the local pose
// and velocities they were sampled from (the file's own first animation
// on a moving, turning Entity: through the Entity's root motion, the Armature's folded Z-up turn and
// its baked centimetres), to float32 rounding: 1e-5 m or rad (a few
// roundings of values up to a few metres) and 1e-4 of each velocity's
// size plus 1e-4. Every byte of the binary data that was there, and every
// object but the lists added to, is as it was.
func TestAddAnimationsRoundTrip(t *testing.T) {
	for name, glb := range glbs(t) {
		a, err := gltf.Read(bytes.NewReader(glb), name+".glb", "")
		if err != nil {
			t.Fatal(err)
		}
		src := a.Anims[0]
		c := src.Clip(60)
		n := a.Skel.Len()
		times := make([]float32, c.Frames)
		for k := range times {
			times[k] = float32(k) * c.FrameTime
		}
		// The file's clip with a moving, turning Entity under it (the
		// root motion the file's top joints must then carry).
		sample := func(k int, out *animsys.Pose) {
			animsys.SampleCubicFrame(out, &c, min(k, c.Frames-2), float32(k-min(k, c.Frames-2)))
			tk := times[k]
			e := animsys.KformIdentity()
			e.Pos, e.Vel = mgl32.Vec3{0.3 * tk, 0, 0.1}, mgl32.Vec3{0.3, 0, 0}
			e.Rot, e.Ang = mgl32.QuatRotate(0.2*tk, mgl32.Vec3{0, 1, 0}), mgl32.Vec3{0, 0.2, 0}
			out.SetKform(0, e)
		}
		out, err := a.AddAnimations(glb, []gltf.Animation{{Name: "copy", Times: times, Sample: sample}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := gltf.Read(bytes.NewReader(out), name+"-out.glb", "")
		if err != nil {
			t.Fatalf("%s: read back: %v", name, err)
		}
		if back.Skel.Len() != n || len(back.Anims) != len(a.Anims)+1 || back.Anims[len(a.Anims)].Name != "copy" {
			t.Fatalf("%s: read back %d joints and %d animations, want %d and %d", name, back.Skel.Len(), len(back.Anims), n, len(a.Anims)+1)
		}
		got, want := animsys.NewPose(n), animsys.NewPose(n)
		worst := 0.0
		for k, tk := range times {
			back.Anims[len(a.Anims)].SampleCurves(&got, float64(tk))
			if k == len(times)-1 {
				back.Anims[len(a.Anims)].SampleCurvesEnd(&got)
			}
			sample(k, &want)
			// Compare worlds: the Entity's motion lands in the joints
			// below it (the file has no Entity).
			gw, ww := animsys.NewPose(n), animsys.NewPose(n)
			animsys.FK(&gw, &got, a.Skel.Parents)
			animsys.FK(&ww, &want, a.Skel.Parents)
			for j := 1; j < n; j++ {
				d := float64(gw.Pos[j].Sub(ww.Pos[j]).Len())
				q := gw.Rot[j].Mul(ww.Rot[j].Inverse())
				r := 2 * math.Asin(math.Min(1, float64(q.V.Len())))
				v := float64(gw.Vel[j].Sub(ww.Vel[j]).Len()) / (1e-4*float64(ww.Vel[j].Len()) + 1e-4)
				w := float64(gw.Ang[j].Sub(ww.Ang[j]).Len()) / (1e-4*float64(ww.Ang[j].Len()) + 1e-4)
				worst = max(worst, d/1e-5, r/1e-5, v, w)
			}
		}
		if worst > 1 {
			t.Errorf("%s: worst key %.3g times its tolerance", name, worst)
		}
		docA, binA := chunks(t, glb)
		docB, binB := chunks(t, out)
		if !bytes.Equal(binB[:len(binA)], binA) {
			t.Errorf("%s: the binary data that was there changed", name)
		}
		for k, v := range docA {
			switch k {
			case "accessors", "bufferViews", "animations", "buffers":
				var la, lb []json.RawMessage
				_ = json.Unmarshal(v, &la)
				_ = json.Unmarshal(docB[k], &lb)
				for i := range la {
					if k != "buffers" && !bytes.Equal(la[i], lb[i]) {
						t.Errorf("%s: %s[%d] changed", name, k, i)
					}
				}
			default:
				if !bytes.Equal(v, docB[k]) {
					t.Errorf("%s: %s changed", name, k)
				}
			}
		}
	}
}

// A skeleton built in code (the embedded character) and its generated
// body make a GLB file that reads back as the same skeleton, in its bind
// pose, with its mesh.
func TestSkinnedGLB(t *testing.T) {
	ch := assets.Character()
	bind := ch.Skel.BindPose()
	mesh := body.Generate(ch.Figure, bind.Pos, bind.Rot)
	glb, err := gltf.SkinnedGLB("default", &ch.Skel, &mesh, [4]float32{0.8, 0.6, 0.5, 1})
	if err != nil {
		t.Fatal(err)
	}
	a, err := gltf.Read(bytes.NewReader(glb), "default.glb", "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Skel.Len() != ch.Skel.Len() || a.Mesh == nil || len(a.Mesh.Pos) != mesh.VertexCount() {
		t.Fatalf("read back %d joints and a mesh %v, want %d joints and %d vertices", a.Skel.Len(), a.Mesh != nil, ch.Skel.Len(), mesh.VertexCount())
	}
	for j := 1; j < ch.Skel.Len(); j++ {
		if a.Skel.Names[j] != ch.Skel.Names[j] || a.Skel.Parents[j] != ch.Skel.Parents[j] || a.Skel.Offsets[j].Sub(ch.Skel.Offsets[j]).Len() > 1e-6 {
			t.Errorf("joint %d: %s from %d at %v, want %s from %d at %v", j, a.Skel.Names[j], a.Skel.Parents[j], a.Skel.Offsets[j],
				ch.Skel.Names[j], ch.Skel.Parents[j], ch.Skel.Offsets[j])
		}
	}
	if e := a.BindError(); e > 1e-5 {
		t.Errorf("rest pose times inverse bind off the identity by %g", e)
	}
}
