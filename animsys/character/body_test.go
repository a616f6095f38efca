package character

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/bvh"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
	"kinelab/internal/fixture"
	"kinelab/internal/mocap"
)

// childSize lists the files of ../shared/mocap whose SOURCES.md marks a
// child-size skeleton: they must stand 0.9-1.3 m, the others 1.2-2.1 m.
var childSize = map[string]bool{"05_walk_turn_walk_back_zup_inches_30fps": true, "09_jump_xyz_119.875fps_zup_inches": true}

// TestMocapCharacters loads every real BVH file as a character and checks
// what a user sees first: it stands upright on the floor at a plausible
// height, and its skinned body covers its bones with legs apart.
func TestMocapCharacters(t *testing.T) {
	for _, path := range mocap.Need(t) {
		checkMocapCharacter(t, path)
	}
}

// checkMocapCharacter loads path (a file, or a folder of one skeleton's
// files) and checks it as TestMocapCharacters does.
func checkMocapCharacter(t *testing.T, path string) {
	t.Helper()
	name := mocap.Base(path)
	ch, err := Load([]string{path}, bvh.ReadOptions{})
	if err != nil || ch == nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	name = ch.Name
	if !ch.Figure.Human {
		t.Errorf("%s: not read as a human figure (%s)", name, strings.Join(ch.Notes, "; "))
		return
	}
	checkStanding(t, name, ch)
	checkBodyCovers(t, name, ch)
}

// A Bandai dataset-2 run (issue 38) leans 18 degrees forward as it runs
// 7.7 m past its static joint_Root: read from a folder that holds it, as
// a user drops one, it passes TestMocapCharacters' checks; it drew a bone
// and a sheet of body from its hips to that root.
func TestStretchedRunCase(t *testing.T) {
	src := mocap.NeedCase(t, "10_bandai_dataset-2_run_active_001.bvh")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	checkMocapCharacter(t, dir)
}

// checkStanding: the median over frames of the figure's extent along +Y is
// a plausible height, and its lowest joint touches the floor in some
// frame (a dancer may jump in most of them).
func checkStanding(t *testing.T, name string, ch *Character) {
	pos, _ := humanoid.ClipFrames(&ch.Skel, &ch.Clips[0], 48)
	hs, lows := make([]float32, len(pos)), make([]float32, len(pos))
	for i, fr := range pos {
		lo, hi := fr[1][1], fr[1][1]
		for _, p := range fr[1:] {
			lo, hi = min(lo, p[1]), max(hi, p[1])
		}
		hs[i], lows[i] = hi-lo, lo
	}
	h, low := median32(hs), lows[0]
	for _, l := range lows {
		low = min(low, l)
	}
	want := [2]float32{1.2, 2.1}
	if childSize[name] {
		want = [2]float32{0.9, 1.3}
	}
	t.Logf("%s: stands %.2f m, lowest joint at %.3f m", name, h, low)
	if h < want[0] || h > want[1] {
		t.Errorf("%s: stands %.2f m tall; want %.1f-%.1f m (%s)", name, h, want[0], want[1], strings.Join(ch.Notes, "; "))
	}
	if low < -0.1 || low > 0.1 {
		t.Errorf("%s: lowest joint at %.3f m at the lowest; want on the floor", name, low)
	}
}

func median32(xs []float32) float32 {
	s := append([]float32(nil), xs...)
	for i := 1; i < len(s); i++ {
		for k := i; k > 0 && s[k] < s[k-1]; k-- {
			s[k], s[k-1] = s[k-1], s[k]
		}
	}
	return s[len(s)/2]
}

