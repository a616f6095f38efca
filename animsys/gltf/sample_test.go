package gltf

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"kinelab/animsys"
	"kinelab/animsys/mathx/mathx64"
)

// Velocity against finite differences.
//
// h is the central difference's step (s). A central difference of a
// float32 value x errs by rounding, at most 2 eps |x| / (2h) with eps =
// 2^-24 the float32 unit roundoff (each sample is rounded once from
// float64), and by truncation, (h^2/6) |d3x| with d3x the third time
// derivative. The test takes |d3x| = |d2v| from a second difference of
// the analytic velocity v at h2 = 1e-3 s (its own rounding, 4 eps |v| /
// h2^2, is ~0.2 |v|, which times h^2/6 is ~4e-10 |v|: nothing), and
// doubles both terms for safety. Rotations differ through 2 log(q(t+h)
// q(t-h)^-1): the rounding of the two unit quaternions' components (4
// components, eps each) bounds the angle's error by 4 eps, and the
// difference of non-commuting rotations adds a truncation term h^2 |w|
// |w'| / 2 (Baker-Campbell-Hausdorff's first commutator) to the h^2/6
// |d2w| term. Scales differ through log s, whose rounding is eps
// relative. The two sample times are float32 too: the difference divides
// by their actual distance (poses.step).
//
// A global pose (animsys.FK in float32) rounds once per joint of the
// chain: each step rotates the arm (a few eps of |arm|) and adds it to the
// parent's position (eps of the partial sum, at most the path length L
// from the origin through every joint to this one), multiplies the
// rotations and the scales (eps each). So global tolerances count
// 3 + depth roundings, of L for positions.
const (
	h    = 1e-4
	h2   = 1e-3
	eps  = 1.0 / (1 << 24)
	tiny = 1e-9 // below every rounding term: a zero velocity compared with zero
)

// fdTol is the tolerance for a velocity v compared with the central
// difference of a value of magnitude mag rounded rounds times, with
// second derivative v2 and first derivative v1 of v.
func fdTol(rounds, mag, v, v1, v2 float64, rot bool) float64 {
	round := rounds * 2 * eps * mag / (2 * h)
	trunc := h * h * v2 / 6
	if rot {
		round = rounds * 4 * eps / (2 * h) * 2
		trunc += h * h * v * v1 / 2
	}
	return 2*(round+trunc) + tiny
}

// rotFD is the central-difference angular velocity (rad/s, world side)
// of rotations q0 at t-h and q1 at t+h: 2 log(q1 q0^-1) / 2h, shortest
// way (the sign of a quaternion does not matter).
func rotFD(q0, q1 mgl32.Quat, step float64) mathx64.Vec3 {
	d := mathx64.FromQuat32(q1).Mul(mathx64.FromQuat32(q0).Conj())
	if d.W < 0 {
		d = d.Scale(-1)
	}
	return mathx64.QuatLog(d.Normalize()).Scale(2 / step)
}

// worst tracks the largest error and the largest error over tolerance.
type worst struct {
	err, ratio float64
	where      string
}

func (w *worst) add(err, tol float64, where string) {
	w.err = math.Max(w.err, err)
	if r := err / tol; r > w.ratio {
		w.ratio, w.where = r, where
	}
}

func (w worst) String() string {
	return fmt.Sprintf("max error %.3g (%.2f of tolerance, at %s)", w.err, w.ratio, w.where)
}

