package gltf

import (
	"math"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"kinelab/animsys"
)

// A file whose numbers would overflow float32 downstream, whose accessors
// break the spec's alignment, or which requires an extension kinelab
// does not read is refused, naming the file, the accessor and its use.
func TestRefusedValues(t *testing.T) {
	huge := float32(3e38)
	cases := []struct {
		name string
		edit func(f *fx, hips, spine int)
		want []string // every one in the error, after "name.gltf: "
	}{
		{"huge_key", func(f *fx, hips, spine int) {
			f.channel(0, spine, gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1}, [][3]float32{{0, 0.3, 0}, {0, huge, 0}})
		}, []string{`(node "Spine" translation, animation "animA")`, "element 1", "beyond ±1e+06"}},
		{"huge_tangent", func(f *fx, hips, spine int) {
			f.channel(0, hips, gltf.TRSTranslation, gltf.InterpolationCubicSpline, []float32{0, 1},
				[][3]float32{{}, {0, 1, 0}, {2e6, 0, 0}, {}, {0, 1, 0}, {}})
		}, []string{`(node "Hips" translation, animation "animA")`, "element 2", "beyond"}},
		{"scales_multiply", func(f *fx, hips, spine int) {
			// 1000 on three joints in a row: each value is fine, the
			// product 1e9 is not.
			for _, n := range []int{hips, spine, spine + 1} {
				f.channel(0, n, gltf.TRSScale, gltf.InterpolationLinear, []float32{0, 1}, [][3]float32{{1, 1, 1}, {1000, 1000, 1000}})
			}
		}, []string{`node "Head": its scale times its ancestors' reaches 1e+09`}},
		{"rest_scales_multiply", func(f *fx, hips, spine int) {
			for _, n := range []int{hips, spine, spine + 1} {
				f.doc.Nodes[n].Scale = [3]float64{1000, 1000, 1000}
			}
		}, []string{`node "Head"`, "1e+09"}},
		{"huge_rest", func(f *fx, hips, spine int) { f.doc.Nodes[spine].Translation = [3]float64{0, 3e38, 0} }, []string{"Spine", "beyond ±1e+06"}},
		{"keys_too_close", func(f *fx, hips, spine int) {
			f.channel(0, spine, gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1e-30, 1}, [][3]float32{{}, {0, 1, 0}, {}})
		}, []string{`(node "Spine" translation, animation "animA" key times)`, "key 1", "closer than the 1e-05 s"}},
		{"misaligned_offset", func(f *fx, hips, spine int) {
			f.channel(0, spine, gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1}, [][3]float32{{}, {0, 1, 0}})
			acr := f.doc.Accessors[len(f.doc.Accessors)-1]
			acr.ByteOffset = 2
			f.doc.BufferViews[*acr.BufferView].ByteLength += 4
		}, []string{`(node "Spine" translation, animation "animA")`, "byteOffset 2 is not a multiple of its component size, 4 bytes"}},
		{"misaligned_stride", func(f *fx, hips, spine int) {
			f.channel(0, spine, gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1}, [][3]float32{{}, {0, 1, 0}})
			acr := f.doc.Accessors[len(f.doc.Accessors)-1]
			f.doc.BufferViews[*acr.BufferView].ByteStride = 14
		}, []string{`(node "Spine" translation`, "byteStride 14 is not a multiple of the component size, 4 bytes"}},
		{"draco", func(f *fx, hips, spine int) {
			f.doc.ExtensionsUsed = []string{"KHR_draco_mesh_compression"}
			f.doc.ExtensionsRequired = []string{"KHR_draco_mesh_compression"}
		}, []string{"requires extension KHR_draco_mesh_compression, which kinelab does not read"}},
		{"several_required", func(f *fx, hips, spine int) {
			f.doc.ExtensionsRequired = []string{"EXT_meshopt_compression", "KHR_mesh_quantization", "KHR_texture_basisu", "EXT_made_up"}
		}, []string{"requires extensions EXT_meshopt_compression, KHR_mesh_quantization, KHR_texture_basisu, EXT_made_up, which kinelab does not read"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFx(20)
			_, hips, spine, head := f.chain3()
			f.skinned([]int{hips, spine, head}, false)
			c.edit(f, hips, spine)
			_, err := Open(f.save(t, t.TempDir(), c.name+".gltf", false))
			if err == nil {
				t.Fatal("read, want an error")
			}
			msg := err.Error()
			if !strings.Contains(msg, c.name+".gltf: ") {
				t.Errorf("%q does not begin with the file's name", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg, w)
				}
			}
		})
	}
}

// Values at the limits read, and every sample of them is finite.
func TestLimitsRead(t *testing.T) {
	f := newFx(21)
	_, hips, spine, head := f.chain3()
	f.skinned([]int{hips, spine, head}, false)
	f.channel(0, hips, gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1e-5, 1}, [][3]float32{{}, {1e6, -1e6, 1e6}, {}})
	f.channel(0, spine, gltf.TRSScale, gltf.InterpolationLinear, []float32{0, 1}, [][3]float32{{1, 1, 1}, {1000, 1000, 1000}})
	f.channel(0, head, gltf.TRSScale, gltf.InterpolationLinear, []float32{0, 1}, [][3]float32{{1, 1, 1}, {999, 999, 999}})
	a, err := Open(f.save(t, t.TempDir(), "limits.glb", false))
	if err != nil {
		t.Fatal(err)
	}
	an := a.Anims[0]
	local, world := animsys.NewPose(a.Skel.Len()), animsys.NewPose(a.Skel.Len())
	for _, tt := range []float64{0, 5e-6, 1e-5, 0.5, 1} {
		an.SampleCurves(&local, tt)
		animsys.FK(&world, &local, a.Skel.Parents)
		for _, p := range []*animsys.Pose{&local, &world} {
			for j := range p.Pos {
				for _, v := range [][3]float32{p.Pos[j], p.Vel[j], p.Ang[j], p.Scl[j], p.Svl[j]} {
					for _, x := range v {
						if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
							t.Fatalf("t %g joint %d: %v is not finite", tt, j, v)
						}
					}
				}
			}
		}
	}
}