// checkBodyCovers: in the bind pose, the body holds every bone of the
// figure longer than 2% of its size (the points at a quarter, half and
// three quarters of it), and not the points between its thighs, knees and
// shins, nor between each forearm and the spine.
func checkBodyCovers(t *testing.T, name string, ch *Character) {
	sk := &ch.Skel
	bind := sk.BindPose()
	b := body.Generate(ch.Figure, bind.Pos, bind.Rot)
	if b.VertexCount() == 0 {
		t.Errorf("%s: no body", name)
		return
	}
	fig := ch.Figure
	// The figure's joints from its hips down; not what hangs from its
	// head: the body shapes the head by the figure, and a head's End Site
	// may point anywhere (Rokoko's sticks out 22 cm to the left).
	in := make([]bool, sk.Len())
	for j := range in {
		in[j] = j == fig.Hips || (sk.Parents[j] >= 0 && in[sk.Parents[j]] && sk.Parents[j] != fig.Head)
	}
	lo, hi := bind.Pos[fig.Hips], bind.Pos[fig.Hips]
	for j, p := range bind.Pos {
		if in[j] {
			for k := 0; k < 3; k++ {
				lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
			}
		}
	}
	size := hi.Sub(lo).Len()
	var out []string
	bones := 0
	for j, p := range sk.Parents {
		if p < 0 || !in[p] || !in[j] || bind.Pos[j].Sub(bind.Pos[p]).Len() < 0.02*size {
			continue
		}
		bones++
		for _, f := range []float32{0.25, 0.5, 0.75} {
			at := bind.Pos[p].Add(bind.Pos[j].Sub(bind.Pos[p]).Mul(f))
			if w := b.Winding(at); w < 0.5 {
				out = append(out, fmt.Sprintf("%s-%s at %.2f (%.2f)", sk.Names[p], sk.Names[j], f, w))
				break
			}
		}
	}
	if len(out) > 0 {
		t.Errorf("%s: %d of %d bones poke out of the body (a point at a quarter, half or three quarters of them): %s", name, len(out), bones, strings.Join(out, ", "))
	}
	// Nothing but the figure is dressed: every vertex lies within 15% of
	// the figure's height of one of its bones (a torso is 10% wide, a
	// head 13% tall above its joint), so no solid joins it to a joint
	// outside it (a root on the floor beside it).
	height := hi[1] - lo[1]
	far := 0
	for v := 0; v < b.VertexCount(); v++ {
		p := mgl32.Vec3{b.Positions[3*v], b.Positions[3*v+1], b.Positions[3*v+2]}
		near := false
		for j, par := range sk.Parents {
			if par >= 0 && in[par] && segmentDist(p, bind.Pos[par], bind.Pos[j]) <= 0.15*height {
				near = true
				break
			}
		}
		if !near {
			far++
		}
	}
	if far > 0 {
		t.Errorf("%s: %d of %d vertices are further than %.2f m from every bone of the figure", name, far, b.VertexCount(), 0.15*height)
	}
	l, r := fig.Legs[humanoid.Left], fig.Legs[humanoid.Right]
	if l.Upper < 0 || r.Upper < 0 {
		t.Errorf("%s: legs without thigh and knee", name)
		return
	}
	at := func(a, b int, f float32) mgl32.Vec3 { return bind.Pos[a].Add(bind.Pos[b].Sub(bind.Pos[a]).Mul(f)) }
	for _, c := range []struct {
		what string
		p    mgl32.Vec3
	}{
		{"between the thighs", at(l.Upper, l.Mid, 0.45).Add(at(r.Upper, r.Mid, 0.45)).Mul(0.5)},
		{"between the knees", at(l.Upper, l.Mid, 0.9).Add(at(r.Upper, r.Mid, 0.9)).Mul(0.5)},
		{"between the shins", at(l.Mid, l.End, 0.5).Add(at(r.Mid, r.End, 0.5)).Mul(0.5)},
		{"between the left forearm and the spine", armGap(bind.Pos, fig, humanoid.Left)},
		{"between the right forearm and the spine", armGap(bind.Pos, fig, humanoid.Right)},
	} {
		if w := b.Winding(c.p); w > 0.5 {
			t.Errorf("%s: the point %s is inside the body (winding %.2f): the limbs are fused", name, c.what, w)
		}
	}
}

// TestConventionCharacters loads a synthetic figure in each exporter
// convention (package fixture) and checks it as the real files: it stands
// 1.2-2.1 m tall on the floor, its body covers its bones with legs apart,
// the Entity's root motion stays under its hips (a root 1 m away from the
// hips included) and its IK chains and head are found.
func TestConventionCharacters(t *testing.T) {
	dir := t.TempDir()
	for _, s := range fixture.All() {
		path := fixture.File(t, dir, s)
		name := s.String()
		ch, err := Load([]string{path}, bvh.ReadOptions{})
		if err != nil || ch == nil || !ch.Figure.Human {
			t.Errorf("%s: %v (%v)", name, err, ch.Notes)
			continue
		}
		checkStanding(t, name, ch)
		checkBodyCovers(t, name, ch)
		if ch.Head < 0 || ch.Leg.Root < 0 || ch.Arm.Root < 0 {
			t.Errorf("%s: head %d, leg %v, arm %v", name, ch.Head, ch.Leg, ch.Arm)
		}
		pos, _ := humanoid.ClipFrames(&ch.Skel, &ch.Clips[0], 12)
		for i, fr := range pos {
			if d := fr[ch.Hips].Sub(fr[0]); d[0]*d[0]+d[2]*d[2] > 1e-6 {
				t.Errorf("%s: sample %d: the root is %v off the hips' ground projection", name, i, d)
				break
			}
		}
	}
}