// innerTimes are times strictly inside every key interval of anim's
// channels (the union of their key times), at least 2 h2 from any key
// so that t +- h and t +- 2 h2 stay inside.
func innerTimes(a *Anim) []float64 {
	var ks []float64
	for _, c := range a.Channels {
		for _, t := range c.Times {
			ks = append(ks, float64(t))
		}
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	var ts []float64
	for i := 0; i+1 < len(ks); i++ {
		a, b := ks[i], ks[i+1]
		if b-a < 8*h2 {
			continue
		}
		for _, u := range []float64{0.17, 0.5, 0.81} {
			ts = append(ts, a+2*h2+u*(b-a-4*h2))
		}
	}
	return ts
}

// poses samples anim at t-h, t, t+h and t +- h2 (for the velocity's
// second difference) into local and, by animsys.FK, global poses.
type poses struct {
	local, global [5]animsys.Pose // t-h, t+h, t, t-h2, t+h2
	// step is the time (s) from the first sample to the second: 2h up to
	// the float32 rounding of the two times, 1e-7 s near t = 2 s, which
	// would otherwise err by 1e-3 relative.
	step float64
}

func samplePoses(a *Anim, sk *animsys.Skeleton, t float64, p *poses) {
	for i, dt := range []float64{-h, h, 0, -h2, h2} {
		if p.local[i].Len() != sk.Len() {
			p.local[i], p.global[i] = animsys.NewPose(sk.Len()), animsys.NewPose(sk.Len())
		}
		a.Sample(&p.local[i], float32(t+dt))
		animsys.FK(&p.global[i], &p.local[i], sk.Parents)
	}
	p.step = float64(float32(t+h)) - float64(float32(t-h))
}

// checkFD compares the velocities of pose set ps (local or global) at
// joint j with central differences, recording into w[kind].
func checkFD(ps *[5]animsys.Pose, step float64, j int, rounds, mag float64, where string, w map[string]*worst) {
	m, pl, c, ml, mr := &ps[0], &ps[1], &ps[2], &ps[3], &ps[4]
	d2 := func(a, b, c mgl32.Vec3) float64 {
		return mathx64.FromVec32(a).Add(mathx64.FromVec32(b)).Sub(mathx64.FromVec32(c).Scale(2)).Len() / (h2 * h2)
	}
	d1 := func(a, b mgl32.Vec3) float64 { return mathx64.FromVec32(b).Sub(mathx64.FromVec32(a)).Len() / (2 * h2) }
	// Linear velocity.
	if mag == 0 {
		mag = math.Max(mathx64.FromVec32(m.Pos[j]).Len(), mathx64.FromVec32(pl.Pos[j]).Len())
	}
	fd := mathx64.FromVec32(pl.Pos[j]).Sub(mathx64.FromVec32(m.Pos[j])).Scale(1 / step)
	w["Vel"].add(fd.Sub(mathx64.FromVec32(c.Vel[j])).Len(), fdTol(rounds, mag, 0, 0, d2(ml.Vel[j], mr.Vel[j], c.Vel[j]), false), where)
	// Angular velocity.
	ang := mathx64.FromVec32(c.Ang[j])
	w["Ang"].add(rotFD(m.Rot[j], pl.Rot[j], step).Sub(ang).Len(),
		fdTol(rounds, 1, ang.Len(), d1(ml.Ang[j], mr.Ang[j]), d2(ml.Ang[j], mr.Ang[j], c.Ang[j]), true), where)
	// Scalar velocity, per axis through log s.
	for i := 0; i < 3; i++ {
		s0, s1 := float64(m.Scl[j][i]), float64(pl.Scl[j][i])
		if s0 <= 0 || s1 <= 0 {
			continue
		}
		fdS := (math.Log(s1) - math.Log(s0)) / step
		v2 := math.Abs(float64(ml.Svl[j][i]+mr.Svl[j][i]-2*c.Svl[j][i])) / (h2 * h2)
		w["Svl"].add(math.Abs(fdS-float64(c.Svl[j][i])), fdTol(rounds, 1, 0, 0, v2, false), where)
	}
}

// fdReport checks every animation of a against finite differences, of
// the local pose (Sample) and of the global pose (animsys.FK), and of
// the float64 sampler with a tolerance a million times tighter.
func fdReport(t *testing.T, label string, a *Asset) {
	w := map[string]*worst{}
	for _, k := range []string{"Vel", "Ang", "Svl", "FK Vel", "FK Ang", "FK Svl", "f64"} {
		w[k] = &worst{}
	}
	gw := map[string]*worst{"Vel": w["FK Vel"], "Ang": w["FK Ang"], "Svl": w["FK Svl"]}
	var p poses
	for _, an := range a.Anims {
		for _, tt := range innerTimes(an) {
			samplePoses(an, &a.Skel, tt, &p)
			for j := 0; j < a.Skel.Len(); j++ {
				where := fmt.Sprintf("%s t=%.4f %s", an.Name, tt, a.Skel.Names[j])
				depth, path := 0, 0.0
				for i := j; a.Skel.Parents[i] >= 0; i = a.Skel.Parents[i] {
					depth++
					path += mathx64.FromVec32(p.global[2].Pos[i]).Sub(mathx64.FromVec32(p.global[2].Pos[a.Skel.Parents[i]])).Len()
				}
				checkFD(&p.local, p.step, j, 1, 0, where, w)
				checkFD(&p.global, p.step, j, float64(3+depth), path+mathx64.FromVec32(p.global[2].Pos[0]).Len(), where, gw)
				fd64(an, j, tt, where, w["f64"])
			}
		}
	}
	for _, k := range []string{"Vel", "Ang", "Svl", "FK Vel", "FK Ang", "FK Svl", "f64"} {
		if w[k].ratio > 1 {
			t.Errorf("%s: %s velocity against finite difference: %v", label, k, w[k])
		} else {
			t.Logf("%s: %s %v", label, k, w[k])
		}
	}
}

// fd64 checks the float64 sampler (before rounding to float32) with
// tolerance 1e-6 (1 + |v|) plus truncation: its rounding is 1e-16 / h =
// 1e-12, so this catches any derivative formula off by more than a
// millionth.
func fd64(an *Anim, j int, t float64, where string, w *worst) {
	m, p, c := an.sampleJoint(j, t-h, false), an.sampleJoint(j, t+h, false), an.sampleJoint(j, t, false)
	ml, mr := an.sampleJoint(j, t-h2, false), an.sampleJoint(j, t+h2, false)
	sec := func(a, b, c mathx64.Vec3) float64 { return a.Add(b).Sub(c.Scale(2)).Len() / (h2 * h2) }
	tol := func(v mathx64.Vec3, v2 float64) float64 { return 1e-6*(1+v.Len()) + 2*h*h*v2/6 }
	fd := p.pos.Sub(m.pos).Scale(1 / (2 * h))
	w.add(fd.Sub(c.vel).Len(), tol(c.vel, sec(ml.vel, mr.vel, c.vel)), where+" vel")
	d := p.rot.Mul(m.rot.Conj())
	if d.W < 0 {
		d = d.Scale(-1)
	}
	fdw := mathx64.QuatLog(d).Scale(1 / h)
	w1 := mr.ang.Sub(ml.ang).Len() / (2 * h2)
	w.add(fdw.Sub(c.ang).Len(), tol(c.ang, sec(ml.ang, mr.ang, c.ang))+h*h*c.ang.Len()*w1, where+" ang")
	for i := 0; i < 3; i++ {
		if m.scl[i] > 0 && p.scl[i] > 0 {
			fds := (math.Log(p.scl[i]) - math.Log(m.scl[i])) / (2 * h)
			w.add(math.Abs(fds-c.svl[i]), tol(mathx64.Vec3{c.svl[i]}, sec(mathx64.Vec3{ml.svl[i]}, mathx64.Vec3{mr.svl[i]}, mathx64.Vec3{c.svl[i]})), where+" svl")
		}
	}
}

func TestVelocityMatchesFiniteDifference(t *testing.T) {
	for _, fx := range fixtures() {
		fdReport(t, fx.name+" ("+fx.mode+")", fx.load(t))
	}
	for _, path := range sharedFiles(t) {
		a, err := Open(path)
		if err != nil {
			t.Error(err)
			continue
		}
		fdReport(t, filepath.Base(path), a)
	}
}

// At its keys, a LINEAR or STEP channel samples exactly to its key values,
// and a CUBICSPLINE one to its key values up to the normalisation of a
// rotation; a joint with no folded node above it reads the channel as it
// is.
func TestKeysExact(t *testing.T) {
	for _, fx := range fixtures() {
		a := fx.load(t)
		pose := animsys.NewPose(a.Skel.Len())
		checked := 0
		for _, an := range a.Anims {
			for _, c := range an.Channels {
				j := c.Joint
				if j < 0 || len(an.plans[j].links) != 1 || !an.plans[j].id {
					continue // folded: composed, so rounded
				}
				for k, tk := range c.Times {
					an.Sample(&pose, tk)
					v := c.Value(k)
					var got [4]float64
					switch c.Path {
					case Translation:
						got = [4]float64{float64(pose.Pos[j][0]), float64(pose.Pos[j][1]), float64(pose.Pos[j][2])}
					case Scale:
						got = [4]float64{float64(pose.Scl[j][0]), float64(pose.Scl[j][1]), float64(pose.Scl[j][2])}
					case Rotation:
						q := pose.Rot[j]
						got = [4]float64{float64(q.V[0]), float64(q.V[1]), float64(q.V[2]), float64(q.W)}
						if got[3]*v[3]+got[0]*v[0]+got[1]*v[1]+got[2]*v[2] < 0 {
							for i := range got {
								got[i] = -got[i]
							}
						}
					}
					tol := 0.0
					if c.Interp == CubicSpline {
						tol = 1e-6
					}
					for i := range got {
						if math.Abs(got[i]-v[i]) > tol {
							t.Errorf("%s %s %s %s key %d (t=%v): %v, want %v", fx.name, an.Name, a.Skel.Names[j], c.Path, k, tk, got, v)
							break
						}
					}
					checked++
				}
			}
		}
		if checked == 0 && fx.name != "zup_root" && fx.name != "nonjoint_channels" {
			t.Errorf("%s: no key checked", fx.name)
		}
	}
}

// The skeleton's world transforms (FK of the sampled local pose, folded
// nodes included) equal the file's node world matrices, computed with
// mgl32 from the node properties and the channels' key values, at every
// key time; and the inverse bind matrices (made as the inverse rest world
// matrices) cancel the rest pose.
func TestWorldMatchesNodeMatrices(t *testing.T) {
	for _, fx := range fixtures() {
		a := fx.load(t)
		// normalised_rotations has no inverse bind matrices; matrix_nodes
		// has Head below a non-uniform scale (no shear, see below).
		if e := a.BindError(); e > 1e-5 && fx.name != "normalised_rotations" && fx.name != "matrix_nodes" {
			t.Errorf("%s: rest global x inverse bind = identity to %.3g", fx.name, e)
		}
		local, global := animsys.NewPose(a.Skel.Len()), animsys.NewPose(a.Skel.Len())
		checked := 0
		for _, an := range a.Anims {
			for k, tk := range keys {
				an.Sample(&local, tk)
				animsys.FK(&global, &local, a.Skel.Parents)
				trs := func(node int) (tr, r, s *[4]float64) {
					for _, c := range an.Channels {
						if c.Node != node {
							continue
						}
						v := c.Value(k)
						if c.Path == Rotation {
							q := q4(v).Normalize()
							v = [4]float64{q.X, q.Y, q.Z, q.W}
						}
						switch c.Path {
						case Translation:
							tr = &v
						case Rotation:
							r = &v
						case Scale:
							s = &v
						}
					}
					return
				}
				for j := 1; j < a.Skel.Len(); j++ {
					// A uniform scale above the skeleton is baked out of
					// it: its joints' worlds are the file's times S(1/u).
					u := float32(1 / a.Anims[0].units[j])
					want := fx.f.world(a.Node[j], trs).Mul4(mgl32.Scale3D(u, u, u))
					got := mgl32.Translate3D(global.Pos[j][0], global.Pos[j][1], global.Pos[j][2]).Mul4(global.Rot[j].Mat4()).
						Mul4(mgl32.Scale3D(global.Scl[j][0], global.Scl[j][1], global.Scl[j][2]))
					// Below a non-uniform scale kinelab's kineforms do not
					// shear (animsys.KformMul): the matrix world differs
					// there by design.
					sheared := false
					for i := a.Skel.Parents[j]; i > 0; i = a.Skel.Parents[i] {
						sheared = sheared || !uniform(mathx64.FromVec32(local.Scl[i]))
					}
					if sheared {
						continue
					}
					checked++
					for i := range got {
						if math.Abs(float64(got[i]-want[i])) > 2e-5*(1+math.Abs(float64(want[i]))) {
							t.Fatalf("%s %s t=%v %s: world\n%v\nwant\n%v", fx.name, an.Name, tk, a.Skel.Names[j], got, want)
						}
					}
				}
			}
		}
		if checked < len(keys) {
			t.Errorf("%s: %d world matrices checked", fx.name, checked)
		}
	}
}

// The skeleton: Entity first, parents before children, skin joints
// mapped, non-joint nodes folded, ignored channels noted.
func TestSkeletonAndQuirks(t *testing.T) {
	byName := map[string]*Asset{}
	for _, fx := range fixtures() {
		a := fx.load(t)
		byName[fx.name] = a
		checkSkeletonAndMesh(t, fx, a)
	}
	// The quirks each fixture was made for, checked on it alone.
	for _, q := range []struct {
		name  string
		check func(*testing.T, *Asset)
	}{
		{"joint_order", checkJointOrder},
		{"zup_root", checkZupRoot},
		{"nonjoint_channels", checkNonjointChannels},
		{"matrix_nodes", checkMatrixNodes},
		{"normalised_rotations", checkNormalisedRotations},
		{"sparse", checkSparse},
	} {
		if a := byName[q.name]; a != nil {
			q.check(t, a)
		}
	}
}

// checkSkeletonAndMesh checks what every fixture has: the Entity as
// joint 0, a valid skeleton, the skin's joints mapped to their nodes, and
// the 9-vertex mesh with its weights, joints and base colour.
func checkSkeletonAndMesh(t *testing.T, fx fixture, a *Asset) {
	t.Helper()
	if a.Skel.Names[0] != "Entity" || a.Skel.Parents[0] != -1 || a.Node[0] != -1 {
		t.Errorf("%s: joint 0 %s parent %d: want the Entity", fx.name, a.Skel.Names[0], a.Skel.Parents[0])
	}
	if err := a.Skel.Validate(); err != nil {
		t.Errorf("%s: %v", fx.name, err)
	}
	for k, j := range a.Joint {
		if a.Node[j] != fx.f.doc.Skins[0].Joints[k] {
			t.Errorf("%s: skin joint %d is node %d, skeleton joint %d node %d", fx.name, k, fx.f.doc.Skins[0].Joints[k], j, a.Node[j])
		}
	}
	if a.Mesh == nil || len(a.Mesh.Pos) != 9 || len(a.Mesh.Indices) != 9 {
		t.Fatalf("%s: mesh %+v", fx.name, a.Mesh)
	}
	for v, wt := range a.Mesh.Weights {
		if s := wt[0] + wt[1] + wt[2] + wt[3]; math.Abs(float64(s-1)) > 1e-6 || wt[0] != 0.6 {
			t.Errorf("%s: vertex %d weights %v: want 0.6, 0.4", fx.name, v, wt)
		}
		if j := a.Mesh.Joints[v][0]; a.Node[j] != fx.f.doc.Skins[0].Joints[v/3] {
			t.Errorf("%s: vertex %d joint %d (node %d), want skin joint %d", fx.name, v, j, a.Node[j], v/3)
		}
	}
	if a.Mesh.BaseColor != (mgl32.Vec4{0.5, 0.25, 1, 1}) {
		t.Errorf("%s: base colour %v", fx.name, a.Mesh.BaseColor)
	}
}

// checkJointOrder: joints listed children first come out parents first.
func checkJointOrder(t *testing.T, a *Asset) {
	t.Helper()
	if !slices.Equal(a.Skel.Names, []string{"Entity", "Hips", "Spine", "Head"}) {
		t.Errorf("joint_order: %v, want Entity Hips Spine Head (parents first)", a.Skel.Names)
	}
}

// checkZupRoot: the Z-up centimetre root: Hips 100 cm up its Z is 1 m up
// Y, and the centimetres are baked out: its scale is 1, the joints below
// it in metres.
func checkZupRoot(t *testing.T, a *Asset) {
	t.Helper()
	if p := a.Rest.Pos[1]; p.Sub(mgl32.Vec3{0, 1, 0}).Len() > 1e-6 || math.Abs(float64(a.Rest.Scl[1][0]-1)) > 1e-6 {
		t.Errorf("zup_root: Hips rest at %v scale %v, want (0 1 0) and 1", p, a.Rest.Scl[1])
	}
	if a.Skel.Len() > 2 && a.Skel.Offsets[2].Len() > 2 {
		t.Errorf("zup_root: %s's offset %v is not in metres", a.Skel.Names[2], a.Skel.Offsets[2])
	}
	if !strings.Contains(strings.Join(a.Notes, "\n"), "Armature") {
		t.Errorf("zup_root: notes %q do not name the folded Armature", a.Notes)
	}
}

// checkNonjointChannels: the channel on a node outside the skeleton is
// noted as ignored, those on folded nodes are kept without a joint.
func checkNonjointChannels(t *testing.T, a *Asset) {
	t.Helper()
	notes := strings.Join(a.Notes, "\n")
	if !strings.Contains(notes, "1 channel on nodes outside the skeleton") {
		t.Errorf("nonjoint_channels: the Prop channel is not noted as ignored: %q", notes)
	}
	folded := 0
	for _, c := range a.Anims[0].Channels {
		if c.Joint < 0 {
			folded++
		}
	}
	if folded != 3 || len(a.Anims[0].Channels) != 5 {
		t.Errorf("nonjoint_channels: %d channels, %d folded: want 5 and 3 (Armature T R, Offset R)", len(a.Anims[0].Channels), folded)
	}
}

// checkMatrixNodes: Spine's matrix: T(0, 0.3, 0) Rx(0.4) S(1, 1.2, 0.9),
// decomposed, its translation times the root's 1.5, baked out of the
// root; its non-uniform scale is warned of.
func checkMatrixNodes(t *testing.T, a *Asset) {
	t.Helper()
	want := mgl32.QuatRotate(0.4, mgl32.Vec3{1, 0, 0})
	if s := a.Rest.Scl[2]; s.Sub(mgl32.Vec3{1, 1.2, 0.9}).Len() > 1e-6 || !a.Rest.Rot[2].ApproxEqualThreshold(want, 1e-6) ||
		a.Rest.Pos[2].Sub(mgl32.Vec3{0, 0.45, 0}).Len() > 1e-6 || a.Rest.Scl[1].Sub(mgl32.Vec3{1, 1, 1}).Len() > 1e-6 {
		t.Errorf("matrix_nodes: Spine rest %v %v %v, want (0 0.45 0) %v (1 1.2 0.9); Hips scale %v, want 1", a.Rest.Pos[2], a.Rest.Rot[2], s, want, a.Rest.Scl[1])
	}
	if !strings.Contains(strings.Join(a.Notes, "\n"), "non-uniform rest scale on Spine") {
		t.Errorf("matrix_nodes: notes %q do not warn of Spine's non-uniform scale", a.Notes)
	}
}

// checkNormalisedRotations: without inverse bind matrices every joint's
// is the identity, and integer rotation keys read as unit quaternions.
func checkNormalisedRotations(t *testing.T, a *Asset) {
	t.Helper()
	for k, m := range a.InverseBind {
		if m != mgl32.Ident4() {
			t.Errorf("normalised_rotations: no inverse bind matrices, but joint %d's is %v", k, m)
		}
	}
	for _, c := range a.Anims[0].Channels[:2] {
		for k := range c.Times {
			if q := q4(c.Value(k)); math.Abs(q.Dot(q)-1) > 1e-6 {
				t.Errorf("normalised rotation key %d: |q|^2 = %v, want 1", k, q.Dot(q))
			}
		}
	}
}

// checkSparse: a sparse accessor reads as zeros with its values put in.
func checkSparse(t *testing.T, a *Asset) {
	t.Helper()
	c := a.Anims[0].Channels[0]
	want := []float32{0, 0, 0, 0.1, 0.2, 0.3, 0, 0, 0, 0, 0, 0, -0.3, 0.1, 0.5, 0, 0, 0}
	if !slices.Equal(c.Values, want) {
		t.Errorf("sparse: %v, want %v", c.Values, want)
	}
}

// The same document as .gltf with an embedded buffer, .gltf with an
// external .bin, and .glb samples the same.
func TestFormats(t *testing.T) {
	fx := fixtures()[1]
	dir := t.TempDir()
	var assets []*Asset
	for _, name := range []string{"emb.gltf", "ext.gltf", "bin.glb"} {
		path := fx.f.save(t, dir, name, name == "ext.gltf")
		a, err := Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		assets = append(assets, a)
	}
	if _, err := Read(strings.NewReader(readFile(t, filepath.Join(dir, "ext.gltf"))), "ext.gltf", ""); err == nil ||
		!strings.HasPrefix(err.Error(), "ext.gltf: ") || !strings.Contains(err.Error(), "ext.bin") {
		t.Errorf("external buffer without a folder: %v, want an error naming ext.bin", err)
	}
	p0, p1 := animsys.NewPose(assets[0].Skel.Len()), animsys.NewPose(assets[0].Skel.Len())
	for _, a := range assets[1:] {
		for _, tt := range []float32{0.05, 0.37, 1.1} {
			assets[0].Anims[0].Sample(&p0, tt)
			a.Anims[0].Sample(&p1, tt)
			if !slices.Equal(p0.Pos, p1.Pos) || !slices.Equal(p0.Rot, p1.Rot) || !slices.Equal(p0.Ang, p1.Ang) {
				t.Errorf("%s samples differently from the embedded .gltf at %v", a.Name, tt)
			}
		}
	}
}

func readFile(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Clip resamples at fps: ceil(Duration fps) + 1 frames spread over [0,
// Duration], each the sample at its time, and samples the curves exactly
// between frames.
func TestClip(t *testing.T) {
	a := fixtures()[1].load(t)
	an := a.Anims[0]
	c := an.Clip(30)
	step := float64(an.Duration) / float64(c.Frames-1)
	if want := int(math.Ceil(float64(an.Duration)*30)) + 1; c.Frames != want || c.Joints != a.Skel.Len() || c.FrameTime != float32(step) {
		t.Fatalf("clip %d frames of %d joints at %v s: want %d frames at %v", c.Frames, c.Joints, c.FrameTime, want, step)
	}
	if d := c.Duration() - an.Duration; math.Abs(float64(d)) > 1e-6 {
		t.Errorf("clip lasts %v s, the animation %v", c.Duration(), an.Duration)
	}
	pose, frame := animsys.NewPose(a.Skel.Len()), animsys.NewPose(a.Skel.Len())
	for _, f := range []int{0, 7, c.Frames - 1} {
		an.SampleCurves(&pose, float64(f)*step)
		c.Frame(&frame, f)
		for j := range pose.Pos {
			if pose.Pos[j] != frame.Pos[j] || pose.Rot[j] != frame.Rot[j] || pose.Scl[j] != frame.Scl[j] {
				t.Errorf("frame %d joint %d: %v %v %v, want %v %v %v", f, j, frame.Pos[j], frame.Rot[j], frame.Scl[j], pose.Pos[j], pose.Rot[j], pose.Scl[j])
			}
		}
	}
	// Between frames, SampleCubic and SampleLinear give the curves, not
	// an interpolation of the frames.
	for _, tt := range []float32{0.013, 0.31, an.Duration * 0.77} {
		an.Sample(&pose, tt)
		for _, sample := range []func(*animsys.Pose, *animsys.Clip, float32){animsys.SampleCubic, animsys.SampleLinear} {
			sample(&frame, &c, tt)
			for j := range pose.Pos {
				if pose.Kform(j) != frame.Kform(j) {
					t.Errorf("t %v joint %d: sampled %+v, the curves give %+v", tt, j, frame.Kform(j), pose.Kform(j))
				}
			}
		}
	}
}

// Outside [0, Duration] the pose holds its end, at rest; joints without
// a channel hold their rest.
func TestClampAndRest(t *testing.T) {
	a := fixtures()[1].load(t)
	an := a.Anims[1] // Spine rotation only
	p, q := animsys.NewPose(a.Skel.Len()), animsys.NewPose(a.Skel.Len())
	an.Sample(&p, 0.6)
	for j := range p.Pos {
		if a.Skel.Names[j] == "Spine" {
			continue
		}
		if p.Pos[j] != a.Rest.Pos[j] || p.Rot[j] != a.Rest.Rot[j] || p.Vel[j] != (mgl32.Vec3{}) || p.Ang[j] != (mgl32.Vec3{}) {
			t.Errorf("joint %s without a channel: %v %v moving %v %v, want its rest", a.Skel.Names[j], p.Pos[j], p.Rot[j], p.Vel[j], p.Ang[j])
		}
	}
	an.Sample(&p, an.Duration+5)
	an.Sample(&q, an.Duration)
	if !slices.Equal(p.Rot, q.Rot) || p.Ang[2] != (mgl32.Vec3{}) {
		t.Errorf("after the end: %v moving %v, want the end %v at rest", p.Rot[2], p.Ang[2], q.Rot[2])
	}
	an.Sample(&p, -1)
	an.Sample(&q, 0)
	if !slices.Equal(p.Rot, q.Rot) {
		t.Errorf("before the start: %v, want %v", p.Rot, q.Rot)
	}
}

// An animation whose channels move nothing of the skeleton (none at all,
// which glTF forbids but exporters write) loads, holds the rest pose at
// rest, and is noted.
func TestAnimationWithoutChannels(t *testing.T) {
	f := newFx(21)
	_, hips, spine, head := f.chain3()
	f.skinned([]int{hips, spine, head}, false)
	f.doc.Animations = append(f.doc.Animations, &gltf.Animation{Name: "still"})
	a := fixture{"no_channels", f, "none"}.load(t)
	if len(a.Anims) != 1 || a.Anims[0].Duration != 0 {
		t.Fatalf("%d animations, duration %v", len(a.Anims), a.Anims[0].Duration)
	}
	p := animsys.NewPose(a.Skel.Len())
	a.Anims[0].Sample(&p, 0.3)
	for j := range p.Pos {
		if p.Kform(j) != a.Rest.Kform(j) {
			t.Errorf("joint %s: %+v, want its rest %+v", a.Skel.Names[j], p.Kform(j), a.Rest.Kform(j))
		}
	}
	if !strings.Contains(strings.Join(a.Notes, "\n"), "still: no channel moves the skeleton") {
		t.Errorf("notes %q do not say the animation moves nothing", a.Notes)
	}
}
