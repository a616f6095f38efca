package body

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/humanoid"
)

// generate dresses a skeleton (parents, names) in the pose pos, rot,
// read as a figure from that pose alone, as the tests' skeletons have no
// clip.
func generate(parents []int, pos []mgl32.Vec3, rot []mgl32.Quat, names []string) Mesh {
	return generateCell(parents, pos, rot, names, CellDefault)
}

func generateCell(parents []int, pos []mgl32.Vec3, rot []mgl32.Quat, names []string, cell float32) Mesh {
	f, err := humanoid.Read(parents, names, [][]mgl32.Vec3{pos})
	if err != nil {
		return Mesh{}
	}
	return GenerateCell(&f, pos, rot, cell)
}

// restGlobals is the skeleton's rest pose in world space.
func restGlobals(s animsys.Skeleton) ([]mgl32.Vec3, []mgl32.Quat) {
	rest := s.RestPose()
	return rest.Pos, rest.Rot
}

// skeleton builds a Skeleton from (name, parent, offset) rows.
type joint struct {
	name   string
	parent int
	offset mgl32.Vec3
}

func skeleton(rows []joint, unit float32) animsys.Skeleton {
	var s animsys.Skeleton
	for _, r := range rows {
		s.Names = append(s.Names, r.name)
		s.Parents = append(s.Parents, r.parent)
		s.Offsets = append(s.Offsets, r.offset.Mul(unit))
	}
	return s
}

// mirror appends the rows of a left limb again as the right one: names
// with Left/L swapped, x negated, parents shifted (those before first kept).
func mirror(rows []joint, first int, rename func(string) string) []joint {
	n := len(rows)
	out := rows
	for _, r := range rows[first:] {
		p := r.parent
		if p >= first {
			p += n - first
		}
		out = append(out, joint{rename(r.name), p, mgl32.Vec3{-r.offset[0], r.offset[1], r.offset[2]}})
	}
	return out
}

func leftToRight(s string) string {
	for _, pre := range []string{"Left", "L"} {
		if len(s) >= len(pre) && s[:len(pre)] == pre {
			return "Right" + s[len(pre):]
		}
	}
	return "Right" + s
}

// cmuLike is a 38-joint skeleton laid out like the CMU BVH files, in
// inches: root at the pelvis (feet below 0), zero-length hip joints, a
// two-joint neck, finger and thumb chains and End-Site leaves.
func cmuLike() animsys.Skeleton {
	rows := []joint{{"Hips", -1, mgl32.Vec3{}}, {"LowerBack", 0, mgl32.Vec3{0, .02, 0}},
		{"Spine", 1, mgl32.Vec3{0, .12, 0}}, {"Spine1", 2, mgl32.Vec3{0, .12, 0}},
		{"Neck", 3, mgl32.Vec3{0, .1, 0}}, {"Neck1", 4, mgl32.Vec3{0, .08, .01}},
		{"Head", 5, mgl32.Vec3{0, .08, 0}}, {"Head_End", 6, mgl32.Vec3{0, .15, 0}}}
	legs := len(rows)
	rows = append(rows, []joint{{"LHipJoint", 0, mgl32.Vec3{}}, {"LeftUpLeg", legs, mgl32.Vec3{.09, -.06, .03}},
		{"LeftLeg", legs + 1, mgl32.Vec3{0, -.42, 0}}, {"LeftFoot", legs + 2, mgl32.Vec3{0, -.41, -.02}},
		{"LeftToeBase", legs + 3, mgl32.Vec3{0, -.05, .12}}, {"LeftToe_End", legs + 4, mgl32.Vec3{0, 0, .05}}}...)
	rows = mirror(rows, legs, leftToRight)
	arms := len(rows)
	rows = append(rows, []joint{{"LeftShoulder", 3, mgl32.Vec3{.02, .08, 0}}, {"LeftArm", arms, mgl32.Vec3{.16, 0, 0}},
		{"LeftForeArm", arms + 1, mgl32.Vec3{.28, 0, 0}}, {"LeftHand", arms + 2, mgl32.Vec3{.25, 0, 0}},
		{"LeftFingerBase", arms + 3, mgl32.Vec3{.03, 0, 0}}, {"LeftHandIndex1", arms + 4, mgl32.Vec3{.03, 0, 0}},
		{"LeftHandIndex1_End", arms + 5, mgl32.Vec3{.03, 0, 0}}, {"LThumb", arms + 3, mgl32.Vec3{.02, 0, .02}},
		{"LThumb_End", arms + 7, mgl32.Vec3{.03, 0, .03}}}...)
	rows = mirror(rows, arms, leftToRight)
	return skeleton(rows, 39.37)
}

