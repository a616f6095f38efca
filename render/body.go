package render

import (
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
)

// This file holds BodyMesh and GenerateBody, the reading of a skeleton
// into torso, head and limbs, and the placement of solids on its bones.
// The solids themselves are in body_shapes.go; turning them into a
// skinned mesh is in body_surface.go.

// A stylised body for any skeleton. GenerateBody reads the rest pose, finds
// a torso, head, arms and legs (names are hints, geometry decides when they
// are missing), and places a solid on every bone: tapered round cones for
// limbs, flattened ones for the torso, hands and feet, an ellipsoid head.
// The solids are joined by a smooth union into one implicit surface, which
// is meshed with surface nets on a grid scaled to the skeleton, so the mesh
// is closed and smooth where solids meet. Each vertex is skinned to the
// joints whose solids are near it, up to four, blended over a few
// centimetres.

// BodyMesh is a skinned triangle mesh in the bind (rest) pose, world space.
type BodyMesh struct {
	Positions   []float32    // xyz per vertex
	Normals     []float32    // xyz per vertex, unit length
	Indices     []uint16     // three per triangle, counter-clockwise seen from outside
	BoneIDs     []float32    // four joint indices per vertex (floats for a vec4 attribute)
	BoneWeights []float32    // four weights per vertex in [0, 1], summing to 1
	BindInv     []mgl32.Mat4 // inverse rest (bind) matrix of every joint
}

// VertexCount is the number of vertices.
func (b *BodyMesh) VertexCount() int { return len(b.Positions) / 3 }

// TriangleCount is the number of triangles.
func (b *BodyMesh) TriangleCount() int { return len(b.Indices) / 3 }

// Body proportions, in metres for a skeleton whose head joint is 1.53 m
// above its lowest joint (a person of about 1.75 m, like the bench
// skeleton). GenerateBody multiplies every length by the skeleton's size
// relative to that, or without a head by its whole height over refHeight.
const (
	refHeight  = 1.53
	cellSize   = 0.016 // grid cell of the implicit surface
	weightFade = 0.05  // how far from its solid a joint's weight fades to 0
	maxVerts   = 65535 // 16-bit indices
)

// Radii of the stylised figure (m, at refHeight).
const (
	legTop, ankle     = 0.088, 0.042
	armTop, wrist     = 0.057, 0.033
	neckRadius        = 0.05
	torsoFlat         = 0.7 // depth / width of the torso
	pelvisR, waistR   = 0.135, 0.112
	chestR, ribR      = 0.16, 0.15
	headUp, headFront = 0.116, 0.105
	headSide          = 0.095
)

// GenerateBody builds a skinned body for a skeleton from its rest pose:
// parents (-1 for roots, each parent before its children), restPos and
// restRot the global (world) rest transforms of each joint, in any length
// unit (the solids scale with the skeleton's height), and names (may be
// nil) used only as hints. A root far below all its children, like an
// "Entity" root on the floor, gets no body. The mesh is empty, and BindInv
// too, if the slices disagree in length or a parent comes after its child;
// it is empty with BindInv filled if no joint has a bone to dress.
func GenerateBody(parents []int, restPos []mgl32.Vec3, restRot []mgl32.Quat, names []string) BodyMesh {
	return GenerateBodyCell(parents, restPos, restRot, names, cellSize)
}

// Surface grid cells for GenerateBodyCell (m, for a 1.75 m person).
const (
	// BodyCellDefault is GenerateBody's cell: about 9,000 vertices for
	// the bench skeleton.
	BodyCellDefault = cellSize
	// BodyCellCrowd is a coarse cell: about 500 vertices for the bench
	// skeleton, still closed and skinned, with whole forearms (at 0.08,
	// about 300 vertices, they break up). Decimate gets closer to the
	// fine surface with half as many vertices; the Crowd lab uses that.
	BodyCellCrowd = 0.065
)