// segmentDist is the distance from p to the segment a-b.
func segmentDist(p, a, b mgl32.Vec3) float32 {
	d := b.Sub(a)
	t := float32(0)
	if l := d.Dot(d); l > 0 {
		t = min(1, max(0, p.Sub(a).Dot(d)/l))
	}
	return p.Sub(a.Add(d.Mul(t))).Len()
}

// A file whose skeleton differs from the first one's is skipped with the
// first joint that differs; the same names in another order too.
func TestLoadSkeletonMismatch(t *testing.T) {
	dir := t.TempDir()
	// The Neuron file shorter: of groups of one file each, the one with
	// more frames loads (largestGroup).
	neuron := fixture.Neuron()
	neuron.Frames = fixture.LAFAN1().Frames / 2
	a, b := fixture.File(t, dir, fixture.LAFAN1()), fixture.File(t, dir, neuron)
	ch, err := Load([]string{a, b}, bvh.ReadOptions{})
	if err != nil || ch == nil || len(ch.Clips) != 1 || len(ch.Skipped) != 1 {
		t.Fatalf("error %v, character %v", err, ch != nil)
	}
	// LAFAN1 lists the left leg first, the Neuron file the right one.
	if msg := ch.Skipped[0].Error(); !strings.Contains(msg, `its skeleton differs`) || !strings.Contains(msg, `joint 2 is "RightUpLeg", not "LeftUpLeg"`) {
		t.Errorf("mismatch message: %s", msg)
	}
}

// The CMU figure's T-pose row is dropped, with a note saying why, unless
// the rest frames are kept.
func TestLoadRestFrames(t *testing.T) {
	s := fixture.CMU()
	path := fixture.File(t, t.TempDir(), s)
	for _, keep := range []bool{false, true} {
		ch, err := Load([]string{path}, bvh.ReadOptions{KeepRest: keep})
		if err != nil {
			t.Fatal(err)
		}
		want, note := s.Frames, "dropped frame 0, a pose the motion never comes near"
		if keep {
			want, note = s.Frames+1, "kept (as asked) frame 0"
		}
		// The file's own note, which every message prefixes with the
		// character's name ("cmu"): not prefixed with it already.
		notes := "\n" + strings.Join(ch.Notes, "\n")
		if ch.Clips[0].Frames != want || !strings.Contains(notes, "\n"+note) || strings.Contains(notes, ch.Name+": ") {
			t.Errorf("keep %v: %d frames, want %d; notes:\n%s", keep, ch.Clips[0].Frames, want, notes)
		}
	}
}

// armGap is the point 60% of the way from the spine to the middle of
// side's forearm: outside the body when the arm hangs apart from the
// torso (a torso is 10% of the figure wide, an arm held against it would
// put this point in it or its fillet).
func armGap(pos []mgl32.Vec3, fig *humanoid.Figure, side humanoid.Side) mgl32.Vec3 {
	a := fig.Arms[side]
	fore := pos[a.Mid].Add(pos[a.End]).Mul(0.5)
	best, near := float32(-1), fore
	for i := 0; i+1 < len(fig.Spine); i++ {
		p, q := pos[fig.Spine[i]], pos[fig.Spine[i+1]]
		d := q.Sub(p)
		t := float32(0)
		if l := d.Dot(d); l > 0 {
			t = min(1, max(0, fore.Sub(p).Dot(d)/l))
		}
		c := p.Add(d.Mul(t))
		if dist := fore.Sub(c).Len(); best < 0 || dist < best {
			best, near = dist, c
		}
	}
	return near.Add(fore.Sub(near).Mul(0.6))
}

// variant is spec s renamed, with edit applied to its joints (found by
// name).
func variant(s fixture.Spec, name string, edit func(js []fixture.Joint, at func(string) int)) fixture.Spec {
	s.Name = name
	s.Joints = append([]fixture.Joint(nil), s.Joints...)
	edit(s.Joints, func(n string) int {
		for i, j := range s.Joints {
			if j.Name == n {
				return i
			}
		}
		panic("no joint " + n)
	})
	return s
}