// mixamoLike is a 65-joint skeleton laid out like Mixamo's, in
// centimetres, standing on y = 0 in an A-pose, with four-joint fingers.
func mixamoLike() animsys.Skeleton {
	rows := []joint{{"mixamorig:Hips", -1, mgl32.Vec3{0, 1.0, 0}}, {"mixamorig:Spine", 0, mgl32.Vec3{0, .1, 0}},
		{"mixamorig:Spine1", 1, mgl32.Vec3{0, .12, 0}}, {"mixamorig:Spine2", 2, mgl32.Vec3{0, .13, 0}},
		{"mixamorig:Neck", 3, mgl32.Vec3{0, .15, 0}}, {"mixamorig:Head", 4, mgl32.Vec3{0, .1, .02}},
		{"mixamorig:HeadTop_End", 5, mgl32.Vec3{0, .18, .02}}}
	arms := len(rows)
	s, c := float32(math.Sin(math.Pi/4)), float32(math.Cos(math.Pi/4))
	down := func(l float32) mgl32.Vec3 { return mgl32.Vec3{l * c, -l * s, 0} }
	rows = append(rows, []joint{{"mixamorig:LeftShoulder", 3, mgl32.Vec3{.05, .11, 0}},
		{"mixamorig:LeftArm", arms, mgl32.Vec3{.12, 0, 0}}, {"mixamorig:LeftForeArm", arms + 1, down(.27)},
		{"mixamorig:LeftHand", arms + 2, down(.26)}}...)
	for f, name := range []string{"Thumb", "Index", "Middle", "Ring", "Pinky"} {
		z := float32(f-2) * -.02
		base := mgl32.Vec3{.025 * c, -.025 * s, z}
		if f == 0 {
			base = mgl32.Vec3{.01, -.02, .03}
		}
		parent := arms + 3
		for k := 1; k <= 4; k++ {
			off := down(.03)
			if k == 1 {
				off = base
			}
			rows = append(rows, joint{"mixamorig:LeftHand" + name + string(rune('0'+k)), parent, off})
			parent = len(rows) - 1
		}
	}
	rename := func(n string) string { return "mixamorig:Right" + n[len("mixamorig:Left"):] }
	rows = mirror(rows, arms, rename)
	legs := len(rows)
	rows = append(rows, []joint{{"mixamorig:LeftUpLeg", 0, mgl32.Vec3{.09, -.07, 0}},
		{"mixamorig:LeftLeg", legs, mgl32.Vec3{0, -.44, 0}}, {"mixamorig:LeftFoot", legs + 1, mgl32.Vec3{0, -.42, 0}},
		{"mixamorig:LeftToeBase", legs + 2, mgl32.Vec3{0, -.06, .12}}, {"mixamorig:LeftToe_End", legs + 3, mgl32.Vec3{0, 0, .07}}}...)
	rows = mirror(rows, legs, rename)
	return skeleton(rows, 100)
}

// quadruped is a dog-like skeleton: a level spine, four legs, a neck and
// head forward and a tail behind; nothing is named.
func quadruped() animsys.Skeleton {
	rows := []joint{{"", -1, mgl32.Vec3{0, .55, 0}}, {"", 0, mgl32.Vec3{0, .02, .2}}, {"", 1, mgl32.Vec3{0, .02, .2}},
		{"", 2, mgl32.Vec3{0, .12, .1}}, {"", 3, mgl32.Vec3{0, .1, .08}}, {"", 4, mgl32.Vec3{0, 0, .15}}}
	for _, hip := range []struct {
		parent int
		x      float32
	}{{0, .08}, {0, -.08}, {2, .08}, {2, -.08}} {
		p := len(rows)
		rows = append(rows, joint{"", hip.parent, mgl32.Vec3{hip.x, -.05, 0}}, joint{"", p, mgl32.Vec3{0, -.22, 0}},
			joint{"", p + 1, mgl32.Vec3{0, -.22, 0}}, joint{"", p + 2, mgl32.Vec3{0, -.04, .05}})
	}
	p := len(rows)
	rows = append(rows, joint{"", 0, mgl32.Vec3{0, .02, -.08}}, joint{"", p, mgl32.Vec3{0, .05, -.15}}, joint{"", p + 1, mgl32.Vec3{0, .04, -.15}})
	return skeleton(rows, 1)
}