// GenerateBodyCell is GenerateBody with the surface grid's cell size
// chosen: cell is in metres for a person of about 1.75 m and scales with
// the skeleton like every other length. The cell is the quality/speed
// knob: vertex count goes roughly as 1/cell^2, so BodyCellCrowd (0.065)
// gives about a twentieth of BodyCellDefault's vertices. A cell <= 0 or NaN
// means BodyCellDefault. GenerateBody(...) is GenerateBodyCell(...,
// BodyCellDefault).
func GenerateBodyCell(parents []int, restPos []mgl32.Vec3, restRot []mgl32.Quat, names []string, cell float32) BodyMesh {
	if !(cell > 0) {
		cell = cellSize
	}
	n := len(parents)
	var body BodyMesh
	if len(restPos) < n || len(restRot) < n {
		return body
	}
	for i, p := range parents {
		if p < -1 || p >= i {
			return body
		}
	}
	body.BindInv = make([]mgl32.Mat4, n)
	for j := 0; j < n; j++ {
		body.BindInv[j] = restRot[j].Inverse().Mat4().Mul4(mgl32.Translate3D(-restPos[j][0], -restPos[j][1], -restPos[j][2]))
	}
	b := newBodyBuilder(parents, restPos, names)
	b.classify()
	b.resize()
	b.buildShapes()
	if len(b.solids) == 0 {
		return body
	}
	h := cell * b.s
	if est := float32(math.Sqrt(float64(b.area() * 1.2 / maxVerts))); est > h {
		h = est
	}
	for try := 0; try < 8; try++ {
		f := newBodyField(b.solids, h)
		if m, ok := f.mesh(); ok {
			f.skin(&m, weightFade*b.s)
			m.BindInv = body.BindInv
			return m
		}
		h *= 1.3
	}
	return body
}

// resize measures the skeleton by its head joint's height above its
// lowest joint when it has a head, since head-top End Sites and the like
// would overstate it.
func (b *bodyBuilder) resize() {
	lo, _ := jointBounds(b.pos, b.ground)
	top := float32(math.Inf(-1))
	for i, chain := range b.chains {
		if h := b.head[i]; h >= 0 {
			top = max(top, b.pos[chain[h]][1])
		}
	}
	if s := (top - lo[1]) / refHeight; s > 0 && !math.IsInf(float64(s), 0) {
		b.s = s
	}
}

// limbKind says how a limb is shaped.
type limbKind uint8

const (
	otherLimb limbKind = iota // tails, extra limbs: a plain taper
	armLimb                   // tapering to a hand
	legLimb                   // tapering to a foot
)

// limb is a chain hanging from a torso joint (or from another limb).
type limb struct {
	kind limbKind
	base int   // joint the limb hangs from
	path []int // main path, first limb joint to its end
	end  int   // index in path of the hand or foot; -1 if none
}

type bodyBuilder struct {
	parents []int
	pos     []mgl32.Vec3
	names   []string // lower case
	kids    [][]int
	ground  []bool    // ground-level roots
	subTop  []float32 // highest y in each joint's subtree
	subLen  []float32 // longest path from the joint to a leaf below it
	s       float32   // size: skeleton height / refHeight
	up, fwd mgl32.Vec3

	chains [][]int // torso chains: pelvis .. chest, then neck, head
	chest  []int   // index in each chain of the chest (last torso joint)
	head   []int   // index in each chain of the head, -1 if none
	limbs  []limb
	solids []solid

	groupID      int     // group of the next solid added
	inner, outer float32 // its smooth-union widths
}

