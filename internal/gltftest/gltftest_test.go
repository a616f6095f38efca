package gltftest

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/gltf"
	"kinelab/animsys/humanoid"
	"kinelab/assets"
)

// Tolerances of the round trip: world joint positions (m) at keys, world
// velocities (m/s) at CUBICSPLINE keys, skinned vertices (m).
const (
	posTol  = 1e-4
	velTol  = 1e-3
	skinTol = 1e-4
)

// cases are the option combinations the round trip covers: each quirk
// with each interpolation, alone and all together.
func cases() []Options {
	var out []Options
	for _, in := range []string{"STEP", "LINEAR", "CUBICSPLINE"} {
		out = append(out,
			Options{Interp: in},
			Options{Interp: in, ZUp: true},
			Options{Interp: in, Scale: 0.01},
			Options{Interp: in, ZUp: true, Scale: 0.01, FPS: 30},
			Options{Interp: in, Uneven: true},
			Options{Interp: in, Uneven: true, FPS: 24},
			Options{Interp: in, Partial: true, GLB: true},
			Options{Interp: in, Texture: true},
			Options{Interp: in, Texture: true, GLB: true},
			Options{Interp: in, ZUp: true, Scale: 0.01, Uneven: true, Partial: true, Texture: true, GLB: true, FPS: 50},
		)
	}
	return out
}

func (o Options) String() string {
	s := []string{o.Interp}
	if o.FPS > 0 {
		s = append(s, fmt.Sprintf("%gfps", o.FPS))
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{o.ZUp, "zup"}, {o.Scale != 0 && o.Scale != 1, fmt.Sprintf("scale%g", o.Scale)}, {o.Uneven, "uneven"},
		{o.Partial, "partial"}, {o.Texture, "texture"}, {o.GLB, "glb"}} {
		if f.on {
			s = append(s, f.name)
		}
	}
	return strings.Join(s, "_")
}