// chain is 40 joints lying on the floor in a gentle curve, like a rope.
func chain() animsys.Skeleton {
	rows := []joint{{"", -1, mgl32.Vec3{}}}
	for i := 1; i < 40; i++ {
		a := float64(i) * 0.1
		rows = append(rows, joint{"", i - 1, mgl32.Vec3{float32(0.05 * math.Cos(a)), 0, float32(0.05 * math.Sin(a))}})
	}
	return skeleton(rows, 1)
}

// zeroBones is the bench skeleton with zero-length bones added: leaves at
// their parent (a twist joint, a head End Site), and a zero-length bone in
// the middle of a chain that then goes on.
func zeroBones() animsys.Skeleton {
	s := animsys.BenchSkeleton()
	add := func(name string, parent int, off mgl32.Vec3) {
		s.Names = append(s.Names, name)
		s.Parents = append(s.Parents, parent)
		s.Offsets = append(s.Offsets, off)
	}
	add("LeftArmTwist", 16, mgl32.Vec3{})
	add("Head_End", 14, mgl32.Vec3{})
	add("LeftHandRoll", 18, mgl32.Vec3{})
	add("LeftHandIndex1", 25, mgl32.Vec3{0.08, 0, 0})
	add("HipsDup", 1, mgl32.Vec3{})
	return s
}

// checkBodyMesh checks every property a body must have: its sizes,
// vertices and triangles.
func checkBodyMesh(t *testing.T, name string, s animsys.Skeleton, b *Mesh) {
	t.Helper()
	pos, rot := restGlobals(s)
	n := s.Len()
	nv, nt := b.VertexCount(), b.TriangleCount()
	size := jointsSize(pos)
	t.Logf("%s: %d joints, %d vertices, %d triangles", name, n, nv, nt)
	if len(b.BindInv) != n {
		t.Fatalf("%s: %d inverse bind matrices for %d joints", name, len(b.BindInv), n)
	}
	if nv < 1000 || nv > 65535 || nt > 2*nv+100 || nt < nv {
		t.Fatalf("%s: %d vertices and %d triangles; want 1000..65535 vertices, about twice as many triangles", name, nv, nt)
	}
	if len(b.Positions) != 3*nv || len(b.Normals) != 3*nv || len(b.BoneIDs) != 4*nv || len(b.BoneWeights) != 4*nv || len(b.Indices) != 3*nt {
		t.Fatalf("%s: attribute lengths disagree", name)
	}
	checkBodyVertices(t, name, b, pos, rot, size)
	checkBodyTriangles(t, name, b)
}

// jointsSize is the diagonal of the joints' bounding box.
func jointsSize(pos []mgl32.Vec3) float32 {
	lo, hi := pos[0], pos[0]
	for _, p := range pos {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = min(lo[a], p[a]), max(hi[a], p[a])
		}
	}
	return hi.Sub(lo).Len()
}

// bodyVertex is vertex i's position.
func bodyVertex(b *Mesh, i int) mgl32.Vec3 {
	return mgl32.Vec3{b.Positions[3*i], b.Positions[3*i+1], b.Positions[3*i+2]}
}

// bodyNormal is vertex i's normal.
func bodyNormal(b *Mesh, i int) mgl32.Vec3 {
	return mgl32.Vec3{b.Normals[3*i], b.Normals[3*i+1], b.Normals[3*i+2]}
}