func newBodyBuilder(parents []int, pos []mgl32.Vec3, names []string) *bodyBuilder {
	n := len(parents)
	b := &bodyBuilder{parents: parents, pos: pos, names: make([]string, n), kids: make([][]int, n),
		ground: make([]bool, n), subTop: make([]float32, n), subLen: make([]float32, n),
		up: mgl32.Vec3{0, 1, 0}, fwd: mgl32.Vec3{0, 0, 1}}
	for j := 0; j < n; j++ {
		if j < len(names) {
			b.names[j] = strings.ToLower(names[j])
		}
		if p := parents[j]; p >= 0 {
			b.kids[p] = append(b.kids[p], j)
		}
	}
	lo, hi := jointBounds(pos, nil)
	for j, p := range parents {
		if p >= 0 || len(b.kids[j]) == 0 {
			continue
		}
		far := true
		for _, c := range b.kids[j] {
			far = far && pos[c][1]-pos[j][1] > 0.25*(hi[1]-lo[1])
		}
		b.ground[j] = far
		if !far {
			b.groundChain(j, lo[1]+0.15*(hi[1]-lo[1]))
		}
	}
	// A first size from the height (resize refines it once the head is
	// known); a skeleton lying flat is measured by its length.
	lo, hi = jointBounds(pos, b.ground)
	ext := hi.Sub(lo)
	size := ext[1]
	if size <= 1e-3*max(ext[0], ext[2]) {
		size = max(ext[0], ext[2])
	}
	b.s = size / refHeight
	if !(b.s > 0) || math.IsInf(float64(b.s), 0) {
		b.s = 1
	}
	for j, p := range parents {
		if p < 0 {
			b.measure(j)
		}
	}
	return b
}

// groundChain marks as ground the chain of single children from root r
// that lies on the floor (below floor) when it leads up to a joint above
// it: a ground-level root with a second one under it (an Entity above a
// file's own root joint beside the figure), neither of them part of the
// body. A chain that never rises (a figure lying down) is left alone.
func (b *bodyBuilder) groundChain(r int, floor float32) {
	var chain []int
	for j := r; ; {
		if b.pos[j][1] > floor {
			for _, c := range chain {
				b.ground[c] = true
			}
			return
		}
		if len(b.kids[j]) != 1 {
			return
		}
		chain = append(chain, j)
		j = b.kids[j][0]
	}
}

// measure fills subTop and subLen for joint j and its subtree.
func (b *bodyBuilder) measure(j int) {
	top, length := b.pos[j][1], float32(0)
	for _, c := range b.kids[j] {
		b.measure(c)
		top = max(top, b.subTop[c])
		length = max(length, b.subLen[c]+b.pos[c].Sub(b.pos[j]).Len())
	}
	b.subTop[j], b.subLen[j] = top, length
}

// jointBounds is the box around the joints not skipped.
func jointBounds(pos []mgl32.Vec3, skip []bool) (lo, hi mgl32.Vec3) {
	first := true
	for j, p := range pos {
		if skip != nil && skip[j] {
			continue
		}
		if first {
			lo, hi, first = p, p, false
			continue
		}
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = min(lo[a], p[a]), max(hi[a], p[a])
		}
	}
	return lo, hi
}

func (b *bodyBuilder) named(j int, words ...string) bool {
	for _, w := range words {
		if strings.Contains(b.names[j], w) {
			return true
		}
	}
	return false
}

func (b *bodyBuilder) dist(i, j int) float32 { return b.pos[i].Sub(b.pos[j]).Len() }

// classify finds the torso chains, heads and limbs.
func (b *bodyBuilder) classify() {
	for j, p := range b.parents {
		switch {
		case p < 0 && !b.ground[j]:
			b.addTorso(j)
		case p >= 0 && b.ground[p] && !b.ground[j]:
			b.addTorso(j)
		}
	}
	// Facing: the feet point forward.
	var f mgl32.Vec3
	for _, l := range b.limbs {
		if l.kind == legLimb && l.end >= 0 && l.end+1 < len(l.path) {
			d := b.pos[l.path[l.end+1]].Sub(b.pos[l.path[l.end]])
			d[1] = 0
			f = f.Add(d)
		}
	}
	if f.Len() > 1e-6*b.s {
		b.fwd = f.Normalize()
	}
}