// skinned is vertex v of mesh b posed by joint j alone (its weight there is
// at least 0.9): the joint's bind transform undone, its pose's applied.
func skinned(b *body.Mesh, v int, bind *animsys.Pose, j int, pos mgl32.Vec3, rot mgl32.Quat) mgl32.Vec3 {
	p := mgl32.Vec3{b.Positions[3*v], b.Positions[3*v+1], b.Positions[3*v+2]}
	local := mathx.QuatInvMulVec3(bind.Rot[j], p.Sub(bind.Pos[j]))
	return mathx.QuatMulVec3(rot, local).Add(pos)
}

// TestHeadUpright: a head whose End Site points along X (to its left, as
// Rokoko's) or forward is dressed standing up, not on its side: on every
// sampled frame of the walk, the head's part of the body lies above the
// head joint (its middle within 35 degrees of straight up from it).
func TestHeadUpright(t *testing.T) {
	dir := t.TempDir()
	specs := []fixture.Spec{fixture.MocapBank(),
		variant(fixture.MocapBank(), "head-end-along-x", func(js []fixture.Joint, at func(string) int) {
			js[at("Head_End")].Pos = mgl32.Vec3{0.2, 1.62, 0.02}
		}),
		variant(fixture.MocapBank(), "head-end-forward", func(js []fixture.Joint, at func(string) int) {
			js[at("Head_End")].Pos = mgl32.Vec3{0, 1.6, 0.2}
		})}
	var paths []string
	for _, s := range specs {
		paths = append(paths, fixture.File(t, dir, s))
	}
	for _, p := range mocap.Files() {
		if strings.Contains(p, "rokoko") {
			paths = append(paths, p)
		}
	}
	for _, path := range paths {
		ch, err := Load([]string{path}, bvh.ReadOptions{})
		if ch == nil || !ch.Figure.Human {
			t.Fatalf("%s: %v", path, err)
		}
		name, h := filepath.Base(path), ch.Head
		bind := ch.Skel.BindPose()
		b := body.Generate(ch.Figure, bind.Pos, bind.Rot)
		pos, rot := humanoid.ClipFrames(&ch.Skel, &ch.Clips[0], 8)
		worst := float32(1)
		for f := range pos {
			var mid mgl32.Vec3
			n := 0
			for v := 0; v < b.VertexCount(); v++ {
				for k := 0; k < 4; k++ {
					if int(b.BoneIDs[4*v+k]) == h && b.BoneWeights[4*v+k] >= 0.9 {
						mid, n = mid.Add(skinned(&b, v, &bind, h, pos[f][h], rot[f][h])), n+1
					}
				}
			}
			if n == 0 {
				t.Fatalf("%s: no vertex skinned to the head", name)
			}
			d := mid.Mul(1 / float32(n)).Sub(pos[f][h])
			worst = min(worst, d[1]/d.Len())
		}
		t.Logf("%s: the head's middle is at least %.0f degrees from straight up over it", name, acosDeg(worst))
		if worst < float32(math.Cos(35*math.Pi/180)) {
			t.Errorf("%s: the head's part of the body leans %.0f degrees from straight up over its joint: dressed on its side", name, acosDeg(worst))
		}
	}
}

func acosDeg(c float32) float64 { return math.Acos(float64(min(1, max(-1, c)))) * 180 / math.Pi }