// checkBodyVertices checks that every vertex is finite with a unit
// normal and valid influences, and that skinned by the rest pose (joints
// at pos, rot) it stays where it is, within 1e-5 of size.
func checkBodyVertices(t *testing.T, name string, b *Mesh, pos []mgl32.Vec3, rot []mgl32.Quat, size float32) {
	t.Helper()
	var bad int
	for v := 0; v < b.VertexCount(); v++ {
		p := bodyVertex(b, v)
		nrm := bodyNormal(b, v)
		if !finiteVec(p) || math.Abs(float64(nrm.Len()-1)) > 1e-3 {
			t.Fatalf("%s: vertex %d at %v has normal %v (length %v)", name, v, p, nrm, nrm.Len())
		}
		skinned := skinAtRest(t, name, b, v, pos, rot)
		if d := skinned.Vec3().Sub(p).Len(); d > 1e-5*size {
			bad++
			if bad < 5 {
				t.Errorf("%s: vertex %d skinned at rest lands %v from its bind position", name, v, d)
			}
		}
	}
}

// skinAtRest is vertex v skinned by the rest pose (joints at pos, rot),
// after checking its four influences: joints that exist, weights in
// [0, 1] summing to 1, at least one used.
func skinAtRest(t *testing.T, name string, b *Mesh, v int, pos []mgl32.Vec3, rot []mgl32.Quat) mgl32.Vec4 {
	t.Helper()
	p := bodyVertex(b, v)
	sum, used := float32(0), 0
	var skinned mgl32.Vec4
	for k := 0; k < 4; k++ {
		w, id := b.BoneWeights[4*v+k], b.BoneIDs[4*v+k]
		if w < 0 || w > 1 || id < 0 || int(id) >= len(pos) || id != float32(int(id)) {
			t.Fatalf("%s: vertex %d influence %d: joint %v weight %v", name, v, k, id, w)
		}
		if w > 0 {
			used++
		}
		sum += w
		j := int(id)
		rest := mgl32.Translate3D(pos[j][0], pos[j][1], pos[j][2]).Mul4(rot[j].Mat4())
		skinned = skinned.Add(rest.Mul4(b.BindInv[j]).Mul4x1(p.Vec4(1)).Mul(w))
	}
	if math.Abs(float64(sum-1)) > 1e-5 || used == 0 {
		t.Fatalf("%s: vertex %d weights sum to %v over %d joints", name, v, sum, used)
	}
	return skinned
}

// checkBodyTriangles checks the triangles: no repeated or out-of-range
// corners, no slivers, wound counter-clockwise from outside (their
// normal agrees with the vertices'), and closed: every directed edge has
// its twin.
func checkBodyTriangles(t *testing.T, name string, b *Mesh) {
	t.Helper()
	nv, nt := b.VertexCount(), b.TriangleCount()
	edges := map[[2]uint16]int{}
	var minArea, sumArea float64 = math.Inf(1), 0
	disagree := 0
	for tr := 0; tr < nt; tr++ {
		i := b.Indices[3*tr : 3*tr+3]
		if int(i[0]) >= nv || int(i[1]) >= nv || int(i[2]) >= nv || i[0] == i[1] || i[1] == i[2] || i[0] == i[2] {
			t.Fatalf("%s: triangle %d has corners %v", name, tr, i)
		}
		a, bb, c := bodyVertex(b, int(i[0])), bodyVertex(b, int(i[1])), bodyVertex(b, int(i[2]))
		cr := bb.Sub(a).Cross(c.Sub(a))
		area := float64(cr.Len() / 2)
		minArea = math.Min(minArea, area)
		sumArea += area
		var vn mgl32.Vec3
		for _, k := range i {
			vn = vn.Add(bodyNormal(b, int(k)))
		}
		if cr.Dot(vn) <= 0 {
			disagree++
		}
		for k := 0; k < 3; k++ {
			edges[[2]uint16{i[k], i[(k+1)%3]}]++
		}
	}
	if mean := sumArea / float64(nt); minArea < 1e-3*mean {
		t.Errorf("%s: smallest triangle has area %g, %g of the mean: degenerate", name, minArea, minArea/mean)
	}
	if disagree > nt/100 {
		t.Errorf("%s: %d of %d triangles wound against their vertex normals", name, disagree, nt)
	}
	open := 0
	for e, k := range edges {
		if edges[[2]uint16{e[1], e[0]}] != k {
			open++
		}
	}
	if open > 0 {
		t.Errorf("%s: %d directed edges without a twin: the mesh is not closed", name, open)
	}
}