// addTorso follows the chain from pelvis up through the child whose
// subtree reaches highest, and hangs limbs off it.
func (b *bodyBuilder) addTorso(pelvis int) {
	chain := []int{pelvis}
	for cur := pelvis; ; {
		best := -1
		for _, c := range b.kids[cur] {
			if best < 0 || b.subTop[c] > b.subTop[best] {
				best = c
			}
		}
		if best < 0 || b.subTop[best] <= b.pos[cur][1] {
			break
		}
		chain = append(chain, best)
		cur = best
	}
	head := -1
	for i, j := range chain {
		if i > 0 && b.named(j, "head") {
			head = i
			break
		}
	}
	chest := -1
	for i := 1; i < len(chain) && (head < 0 || i < head); i++ {
		if len(b.kids[chain[i]]) > 1 {
			chest = i
		}
	}
	switch {
	case chest >= 0 && head < 0:
		head = min(chest+2, len(chain)-1)
		if head == chest {
			head = -1
		}
	case chest < 0 && head > 0:
		chest = head - 1
	case chest < 0:
		chest = len(chain) - 1
	}
	if head >= 0 {
		chain = chain[:head+1]
	}
	b.chains = append(b.chains, chain)
	b.chest = append(b.chest, chest)
	b.head = append(b.head, head)

	low := b.pos[pelvis][1] - 0.25*refHeight*b.s
	for i := 0; i <= chest; i++ {
		j := chain[i]
		for _, c := range b.kids[j] {
			if i+1 < len(chain) && c == chain[i+1] {
				continue
			}
			kind := otherLimb
			switch {
			case b.lowest(c) < low:
				// A leg reaches well below the pelvis, whichever joint of
				// the lower spine it hangs from (a 3ds Max biped's thighs
				// hang from its spine).
				kind = legLimb
			case i > 0 && i >= chest/2:
				kind = armLimb
			}
			b.addLimb(kind, j, c)
		}
	}
}

// lowest is the lowest y in j's subtree.
func (b *bodyBuilder) lowest(j int) float32 {
	y := b.pos[j][1]
	for _, c := range b.kids[j] {
		y = min(y, b.lowest(c))
	}
	return y
}

// addLimb follows the longest path from first and finds its hand or foot;
// substantial side branches become limbs of their own.
func (b *bodyBuilder) addLimb(kind limbKind, base, first int) {
	path := []int{first}
	for cur := first; len(b.kids[cur]) > 0; {
		best := b.kids[cur][0]
		for _, c := range b.kids[cur][1:] {
			if b.subLen[c]+b.dist(c, cur) > b.subLen[best]+b.dist(best, cur) {
				best = c
			}
		}
		path = append(path, best)
		cur = best
	}
	arc := make([]float32, len(path))
	for k := 1; k < len(path); k++ {
		arc[k] = arc[k-1] + b.dist(path[k-1], path[k])
	}
	total := arc[len(arc)-1]
	l := limb{kind: kind, base: base, path: path, end: -1}
	switch kind {
	case legLimb:
		l.end = b.extremity(path, arc, "foot", "ankle")
	case armLimb:
		l.end = b.extremity(path, arc, "hand", "wrist", "palm")
	}
	b.limbs = append(b.limbs, l)
	stop := len(path) - 1
	if l.end >= 0 {
		stop = l.end // branches at or past a hand or foot are inside it
	}
	for k := 0; k < stop; k++ {
		for _, c := range b.kids[path[k]] {
			if c == path[k+1] {
				continue
			}
			sub := otherLimb
			if b.subLen[c]+b.dist(c, path[k]) > 0.5*total {
				sub = kind
			}
			b.addLimb(sub, path[k], c)
		}
	}
}

// extremity is the index in path of the hand or foot: the first joint
// named so, else the first whose remaining path is under 30% of the limb.
func (b *bodyBuilder) extremity(path []int, arc []float32, words ...string) int {
	for k := 1; k < len(path); k++ {
		if b.named(path[k], words...) {
			return k
		}
	}
	total := arc[len(arc)-1]
	if total <= 0 {
		return -1
	}
	for k := 1; k < len(path); k++ {
		if total-arc[k] < 0.3*total {
			return k
		}
	}
	return -1
}