// write writes a character with opt into a test folder and reads it back.
func write(t *testing.T, sk *animsys.Skeleton, mesh *body.Mesh, clips []animsys.Clip, opt Options) *gltf.Asset {
	t.Helper()
	ext := ".gltf"
	if opt.GLB {
		ext = ".glb"
	}
	path := filepath.Join(t.TempDir(), opt.String()+ext)
	if err := Write(path, sk, mesh, clips, opt); err != nil {
		t.Fatal(err)
	}
	a, err := gltf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// joints maps each source joint to the reader's joint of its name (the
// reader's own Entity, joint 0, is no source joint).
func joints(t *testing.T, sk *animsys.Skeleton, a *gltf.Asset) []int {
	t.Helper()
	if a.Skel.Len() != sk.Len()+1 {
		t.Fatalf("read %d joints for %d written (and the reader's Entity)", a.Skel.Len(), sk.Len())
	}
	at := map[string]int{}
	for j := 1; j < a.Skel.Len(); j++ {
		at[a.Skel.Names[j]] = j
	}
	out := make([]int, sk.Len())
	for j, name := range sk.Names {
		r, ok := at[name]
		if !ok {
			t.Fatalf("joint %s not read", name)
		}
		out[j] = r
	}
	return out
}

// anim is the asset's animation named name.
func anim(t *testing.T, a *gltf.Asset, name string) *gltf.Anim {
	t.Helper()
	for _, an := range a.Anims {
		if an.Name == name {
			return an
		}
	}
	t.Fatalf("no animation %q", name)
	return nil
}

// keyErrors are the worst differences, over times, between the world
// joint positions (m) and velocities (m/s) of animation an and of clip c
// on skeleton sk (FK of animsys.SampleCubic), joints mapped by at.
// Velocities skip the clip's end, which both hold at rest but which
// SampleCubic's float32 frame arithmetic may place inside the last
// interval.
func keyErrors(sk *animsys.Skeleton, c *animsys.Clip, a *gltf.Asset, an *gltf.Anim, at []int, times []float32) (pos, vel float64) {
	sl, sg := animsys.NewPose(sk.Len()), animsys.NewPose(sk.Len())
	rl, rg := animsys.NewPose(a.Skel.Len()), animsys.NewPose(a.Skel.Len())
	for _, t := range times {
		animsys.SampleCubic(&sl, c, t)
		animsys.FK(&sg, &sl, sk.Parents)
		an.Sample(&rl, t)
		animsys.FK(&rg, &rl, a.Skel.Parents)
		for j, r := range at {
			pos = math.Max(pos, float64(sg.Pos[j].Sub(rg.Pos[r]).Len()))
			if t < times[len(times)-1] {
				vel = math.Max(vel, float64(sg.Vel[j].Sub(rg.Vel[r]).Len()))
			}
		}
	}
	return pos, vel
}

// matrix is a global kineform's T R S matrix.
func matrix(p *animsys.Pose, j int) mgl32.Mat4 {
	s := p.Scl[j]
	return mgl32.Translate3D(p.Pos[j][0], p.Pos[j][1], p.Pos[j][2]).Mul4(p.Rot[j].Mat4()).Mul4(mgl32.Scale3D(s[0], s[1], s[2]))
}

// skinError is the worst distance (m) between every 7th vertex of mesh
// skinned on clip c at time t and the read mesh skinned by the read
// animation an at t with the read inverse binds: the whole skin path
// (joint order, weights, inverse binds, the Armature's scale).
func skinError(sk *animsys.Skeleton, mesh *body.Mesh, c *animsys.Clip, a *gltf.Asset, an *gltf.Anim, t float32) float64 {
	sl, sg := animsys.NewPose(sk.Len()), animsys.NewPose(sk.Len())
	rl, rg := animsys.NewPose(a.Skel.Len()), animsys.NewPose(a.Skel.Len())
	animsys.SampleCubic(&sl, c, t)
	animsys.FK(&sg, &sl, sk.Parents)
	an.Sample(&rl, t)
	animsys.FK(&rg, &rl, a.Skel.Parents)
	skinJoint := make([]int, a.Skel.Len()) // skeleton joint -> skin joint
	for k, j := range a.Joint {
		skinJoint[j] = k
	}
	worst := 0.0
	for v := 0; v < mesh.VertexCount(); v += 7 {
		p := mgl32.Vec3{mesh.Positions[3*v], mesh.Positions[3*v+1], mesh.Positions[3*v+2]}
		var want, got mgl32.Vec3
		for i := 0; i < 4; i++ {
			j, wt := int(mesh.BoneIDs[4*v+i]), mesh.BoneWeights[4*v+i]
			want = want.Add(matrix(&sg, j).Mul4(mesh.BindInv[j]).Mul4x1(p.Vec4(1)).Vec3().Mul(wt))
			r, rw := int(a.Mesh.Joints[v][i]), a.Mesh.Weights[v][i]
			got = got.Add(matrix(&rg, r).Mul4(a.InverseBind[skinJoint[r]]).Mul4x1(a.Mesh.Pos[v].Vec4(1)).Vec3().Mul(rw))
		}
		worst = math.Max(worst, float64(want.Sub(got).Len()))
	}
	return worst
}

// checkMesh checks the read mesh against the written one: as many
// vertices and triangles, inverse binds that cancel the bind pose, the
// same skinned vertices at time t of clip c, and the texture if opt
// asks for one. It returns the skinning and bind errors.
func checkMesh(t *testing.T, sk *animsys.Skeleton, mesh *body.Mesh, c *animsys.Clip, a *gltf.Asset, opt Options, at float32) (skin, bind float64) {
	t.Helper()
	m := a.Mesh
	if m == nil {
		t.Fatal("no mesh read")
	}
	if len(m.Pos) != mesh.VertexCount() || len(m.Indices) != len(mesh.Indices) {
		t.Fatalf("read %d vertices, %d indices; wrote %d, %d", len(m.Pos), len(m.Indices), mesh.VertexCount(), len(mesh.Indices))
	}
	if bind = a.BindError(); bind > BindTol {
		t.Errorf("inverse binds off the bind pose by %.3g", bind)
	}
	if skin = skinError(sk, mesh, c, a, anim(t, a, c.Name), at); skin > skinTol {
		t.Errorf("skinned vertices off by %.3g m at %g s", skin, at)
	}
	if m.BaseColor != (mgl32.Vec4{float32(BaseColor[0]), float32(BaseColor[1]), float32(BaseColor[2]), float32(BaseColor[3])}) {
		t.Errorf("base colour %v, wrote %v", m.BaseColor, BaseColor)
	}
	if !opt.Texture {
		if m.Image != nil {
			t.Error("an image read where none was written")
		}
		return skin, bind
	}
	if m.Image == nil || m.ImageMime != "image/png" {
		t.Fatalf("texture: image %d bytes of %q", len(m.Image), m.ImageMime)
	}
	img, err := png.Decode(bytes.NewReader(m.Image))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 64 {
		t.Errorf("texture %v, want 64x64", b)
	}
	if r, _, _, _ := img.At(0, 0).RGBA(); r>>8 != uint32(TopColor.R) {
		t.Errorf("texture top red %d, want %d", r>>8, TopColor.R)
	}
	if _, _, b, _ := img.At(0, 63).RGBA(); b>>8 != uint32(shade(BottomColor.B)) && b>>8 != uint32(BottomColor.B) {
		t.Errorf("texture bottom blue %d, want %d", b>>8, BottomColor.B)
	}
	lo, hi := float32(1), float32(0)
	for _, uv := range m.UV {
		if uv[0] < 0 || uv[0] > 1 || uv[1] < 0 || uv[1] > 1 {
			t.Fatalf("UV %v outside [0, 1]", uv)
		}
		lo, hi = min(lo, uv[1]), max(hi, uv[1])
	}
	if len(m.UV) != len(m.Pos) || lo > 0.01 || hi < 0.99 {
		t.Errorf("texture: %d UVs for %d vertices, v from %g to %g; want 0 to 1", len(m.UV), len(m.Pos), lo, hi)
	}
	return skin, bind
}

// TestRoundTrip writes the default character with every case's options,
// reads it with gltf.Open, and checks that at the keys every channel has
// (Keys) the world joint positions are the clip's (1e-4 m), and with
// CUBICSPLINE also the world velocities (1e-3 m/s); that the mesh reads
// back whole with inverse binds that cancel the bind pose and skin it as
// the source skins it; that ZUp and Scale fold into the Entity; and that
// Texture gives an image and UVs.
func TestRoundTrip(t *testing.T) {
	sk, mesh, clips := DefaultCharacter()
	var worstPos, worstVel, worstSkin, worstBind float64
	for _, opt := range cases() {
		t.Run(opt.String(), func(t *testing.T) {
			a := write(t, &sk, mesh, clips, opt)
			at := joints(t, &sk, a)
			if len(a.Anims) != len(clips) {
				t.Fatalf("%d animations read, %d written", len(a.Anims), len(clips))
			}
			for i := range clips {
				c := &clips[i]
				an := anim(t, a, c.Name)
				keys := Keys(c, opt)
				if d := an.Duration - keys[len(keys)-1]; d != 0 {
					t.Errorf("%s: duration %g s, last key %g s", c.Name, an.Duration, keys[len(keys)-1])
				}
				pos, vel := keyErrors(&sk, c, a, an, at, keys)
				worstPos = math.Max(worstPos, pos)
				if pos > posTol {
					t.Errorf("%s: world positions off by %.3g m at keys", c.Name, pos)
				}
				if opt.Interp == "CUBICSPLINE" {
					worstVel = math.Max(worstVel, vel)
					if vel > velTol {
						t.Errorf("%s: world velocities off by %.3g m/s at keys", c.Name, vel)
					}
				}
			}
			keys := Keys(&clips[0], opt)
			skin, bind := checkMesh(t, &sk, mesh, &clips[0], a, opt, keys[len(keys)/2])
			worstSkin, worstBind = math.Max(worstSkin, skin), math.Max(worstBind, bind)
			folded := false
			for _, n := range a.Notes {
				folded = folded || strings.Contains(n, "Armature")
			}
			if arm := opt.ZUp || (opt.Scale != 0 && opt.Scale != 1); folded != arm {
				t.Errorf("Armature folded: %v, want %v (notes %q)", folded, arm, a.Notes)
			}
			// The reader bakes the Armature's scale out: the skeleton
			// is in metres (every joint's rest offset a source joint's
			// rest, in m), its bind pose in the world the source's.
			if s := a.Rest.Scl[at[0]][0]; math.Abs(float64(s-1)) > 1e-6 {
				t.Errorf("Entity's rest scale %g, want 1 (the Armature's %g baked out)", s, opt.Scale)
			}
			got, want := a.Skel.BindPose(), sk.BindPose()
			for j := 1; j < sk.Len(); j++ {
				off := a.Skel.Offsets[at[j]].Len()
				if d := got.Pos[at[j]].Sub(want.Pos[j]).Len(); d > 1e-4 || off > 2 {
					t.Errorf("%s: bind %v, want %v (m); rest offset %v", sk.Names[j], got.Pos[at[j]], want.Pos[j], a.Skel.Offsets[at[j]])
					break
				}
			}
		})
	}
	t.Logf("worst: position %.3g m, velocity %.3g m/s (CUBICSPLINE), skinning %.3g m, bind %.3g", worstPos, worstVel, worstSkin, worstBind)
}

// TestChannels checks which channels each mode writes: every joint a
// rotation channel and the root a translation without Partial; with it no
// channel on the joints the clips never move (the default's Entity
// rotation, shoulders and hands); the scale channel only on Spine2 (the
// breathing chest); and Uneven's per-channel key sets.
func TestChannels(t *testing.T) {
	sk, _, clips := DefaultCharacter()
	clips = clips[:1] // walk
	count := func(a *gltf.Asset) (map[string]int, map[int]bool) {
		n, times := map[string]int{}, map[int]bool{}
		for _, c := range a.Anims[0].Channels {
			n[c.Path.String()]++
			times[len(c.Times)] = true
			if c.Path == gltf.Rotation && a.Skel.Names[c.Joint] == "LeftShoulder" {
				n["LeftShoulder"]++
			}
			if c.Path == gltf.Scale && a.Skel.Names[c.Joint] != "Spine2" {
				n["other scale"]++
			}
		}
		return n, times
	}
	full, times := count(write(t, &sk, nil, clips, Options{Interp: "LINEAR"}))
	if full["rotation"] != sk.Len() || full["translation"] < 1 || full["scale"] != 1 || full["other scale"] != 0 || len(times) != 1 {
		t.Errorf("full: %v channels, %d key counts", full, len(times))
	}
	part, _ := count(write(t, &sk, nil, clips, Options{Interp: "LINEAR", Partial: true}))
	if part["rotation"] != sk.Len()-5 || part["LeftShoulder"] != 0 || part["scale"] != 1 {
		t.Errorf("partial: %v channels; want rotations on all but 5 joints", part)
	}
	_, times = count(write(t, &sk, nil, clips, Options{Interp: "LINEAR", Uneven: true}))
	if len(times) < 5 {
		t.Errorf("uneven: only %d distinct key counts over the channels", len(times))
	}
}

// TestNoMesh writes a skin without a mesh: the inverse binds are computed
// from the bind pose, and must still cancel it.
func TestNoMesh(t *testing.T) {
	sk, _, clips := DefaultCharacter()
	opt := Options{Interp: "CUBICSPLINE", ZUp: true, Scale: 0.01}
	a := write(t, &sk, nil, clips[:1], opt)
	if a.Mesh != nil || len(a.Joint) != sk.Len() {
		t.Fatalf("mesh %v, %d skin joints; want none, %d", a.Mesh != nil, len(a.Joint), sk.Len())
	}
	if e := a.BindError(); e > BindTol {
		t.Errorf("inverse binds off the bind pose by %.3g", e)
	}
	pos, vel := keyErrors(&sk, &clips[0], a, a.Anims[0], joints(t, &sk, a), Keys(&clips[0], opt))
	if pos > posTol || vel > velTol {
		t.Errorf("world positions off by %.3g m, velocities by %.3g m/s", pos, vel)
	}
}

// TestBindPose writes the default skeleton with an A-pose bind (sk.Bind,
// made as the character package binds a loaded figure) and a body bound
// to it: the nodes' rest is that pose (the read rest pose's world is
// sk.BindPose), and everything round-trips as with the rest T-pose.
func TestBindPose(t *testing.T) {
	sk := assets.Humanoid()
	clips := []animsys.Clip{assets.Clips()[1]}
	pos, rot := humanoid.ClipFrames(&sk, &clips[0], 48)
	fig, err := humanoid.Read(sk.Parents, sk.Names, pos)
	if err != nil {
		t.Fatal(err)
	}
	i := fig.BindFrame(pos)
	bp, br := fig.BindPose(sk.Parents, pos[i], rot[i])
	global, local := animsys.NewPose(sk.Len()), animsys.NewPose(sk.Len())
	copy(global.Pos, bp)
	copy(global.Rot, br)
	animsys.BK(&local, &global, sk.Parents)
	sk.Bind = &local
	bind := sk.BindPose()
	mesh := body.GenerateCell(&fig, bind.Pos, bind.Rot, body.CellCrowd)
	opt := Options{Interp: "CUBICSPLINE", ZUp: true, Scale: 0.01, Texture: true}
	a := write(t, &sk, &mesh, clips, opt)
	at := joints(t, &sk, a)
	rest := animsys.NewPose(a.Skel.Len())
	animsys.FKStatic(&rest, &a.Rest, a.Skel.Parents)
	worst := 0.0
	for j, r := range at {
		worst = math.Max(worst, float64(rest.Pos[r].Sub(bind.Pos[j]).Len()))
	}
	if worst > posTol {
		t.Errorf("read rest pose off the bind pose by %.3g m", worst)
	}
	keys := Keys(&clips[0], opt)
	p, v := keyErrors(&sk, &clips[0], a, a.Anims[0], at, keys)
	if p > posTol || v > velTol {
		t.Errorf("world positions off by %.3g m, velocities by %.3g m/s", p, v)
	}
	checkMesh(t, &sk, &mesh, &clips[0], a, opt, keys[len(keys)/3])
}

// TestChecksFail shows that the round trip's checks catch what they are
// for: another clip's poses, LINEAR's velocities, times off the keys, a
// wrong inverse bind; and that Write refuses a mesh bound to another pose.
func TestChecksFail(t *testing.T) {
	sk, mesh, clips := DefaultCharacter()
	lin := Options{Interp: "LINEAR"}
	a := write(t, &sk, mesh, clips, lin)
	at := joints(t, &sk, a)
	walk, run := &clips[0], &clips[1]
	keys := Keys(walk, lin)
	if p, _ := keyErrors(&sk, walk, a, anim(t, a, run.Name), at, keys); p <= posTol {
		t.Errorf("run's file against walk's clip: positions off by only %.3g m", p)
	}
	if _, v := keyErrors(&sk, walk, a, anim(t, a, walk.Name), at, keys); v <= velTol {
		t.Errorf("LINEAR velocities against the clip's: off by only %.3g m/s", v)
	}
	mid := make([]float32, len(keys)-1)
	for i := range mid {
		mid[i] = (keys[i] + keys[i+1]) / 2
	}
	step := write(t, &sk, nil, clips[:1], Options{Interp: "STEP"})
	if p, _ := keyErrors(&sk, walk, step, step.Anims[0], at, mid); p <= posTol {
		t.Errorf("STEP between keys: positions off by only %.3g m", p)
	}
	a.InverseBind[3][13] += 0.01
	if e := skinError(&sk, mesh, walk, a, anim(t, a, walk.Name), keys[5]); e <= skinTol {
		t.Errorf("a moved inverse bind: skinning off by only %.3g m", e)
	}
	if e := a.BindError(); e <= BindTol {
		t.Errorf("a moved inverse bind: bind error only %.3g", e)
	}
	bad := *mesh
	bad.BindInv = append([]mgl32.Mat4(nil), mesh.BindInv...)
	bad.BindInv[5] = bad.BindInv[5].Mul4(mgl32.Translate3D(0, 0.01, 0))
	if err := Write(filepath.Join(t.TempDir(), "bad.gltf"), &sk, &bad, clips, lin); err == nil {
		t.Error("Write took a mesh whose inverse binds miss the bind pose")
	}
}

// TestOptionsRefused checks Write's refusals: an unknown interpolation,
// a negative scale, clips of another skeleton.
func TestOptionsRefused(t *testing.T) {
	sk, _, clips := DefaultCharacter()
	dir := t.TempDir()
	for _, opt := range []Options{{Interp: "BEZIER"}, {Scale: -1}, {Scale: float32(math.NaN())}} {
		if err := Write(filepath.Join(dir, "x.gltf"), &sk, nil, clips, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	small := animsys.NewClip("small", 3, 2, 0.1)
	if err := Write(filepath.Join(dir, "x.gltf"), &sk, nil, []animsys.Clip{small}, Options{}); err == nil {
		t.Error("a clip of 2 joints for 23: no error")
	}
}