func finiteVec(v mgl32.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

func TestGenerateBodySkeletons(t *testing.T) {
	bench := animsys.BenchSkeleton()
	cm := animsys.BenchSkeleton()
	for i := range cm.Offsets {
		cm.Offsets[i] = cm.Offsets[i].Mul(100)
	}
	noNames := animsys.BenchSkeleton()
	noNames.Names = make([]string, noNames.Len())
	for _, c := range []struct {
		name string
		s    animsys.Skeleton
	}{
		{"bench", bench}, {"bench-cm", cm}, {"bench-unnamed", noNames}, {"zero-length-bones", zeroBones()},
		{"cmu-like-inches", cmuLike()}, {"mixamo-like-cm", mixamoLike()},
		{"quadruped-unnamed", quadruped()}, {"chain-on-floor", chain()},
	} {
		if err := c.s.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pos, rot := restGlobals(c.s)
		b := generate(c.s.Parents, pos, rot, c.s.Names)
		checkBodyMesh(t, c.name, c.s, &b)
	}
}

// TestBodyScalesWithSkeleton: the same skeleton in metres and centimetres
// gives the same body, 100 times larger.
func TestBodyScalesWithSkeleton(t *testing.T) {
	m := animsys.BenchSkeleton()
	cm := animsys.BenchSkeleton()
	for i := range cm.Offsets {
		cm.Offsets[i] = cm.Offsets[i].Mul(100)
	}
	pm, rm := restGlobals(m)
	pc, rc := restGlobals(cm)
	a := generate(m.Parents, pm, rm, m.Names)
	b := generate(cm.Parents, pc, rc, cm.Names)
	if d := a.VertexCount() - b.VertexCount(); d < -10 || d > 10 {
		t.Fatalf("m: %d vertices, cm: %d", a.VertexCount(), b.VertexCount())
	}
	// Every cm vertex has an m vertex (times 100) within a quarter cell,
	// but for a few on creases, where float32 rounding can tip a grid sign.
	h := float32(cellSize * 100)
	cells := map[[3]int][]mgl32.Vec3{}
	key := func(p mgl32.Vec3) [3]int {
		return [3]int{int(math.Floor(float64(p[0] / h))), int(math.Floor(float64(p[1] / h))), int(math.Floor(float64(p[2] / h)))}
	}
	for v := 0; v < a.VertexCount(); v++ {
		p := mgl32.Vec3{a.Positions[3*v], a.Positions[3*v+1], a.Positions[3*v+2]}.Mul(100)
		cells[key(p)] = append(cells[key(p)], p)
	}
	missing := 0
	for v := 0; v < b.VertexCount(); v++ {
		p := mgl32.Vec3{b.Positions[3*v], b.Positions[3*v+1], b.Positions[3*v+2]}
		k, found := key(p), false
		for dx := -1; dx <= 1 && !found; dx++ {
			for dy := -1; dy <= 1 && !found; dy++ {
				for dz := -1; dz <= 1 && !found; dz++ {
					for _, q := range cells[[3]int{k[0] + dx, k[1] + dy, k[2] + dz}] {
						if q.Sub(p).Len() < 0.25*h {
							found = true
							break
						}
					}
				}
			}
		}
		if !found {
			missing++
		}
	}
	if missing > b.VertexCount()/1000 {
		t.Fatalf("%d of %d cm vertices have no m vertex near them", missing, b.VertexCount())
	}
}

// TestBodyShape checks the bench body's proportions: it covers every
// bone, reaches above the head joint and out past the hands, stays near
// its bones, and has no root-to-hips link from the floor entity.
func TestBodyShape(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	b := generate(s.Parents, pos, rot, s.Names)
	lo, hi := mgl32.Vec3{1e9, 1e9, 1e9}, mgl32.Vec3{-1e9, -1e9, -1e9}
	for v := 0; v < b.VertexCount(); v++ {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = min(lo[a], b.Positions[3*v+a]), max(hi[a], b.Positions[3*v+a])
		}
	}
	head, hand := pos[animsys.BenchHead], pos[18]
	if hi[1] < head[1]+0.12 || hi[1] > head[1]+0.3 {
		t.Errorf("body top at %v m; head joint at %v: want a head of 12-30 cm above it", hi[1], head[1])
	}
	if hi[0] < hand[0]+0.05 || hi[0] > hand[0]+0.25 {
		t.Errorf("body reaches x = %v m; hand joint at %v: want a hand beyond it", hi[0], hand[0])
	}
	if lo[1] < -0.02 || lo[1] > 0.03 {
		t.Errorf("soles at y = %v m; want on the floor", lo[1])
	}
	if depth := hi[2] - lo[2]; depth < 0.2 || depth > 0.45 {
		t.Errorf("body depth %v m (heel to toe tip, chest)", depth)
	}
	// The Entity root (joint 0, on the floor) carries no vertex, and
	// between the feet at knee height there is no body.
	for v := 0; v < b.VertexCount(); v++ {
		for k := 0; k < 4; k++ {
			if b.BoneIDs[4*v+k] == 0 && b.BoneWeights[4*v+k] > 0 {
				t.Fatalf("vertex %d is skinned to the floor entity", v)
			}
		}
		p := mgl32.Vec3{b.Positions[3*v], b.Positions[3*v+1], b.Positions[3*v+2]}
		if p[1] > 0.15 && p[1] < 0.5 && math.Abs(float64(p[0])) < 0.015 {
			t.Fatalf("vertex %v between the shins", p)
		}
	}
}