// buildShapes places the solids, group by group: solids of one group
// (a limb's chain, the torso) join with a hard or slight union, groups melt
// into the body with a wider smooth union (armpits, hips, wrists).
func (b *bodyBuilder) buildShapes() {
	for i, chain := range b.chains {
		b.torsoShapes(chain, b.chest[i], b.head[i])
	}
	for _, l := range b.limbs {
		b.limbShapes(l)
	}
}

// torsoRadius is the torso's half-width at fraction t from pelvis to chest.
func torsoRadius(t float32) float32 {
	switch {
	case t < 0.35:
		return pelvisR + (waistR-pelvisR)*t/0.35
	case t < 0.75:
		return waistR + (ribR-waistR)*(t-0.35)/0.4
	default:
		return ribR + (chestR-ribR)*(t-0.75)/0.25
	}
}

func (b *bodyBuilder) torsoShapes(chain []int, chest, head int) {
	s := b.s
	pelvis := chain[0]
	var arc []float32
	total := float32(0)
	for i := range chain[:chest+1] {
		if i > 0 {
			total += b.dist(chain[i-1], chain[i])
		}
		arc = append(arc, total)
	}
	r := func(i int) float32 {
		if total <= 0 {
			return pelvisR * s
		}
		return torsoRadius(arc[i]/total) * s
	}
	b.group(0.025, 0)
	// Pelvis, reaching down to the crotch.
	dir := b.up
	if chest > 0 && b.dist(chain[1], pelvis) > 1e-4*s {
		dir = b.pos[chain[1]].Sub(b.pos[pelvis]).Normalize()
	}
	p := b.pos[pelvis]
	b.add(roundCone(pelvis, p, p.Sub(dir.Mul(0.05*s)), r(0), 0.88*r(0), torsoFlat, b.fwd))
	for i := 1; i <= chest; i++ {
		a, c := b.pos[chain[i-1]], b.pos[chain[i]]
		if i < chest {
			b.add(roundCone(chain[i-1], a, c, r(i-1), r(i), torsoFlat, b.fwd))
			continue
		}
		// The chest owns the upper half of the last bone, so its dome
		// moves with it.
		m := a.Add(c).Mul(0.5)
		rm := 0.5 * (r(i-1) + r(i))
		b.add(roundCone(chain[i-1], a, m, r(i-1), rm, torsoFlat, b.fwd))
		b.add(roundCone(chain[i], m, c, rm, r(i), torsoFlat, b.fwd))
	}
	end := len(chain) - 1
	if end > chest {
		b.group(0, 0.025)
		for i := chest + 1; i <= end; i++ {
			b.add(roundCone(chain[i-1], b.pos[chain[i-1]], b.pos[chain[i]], neckRadius*s, neckRadius*s, 1, b.fwd))
		}
	}
	if head < 0 {
		return
	}
	hj := chain[head]
	hu := b.up
	hf := perpTo(b.fwd, hu, b.up)
	b.group(0, 0.02)
	c := b.pos[hj].Add(hu.Mul(0.08 * s)).Add(hf.Mul(0.02 * s))
	b.add(ellipsoidSolid(hj, c, hu, hf, mgl32.Vec3{headUp, headFront, headSide}.Mul(s)))
}