// neckWidth is, between the shoulders (above their deltoids) and the head
// joint, the narrowest width of the body across the figure (side to side,
// from the vertices within 25% of the figure's height of the spine's
// axis), and the torso's width at its waist (the vertices skinned mostly
// to the spine), in the bind pose.
func neckWidth(ch *Character, b *body.Mesh) (neck, waist float32) {
	bind := ch.Skel.BindPose()
	fig := ch.Figure
	head, hips := bind.Pos[fig.Head], bind.Pos[fig.Hips]
	shoulder := max(bind.Pos[fig.Arms[0].Upper][1], bind.Pos[fig.Arms[1].Upper][1])
	size := head[1] - bind.Pos[fig.Legs[0].End][1]
	width := func(y float32, keep func(v int) bool) float32 {
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for v := 0; v < b.VertexCount(); v++ {
			p := mgl32.Vec3{b.Positions[3*v], b.Positions[3*v+1], b.Positions[3*v+2]}
			dx, dz := p[0]-head[0], p[2]-head[2]
			if math.Abs(float64(p[1]-y)) > 0.01*float64(size) || dx*dx+dz*dz > 0.0625*size*size || !keep(v) {
				continue
			}
			lo, hi = min(lo, dx), max(hi, dx) // the bind pose faces +Z: across is X
		}
		return hi - lo
	}
	any := func(int) bool { return true }
	torso := func(v int) bool {
		best := 0
		for k := 1; k < 4; k++ {
			if b.BoneWeights[4*v+k] > b.BoneWeights[4*v+best] {
				best = k
			}
		}
		return slices.Contains(fig.Spine, int(b.BoneIDs[4*v+best]))
	}
	neck = float32(math.Inf(1))
	for y := shoulder + 0.05*size; y < head[1]; y += 0.005 * size {
		neck = min(neck, width(y, any))
	}
	return neck, width(hips[1]+0.35*(bind.Pos[fig.Chest][1]-hips[1]), torso)
}

// TestNeckShows: a neck shows between the shoulders and the head — the
// body is narrower there than half its waist — on the 19-joint library
// skeleton, on it with the arms hanging from the neck joint (the chest at
// the neck, as a 3ds Max biped's, whose dome sank the head between the
// shoulders), on the biped, and on the real captures.
func TestNeckShows(t *testing.T) {
	dir := t.TempDir()
	armsOnNeck := variant(fixture.MocapBank(), "mocapbank-arms-on-neck", func(js []fixture.Joint, at func(string) int) {
		js[at("LeftShoulder")].Parent, js[at("RightShoulder")].Parent = at("Neck"), at("Neck")
	})
	if n := armsOnNeck.Count(); n != 19 {
		t.Fatalf("the library skeleton has %d joints, want 19", n)
	}
	paths := []string{fixture.File(t, dir, fixture.MocapBank()), fixture.File(t, dir, armsOnNeck), fixture.File(t, dir, fixture.Biped())}
	paths = append(paths, mocap.Files()...)
	for _, path := range paths {
		ch, err := Load([]string{path}, bvh.ReadOptions{})
		if ch == nil || !ch.Figure.Human {
			t.Fatalf("%s: %v", path, err)
		}
		bind := ch.Skel.BindPose()
		b := body.Generate(ch.Figure, bind.Pos, bind.Rot)
		neck, waist := neckWidth(ch, &b)
		t.Logf("%s: neck %.3f m wide, waist %.3f m (%.0f%%)", filepath.Base(path), neck, waist, 100*neck/waist)
		if !(neck < 0.5*waist) {
			t.Errorf("%s: between the shoulders and the head the body is at least %.3f m wide, %.0f%% of its waist: no neck", filepath.Base(path), neck, 100*neck/waist)
		}
	}
}

// TestStillRoot: a file's static root 4 m and more from the hips (it
// stays where it is while the figure walks away) is no part of the body:
// the figure reads it as ground, so no bone links it to the hips, and no
// part of the body reaches toward it.
func TestStillRoot(t *testing.T) {
	far := mgl32.Vec3{-4, 0, 0}
	s := fixture.Bandai()
	s.Name, s.FarRoot, s.StillRoot = "still-root", &far, true
	ch, err := Load([]string{fixture.File(t, t.TempDir(), s)}, bvh.ReadOptions{})
	if ch == nil || !ch.Figure.Human {
		t.Fatalf("%v", err)
	}
	root := -1
	for j, n := range ch.Skel.Names {
		if n == "joint_Root" {
			root = j
		}
	}
	fig := ch.Figure
	pos, _ := humanoid.ClipFrames(&ch.Skel, &ch.Clips[0], 8)
	if d := pos[0][fig.Hips].Sub(pos[0][root]); d[0]*d[0]+d[2]*d[2] < 16 {
		t.Fatalf("the root is %v from the hips; the test wants 4 m", d)
	}
	if !fig.Ground[root] || !fig.Ground[0] {
		t.Errorf("ground joints %v: want the Entity and joint_Root", fig.Ground)
	}
	for j := range ch.Skel.Parents {
		if fig.Bone(j) && (ch.Skel.Parents[j] == root || j == root) {
			t.Errorf("a bone links %s to the static root", ch.Skel.Names[j])
		}
	}
	checkBodyCovers(t, s.Name, ch)
}