// TestBodyWeightsBlendAtJoints: vertices around the left elbow and knee
// are shared by the bones on both sides, and far along a bone only its
// own joint moves them.
func TestBodyWeightsBlendAtJoints(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	b := generate(s.Parents, pos, rot, s.Names)
	weight := func(v, j int) float32 {
		for k := 0; k < 4; k++ {
			if int(b.BoneIDs[4*v+k]) == j {
				return b.BoneWeights[4*v+k]
			}
		}
		return 0
	}
	for _, c := range []struct {
		name         string
		upper, lower int
		axis         int     // the bones run along this axis
		upSign       float32 // sign of the axis toward the upper bone
	}{
		{"left elbow", 16, 17, 0, -1},
		{"left knee", 2, 3, 1, 1},
	} {
		joint := pos[c.lower]
		upLen, lowLen := pos[c.lower].Sub(pos[c.upper]).Len(), pos[c.lower+1].Sub(pos[c.lower]).Len()
		blended, rigid, nearN, farN := 0, 0, 0, 0
		for v := 0; v < b.VertexCount(); v++ {
			p := mgl32.Vec3{b.Positions[3*v], b.Positions[3*v+1], b.Positions[3*v+2]}
			off := p.Sub(joint)
			along := off[c.axis] * c.upSign // > 0 toward the upper bone
			off[c.axis] = 0
			if off.Len() > 0.1 { // another limb
				continue
			}
			const near, fade = 0.012, 0.08 // m
			switch {
			case along > -near && along < near:
				nearN++
				if weight(v, c.upper) > 0.2 && weight(v, c.lower) > 0.2 {
					blended++
				}
			case along > fade && along < upLen-fade, along < -fade && along > -lowLen+fade:
				farN++
				if weight(v, c.upper) > 0.99 || weight(v, c.lower) > 0.99 {
					rigid++
				}
			}
		}
		if nearN == 0 || blended < nearN*9/10 {
			t.Errorf("%s: %d of %d vertices at the joint blend both bones", c.name, blended, nearN)
		}
		if farN == 0 || rigid < farN*9/10 {
			t.Errorf("%s: %d of %d vertices mid-bone follow one bone", c.name, rigid, farN)
		}
	}
	// Every joint but the floor entity and the leaf toe/hand/head has some
	// vertices of its own.
	count := make([]int, s.Len())
	for v := 0; v < b.VertexCount(); v++ {
		for k := 0; k < 4; k++ {
			if b.BoneWeights[4*v+k] > 0.5 {
				count[int(b.BoneIDs[4*v+k])]++
			}
		}
	}
	for j := 1; j < s.Len(); j++ {
		if count[j] == 0 {
			t.Errorf("joint %s moves no vertex by more than half", s.Names[j])
		}
	}
}

