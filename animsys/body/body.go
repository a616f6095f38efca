// Package body builds a stylised skinned body for any skeleton read as a
// figure (humanoid.Figure) in its bind pose, and simplifies it for crowds
// (Decimate). It is pure geometry: render uploads and draws the mesh.
//
// Generate places a solid on every bone of the figure's Parts — tapered
// round cones for limbs, flattened ones for the torso, hands and feet, an
// ellipsoid head — joins them by a smooth union into one implicit surface,
// and meshes it with surface nets on a grid scaled to the figure, so the
// mesh is closed and smooth where solids meet. Each vertex is skinned to
// the joints whose solids are near it, up to four, blended over a few
// centimetres. The solids are in shapes.go, the surface in surface.go.
package body

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
)

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
	// trapezius is how far the torso may rise above the upper arms' roots:
	// the neck shows above it.
	trapezius = 0.06
)

// Generate builds a skinned body for figure f in its bind pose: pos and
// rot are the global (world) bind transforms of each joint, standing on +Y,
// in any length unit (the solids scale with the figure's height). Only
// f's reading of the skeleton decides what is dressed how (f.Parts);
// Ground joints get no body. The mesh is empty, and BindInv too, if the
// slices disagree in length or a parent comes after its child; it is empty
// with BindInv filled if no joint has a bone to dress.
func Generate(f *humanoid.Figure, pos []mgl32.Vec3, rot []mgl32.Quat) Mesh {
	return GenerateCell(f, pos, rot, cellSize)
}

// Surface grid cells for GenerateCell (m, for a 1.75 m person).
const (
	// CellDefault is Generate's cell: about 9,000 vertices for the bench
	// skeleton.
	CellDefault = cellSize
	// CellCrowd is a coarse cell: about 500 vertices for the bench
	// skeleton, still closed and skinned, with whole forearms (at 0.08,
	// about 300 vertices, they break up). Decimate gets closer to the
	// fine surface with half as many vertices; the Crowd lab uses that.
	CellCrowd = 0.065
)