func (b *bodyBuilder) limbShapes(l limb) {
	path := l.path
	last := len(path) - 1
	if l.end >= 0 {
		last = l.end
	}
	var arc []float32
	total := float32(0)
	for k := 0; k <= last; k++ {
		if k > 0 {
			total += b.dist(path[k-1], path[k])
		}
		arc = append(arc, total)
	}
	s := b.s
	var r0, r1 float32 // radius at path[0] and at the hand, foot or end
	switch l.kind {
	case legLimb:
		r0, r1 = legTop*s, ankle*s
	case armLimb:
		r0, r1 = armTop*s, wrist*s
	default: // as thick as a fifth of its length, but a grid cell across
		r0 = max(min(armTop*s, 0.2*(total+b.dist(l.base, path[0]))), 0.8*cellSize*s)
		r1 = max(0.5*r0, 0.8*cellSize*s)
	}
	r := func(k int) float32 {
		if total <= 0 {
			return r0
		}
		return r0 + (r1-r0)*arc[k]/total
	}
	b.group(0, 0.03)
	b.add(roundCone(l.base, b.pos[l.base], b.pos[path[0]], 0.9*r0, r0, 1, b.fwd))
	for k := 1; k <= last; k++ {
		b.add(roundCone(path[k-1], b.pos[path[k-1]], b.pos[path[k]], r(k-1), r(k), 1, b.fwd))
	}
	if l.kind == armLimb && l.end >= 2 {
		// Deltoid: a rounded shoulder on the upper arm's root (two
		// joints before the hand).
		k := l.end - 2
		b.group(0, 0.035)
		b.add(roundCone(path[k], b.pos[path[k]], b.pos[path[k]], 1.05*r(k), 1.05*r(k), 1, b.fwd))
	}
	if l.end < 0 {
		return
	}
	switch l.kind {
	case armLimb:
		b.handShapes(path[l.end], path[l.end-1], r1)
	case legLimb:
		b.footShapes(path[l.end:], r1)
	}
}

// handShapes: a flattened mitten from the wrist that holds the hand's
// joints (fingers, when the skeleton has them): it points from the wrist
// to their middle, lies in the plane they spread across, and is as wide
// and thick as they reach, within a hand's proportions. A hand without
// fingers gets the mitten of a 1.75 m figure.
func (b *bodyBuilder) handShapes(hand, forearm int, rw float32) {
	s := b.s
	p := b.pos[hand]
	var d mgl32.Vec3
	length := float32(0)
	desc := b.descendants(hand, nil)
	for _, j := range desc {
		d = d.Add(b.pos[j].Sub(p))
	}
	if d.Len() > 1e-4*s {
		d = d.Normalize()
		for _, j := range desc {
			length = max(length, b.pos[j].Sub(p).Dot(d))
		}
	} else {
		d = p.Sub(b.pos[forearm])
		length = 0.42 * d.Len()
		if d.Len() > 1e-4*s {
			d = d.Normalize()
		} else {
			d = b.up.Mul(-1)
		}
	}
	length = clampf(length, 0.08*s, 0.2*s)
	// The palm's wide axis: the direction across d the joints spread
	// most along (the knuckles' line), else across the body's up.
	wide := spreadAxis(p, d, b.pos, desc)
	if wide.Len() == 0 {
		wide = perpTo(b.up, d, b.fwd).Cross(d)
	}
	thin := d.Cross(wide)
	half, thick := 1.55*rw, float32(0)
	for _, j := range desc {
		v := b.pos[j].Sub(p)
		half = max(half, abs32(v.Dot(wide))+0.35*rw)
		thick = max(thick, abs32(v.Dot(thin))+0.35*rw)
	}
	half = min(half, 0.08*s)
	flat := clampf(thick/half, 0.45, 1)
	palm := p.Add(d.Mul(0.4 * length))
	tip := p.Add(d.Mul(length - rw))
	b.group(0.01, 0.012)
	b.add(roundCone(hand, p, palm, 0.9*rw, half, flat, thin))
	b.add(roundCone(hand, palm, tip, half, half-0.35*rw, flat, thin))
}

// spreadAxis is the unit direction across d along which the points js
// spread most around p (the largest eigenvector of their covariance in the
// plane across d), or zero when they do not spread.
func spreadAxis(p, d mgl32.Vec3, pos []mgl32.Vec3, js []int) mgl32.Vec3 {
	u := perpTo(mgl32.Vec3{1, 0, 0}, d, mgl32.Vec3{0, 1, 0})
	v := d.Cross(u)
	var a, bb, c float32 // covariance [a b; b c] in the (u, v) plane
	for _, j := range js {
		q := pos[j].Sub(p)
		x, y := q.Dot(u), q.Dot(v)
		a, bb, c = a+x*x, bb+x*y, c+y*y
	}
	if a+c <= 0 {
		return mgl32.Vec3{}
	}
	ang := 0.5 * float32(math.Atan2(float64(2*bb), float64(a-c)))
	return u.Mul(float32(math.Cos(float64(ang)))).Add(v.Mul(float32(math.Sin(float64(ang))))).Normalize()
}