// TestBodyWeightsContinuous: neighbouring vertices (a grid cell apart)
// have similar weights, so no seam opens or folds when joints turn. The
// largest change across an edge is in the armpit fillets.
func TestBodyWeightsContinuous(t *testing.T) {
	for _, s := range []animsys.Skeleton{animsys.BenchSkeleton(), mixamoLike()} {
		pos, rot := restGlobals(s)
		b := generate(s.Parents, pos, rot, s.Names)
		weights := func(v int, out []float32) {
			clear(out)
			for k := 0; k < 4; k++ {
				out[int(b.BoneIDs[4*v+k])] += b.BoneWeights[4*v+k]
			}
		}
		wa, wb := make([]float32, s.Len()), make([]float32, s.Len())
		worst := float32(0)
		for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 0}} {
			for tr := 0; tr < b.TriangleCount(); tr++ {
				weights(int(b.Indices[3*tr+e[0]]), wa)
				weights(int(b.Indices[3*tr+e[1]]), wb)
				d := float32(0)
				for j := range wa {
					d += abs32(wa[j] - wb[j])
				}
				worst = max(worst, d)
			}
		}
		if worst > 1.2 {
			t.Errorf("%s...: weights change by %v (sum over joints) across one edge", s.Names[1], worst)
		}
	}
}

// TestGenerateBodyDegenerate: skeletons with nothing to dress give an
// empty body with valid inverse binds, never NaN or a panic.
func TestGenerateBodyDegenerate(t *testing.T) {
	one := generate([]int{-1}, []mgl32.Vec3{{1, 2, 3}}, []mgl32.Quat{mgl32.QuatIdent()}, nil)
	if len(one.BindInv) != 1 || one.BindInv[0].Mul4x1(mgl32.Vec4{1, 2, 3, 1}) != (mgl32.Vec4{0, 0, 0, 1}) {
		t.Fatalf("one joint: bind inverse %v", one.BindInv)
	}
	same := generate([]int{-1, 0, 1}, make([]mgl32.Vec3, 3), []mgl32.Quat{mgl32.QuatIdent(), mgl32.QuatIdent(), mgl32.QuatIdent()}, nil)
	for _, x := range same.Positions {
		if math.IsNaN(float64(x)) {
			t.Fatal("coincident joints: NaN position")
		}
	}
	if len(same.Indices)%3 != 0 || len(same.BoneWeights) != 4*same.VertexCount() {
		t.Fatal("coincident joints: inconsistent mesh")
	}
}

func BenchmarkGenerateBody(b *testing.B) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	for b.Loop() {
		generate(s.Parents, pos, rot, s.Names)
	}
}

// TestGenerateBodyStrayJoint: a joint 50 m away, held in the hand (a prop,
// a camera), neither changes the body's size nor blows up the grid.
func TestGenerateBodyStrayJoint(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	plain := generate(s.Parents, pos, rot, s.Names)
	s.Names = append(s.Names, "Prop")
	s.Parents = append(s.Parents, 18)
	s.Offsets = append(s.Offsets, mgl32.Vec3{50, 0, 50})
	pos, rot = restGlobals(s)
	b := generate(s.Parents, pos, rot, s.Names)
	checkBodyMesh(t, "stray-joint", s, &b)
	if d := b.VertexCount() - plain.VertexCount(); d < -plain.VertexCount()/20 || d > plain.VertexCount()/20 {
		t.Fatalf("%d vertices with the prop, %d without", b.VertexCount(), plain.VertexCount())
	}
}

// TestBodyInside: the bench body holds every bone's midpoint and not the
// points between its shins, far in front of it or above its head.
func TestBodyInside(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	b := generate(s.Parents, pos, rot, s.Names)
	for j, p := range s.Parents {
		if p <= 0 {
			continue // the floor entity's link to the hips is no bone
		}
		mid := pos[j].Add(pos[p]).Mul(0.5)
		if w := b.Winding(mid); w < 0.99 || w > 1.01 {
			t.Errorf("bone %s: midpoint %v has winding number %.3f, want 1", s.Names[j], mid, w)
		}
	}
	for _, p := range []mgl32.Vec3{{0, 0.3, 0}, {0, 1, 2}, {0, 2.5, 0}} {
		if w := b.Winding(p); math.Abs(w) > 0.01 {
			t.Errorf("%v: winding number %.3f, want 0", p, w)
		}
	}
}