// GenerateCell is Generate with the surface grid's cell size chosen: cell
// is in metres for a person of about 1.75 m and scales with the figure
// like every other length. The cell is the quality/speed knob: vertex
// count goes roughly as 1/cell^2, so CellCrowd (0.065) gives about a
// twentieth of CellDefault's vertices. A cell <= 0 or NaN means
// CellDefault.
func GenerateCell(f *humanoid.Figure, pos []mgl32.Vec3, rot []mgl32.Quat, cell float32) Mesh {
	if !(cell > 0) {
		cell = cellSize
	}
	n := len(f.Parents)
	var body Mesh
	if len(pos) < n || len(rot) < n || len(f.Ground) != n {
		return body
	}
	for i, p := range f.Parents {
		if p < -1 || p >= i {
			return body
		}
	}
	body.BindInv = make([]mgl32.Mat4, n)
	for j := 0; j < n; j++ {
		body.BindInv[j] = rot[j].Inverse().Mat4().Mul4(mgl32.Translate3D(-pos[j][0], -pos[j][1], -pos[j][2]))
	}
	b := newBuilder(f, pos)
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

// builder places the solids of one body.
type builder struct {
	humanoid.Parts
	pos     []mgl32.Vec3
	kids    [][]int
	s       float32 // size: the figure's height / refHeight
	up, fwd mgl32.Vec3
	solids  []solid

	groupID      int     // group of the next solid added
	inner, outer float32 // its smooth-union widths
}

func newBuilder(f *humanoid.Figure, pos []mgl32.Vec3) *builder {
	b := &builder{Parts: f.Parts(pos), pos: pos, kids: make([][]int, len(f.Parents))}
	for j, p := range f.Parents {
		if p >= 0 {
			b.kids[p] = append(b.kids[p], j)
		}
	}
	b.up, b.fwd = b.Up, b.Forward
	b.s = b.Height / refHeight
	if !(b.s > 0) || math.IsInf(float64(b.s), 0) {
		b.s = 1
	}
	b.resize(f.Ground)
	return b
}

// resize measures the figure by its head joint's height above its lowest
// body joint when it has a head, since head-top End Sites and the like
// would overstate it.
func (b *builder) resize(ground []bool) {
	lo := float32(math.Inf(1))
	for j, p := range b.pos {
		if !ground[j] {
			lo = min(lo, p[1])
		}
	}
	top := float32(math.Inf(-1))
	for _, t := range b.Torsos {
		if t.Head >= 0 {
			top = max(top, b.pos[t.Chain[t.Head]][1])
		}
	}
	if s := (top - lo) / refHeight; s > 0 && !math.IsInf(float64(s), 0) {
		b.s = s
	}
}

func (b *builder) dist(i, j int) float32 { return b.pos[i].Sub(b.pos[j]).Len() }

// buildShapes places the solids, group by group: solids of one group
// (a limb's chain, the torso) join with a hard or slight union, groups melt
// into the body with a wider smooth union (armpits, hips, wrists).
func (b *builder) buildShapes() {
	for _, t := range b.Torsos {
		b.torsoShapes(t.Chain, t.Chest, t.Head)
	}
	for _, l := range b.Branches {
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

func (b *builder) torsoShapes(chain []int, chest, head int) {
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
	top := b.torsoTop(chain, chest, r(chest))
	for i := 1; i <= chest; i++ {
		a, c := b.pos[chain[i-1]], b.pos[chain[i]]
		if i < chest {
			b.add(roundCone(chain[i-1], a, c, r(i-1), r(i), torsoFlat, b.fwd))
			continue
		}
		// The chest owns the upper half of the last bone, so its dome
		// moves with it.
		m := a.Add(top).Mul(0.5)
		rm := 0.5 * (r(i-1) + r(i))
		b.add(roundCone(chain[i-1], a, m, r(i-1), rm, torsoFlat, b.fwd))
		b.add(roundCone(chain[i], m, top, rm, r(i), torsoFlat, b.fwd))
	}
	end := len(chain) - 1
	if end > chest || top != b.pos[chain[chest]] {
		b.group(0, 0.025)
		if c := b.pos[chain[chest]]; top != c {
			b.add(roundCone(chain[chest], top, c, neckRadius*s, neckRadius*s, 1, b.fwd))
		}
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

// torsoTop is where the torso's last bone ends: the chest joint, or lower
// on the bone when the chest dome (radius rc) would rise more than
// trapezius above the shoulders (the upper arms' roots). A chest joint at
// the shoulders or above them (arms hanging from the neck, as in a 3ds Max
// biped) would otherwise swallow the neck and sink the head between the
// shoulders.
func (b *builder) torsoTop(chain []int, chest int, rc float32) mgl32.Vec3 {
	c := b.pos[chain[chest]]
	if chest < 1 {
		return c
	}
	shoulder, ok := float32(0), false
	for _, l := range b.Branches {
		if l.Kind == humanoid.ArmBranch && l.End >= 2 && slices.Contains(chain[:chest+1], l.Base) {
			if y := b.pos[l.Path[l.End-2]].Dot(b.up); !ok || y > shoulder {
				shoulder, ok = y, true
			}
		}
	}
	a := b.pos[chain[chest-1]]
	rise := c.Sub(a).Dot(b.up)
	want := shoulder + trapezius*b.s - rc
	if !ok || rise <= 0 || c.Dot(b.up) <= want {
		return c
	}
	t := max(0.3, (want-a.Dot(b.up))/rise)
	return a.Add(c.Sub(a).Mul(t))
}

func (b *builder) limbShapes(l humanoid.Branch) {
	path := l.Path
	last := len(path) - 1
	if l.End >= 0 {
		last = l.End
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
	switch l.Kind {
	case humanoid.LegBranch:
		r0, r1 = legTop*s, ankle*s
	case humanoid.ArmBranch:
		r0, r1 = armTop*s, wrist*s
	default: // as thick as a fifth of its length, but a grid cell across
		r0 = max(min(armTop*s, 0.2*(total+b.dist(l.Base, path[0]))), 0.8*cellSize*s)
		r1 = max(0.5*r0, 0.8*cellSize*s)
	}
	r := func(k int) float32 {
		if total <= 0 {
			return r0
		}
		return r0 + (r1-r0)*arc[k]/total
	}
	b.group(0, 0.03)
	b.add(roundCone(l.Base, b.pos[l.Base], b.pos[path[0]], 0.9*r0, r0, 1, b.fwd))
	for k := 1; k <= last; k++ {
		b.add(roundCone(path[k-1], b.pos[path[k-1]], b.pos[path[k]], r(k-1), r(k), 1, b.fwd))
	}
	if l.Kind == humanoid.ArmBranch && l.End >= 2 {
		// Deltoid: a rounded shoulder on the upper arm's root (two
		// joints before the hand).
		k := l.End - 2
		b.group(0, 0.035)
		b.add(roundCone(path[k], b.pos[path[k]], b.pos[path[k]], 1.05*r(k), 1.05*r(k), 1, b.fwd))
	}
	if l.End < 0 {
		return
	}
	switch l.Kind {
	case humanoid.ArmBranch:
		b.handShapes(path[l.End], path[l.End-1], r1)
	case humanoid.LegBranch:
		b.footShapes(path[l.End:], r1)
	}
}

// handShapes: a flattened mitten from the wrist that holds the hand's
// joints (fingers, when the skeleton has them): it points from the wrist
// to their middle, lies in the plane they spread across, and is as wide
// and thick as they reach, within a hand's proportions. A hand without
// fingers gets the mitten of a 1.75 m figure.
func (b *builder) handShapes(hand, forearm int, rw float32) {
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
	length = mathx.Clamp(length, 0.08*s, 0.2*s)
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
	flat := mathx.Clamp(thick/half, 0.45, 1)
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
func (b *builder) footShapes(path []int, ra float32) {
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
func (b *builder) descendants(j int, out []int) []int {
	for _, c := range b.kids[j] {
		out = append(b.descendants(c, out), c)
	}
	return out
}

// group starts a group of solids: each joins the group's previous ones
// with a smooth union of width inner (0: hard), and the group joins the
// body with width outer (both m at refHeight).
func (b *builder) group(inner, outer float32) {
	b.groupID++
	b.inner, b.outer = inner*b.s, outer*b.s
}

func (b *builder) add(sh solid) {
	sh.group, sh.inner, sh.outer = b.groupID, b.inner, b.outer
	b.solids = append(b.solids, sh)
}

// area estimates the surface area of all solids (overlaps counted twice).
func (b *builder) area() float32 {
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