// footShapes: heel, sole and toes from the ankle (path[0]) along the foot.
func (b *bodyBuilder) footShapes(path []int, ra float32) {
	s := b.s
	foot := path[0]
	p := b.pos[foot]
	d := b.fwd
	length := 0.15 * s
	if len(path) > 1 && b.dist(path[1], foot) > 1e-3*s {
		d = b.pos[path[1]].Sub(p)
		d[1] = 0
		if d.Len() > 1e-4*s {
			length = d.Len()
			d = d.Normalize()
		} else {
			d = b.fwd
		}
	}
	down := b.up.Mul(-1)
	heel := p.Add(d.Mul(-0.035 * s)).Add(down.Mul(0.035 * s))
	rt := 0.8 * ra
	b.group(0.02, 0.015)
	if len(path) < 2 || b.dist(path[1], foot) <= 1e-3*s {
		tip := p.Add(d.Mul(length)).Add(down.Mul(0.045 * s))
		b.add(roundCone(foot, heel, tip, 0.85*ra, rt, 0.6, b.up))
		b.add(roundCone(foot, p, tip, ra, rt, 0.6, b.up))
		return
	}
	toe := path[1]
	b.add(roundCone(foot, heel, b.pos[toe], 0.85*ra, rt, 0.6, b.up))
	b.add(roundCone(foot, p, b.pos[toe], ra, rt, 0.6, b.up))
	end := b.pos[toe].Add(d.Mul(0.05 * s))
	if len(path) > 2 && b.dist(path[2], toe) > 1e-3*s {
		end = b.pos[path[2]]
	}
	b.add(roundCone(toe, b.pos[toe], end, rt, 0.85*rt, 0.6, b.up))
}

// descendants appends every joint below j to out.
func (b *bodyBuilder) descendants(j int, out []int) []int {
	for _, c := range b.kids[j] {
		out = append(b.descendants(c, out), c)
	}
	return out
}

// group starts a group of solids: each joins the group's previous ones
// with a smooth union of width inner (0: hard), and the group joins the
// body with width outer (both m at refHeight).
func (b *bodyBuilder) group(inner, outer float32) {
	b.groupID++
	b.inner, b.outer = inner*b.s, outer*b.s
}

func (b *bodyBuilder) add(sh solid) {
	sh.group, sh.inner, sh.outer = b.groupID, b.inner, b.outer
	b.solids = append(b.solids, sh)
}

// area estimates the surface area of all solids (overlaps counted twice).
func (b *bodyBuilder) area() float32 {
	a := float32(0)
	for i := range b.solids {
		sh := &b.solids[i]
		if sh.ellipsoid {
			r := (sh.radii[0] + sh.radii[1] + sh.radii[2]) / 3
			a += 4 * math.Pi * r * r
			continue
		}
		r := 0.5 * (sh.ra + sh.rb)
		a += 2*math.Pi*r*sh.length + 4*math.Pi*r*r
	}
	return a
}

func clampf(x, lo, hi float32) float32 { return max(lo, min(hi, x)) }

// perpTo returns v made perpendicular to axis and normalised, or fallback
// treated the same way when v is (nearly) parallel to axis.
func perpTo(v, axis, fallback mgl32.Vec3) mgl32.Vec3 {
	for _, c := range []mgl32.Vec3{v, fallback, {1, 0, 0}, {0, 0, 1}} {
		p := c.Sub(axis.Mul(c.Dot(axis)))
		if p.Len() > 0.2 {
			return p.Normalize()
		}
	}
	return mgl32.Vec3{0, 1, 0}
}
