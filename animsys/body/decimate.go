package body

import (
	"cmp"
	"container/heap"
	"math"
	"slices"

	"kinelab/animsys/mathx/mathx64"
)

// Decimate returns a copy of the skinned mesh b with about target
// vertices, made by edge collapses in order of quadric error (Garland and
// Heckbert, "Surface simplification using quadric error metrics", 1997).
// It serves the generated bodies (closed) and characters' own meshes
// alike: the one way the Crowd lab makes its levels of detail.
//
// The collapses run on the surface with its vertices welded: vertices at
// the same position with the same bone influences are one point, so a
// mesh split at hard edges or texture seams (a glTF mesh, often one
// vertex per face corner) simplifies as the surface it is. Each collapse
// moves one point of an edge onto the other (a half-edge collapse), so
// every vertex left keeps its original position and bone weights exactly,
// and every face corner its own normal, texture coordinates and colour:
// the coarse mesh skins like the fine one it came from. Edges of an open
// surface stay: a point on one moves only along it, and planes through
// them, across their face, hold them in place. The cost of a collapse is the sum of squared distances (m², each
// plane weighted by its face's area over the mean) of the kept position
// from the planes of the original faces merged into either end, plus
// decSkinWeight times the squared edge length for each unit of weight the
// two ends disagree on (so joints keep rings of vertices to bend at).
// A collapse that would fold the surface (a face turning by more than
// about 72°), pinch it (an edge joining more than two faces), flatten a
// tetrahedron, leave a sliver or pull an open edge inwards is skipped.
//
// Under a software renderer a crowd's drawing costs about in proportion
// to its triangles, and a mesh simplified this way keeps thin limbs whole
// at far fewer triangles than a surface grid of coarser cells.
// target counts the vertices of the result (a point with corners of
// different normals or colours is as many vertices); it is clamped to at
// least 4, and a mesh that cannot be simplified that far stops where no
// collapse is allowed.
func Decimate(b *Mesh, target int) Mesh {
	d := newDecimator(b)
	d.run(max(4, target))
	return d.result()
}

// decSkinWeight (dimensionless) scales the skinning term of a collapse's
// cost against its geometric error: with 0.1, ends whose weights disagree
// entirely (L1 distance 2) cost 0.2·edge², as much as the kept position
// lying 0.45 edge lengths off one face's plane.
const decSkinWeight = 0.1

// decFlipCos is the least cosine between a face's normal before and after
// a collapse (about 72°).
const decFlipCos = 0.3

// decEdgeWeight weighs the plane through an open edge, across its face,
// against the faces' own planes (each edge's weighted by its length
// squared over the mean face area): large, so open edges keep their shape.
const decEdgeWeight = 10

// decMinQuality is the least quality (4√3·area / sum of squared edge
// lengths: 1 for an equilateral triangle) of a face a collapse may make.
const decMinQuality = 0.08

// quadric is a symmetric 4x4 matrix, upper triangle row by row.
type quadric [10]float64

func planeQuadric(n mathx64.Vec3, dist, w float64) quadric {
	a, b, c, d := n[0], n[1], n[2], dist
	return quadric{w * a * a, w * a * b, w * a * c, w * a * d, w * b * b, w * b * c, w * b * d, w * c * c, w * c * d, w * d * d}
}

func (q *quadric) add(o *quadric) {
	for i := range q {
		q[i] += o[i]
	}
}

// eval is pᵀQp for p = (x, y, z, 1).
func (q *quadric) eval(p mathx64.Vec3) float64 {
	x, y, z := p[0], p[1], p[2]
	return q[0]*x*x + 2*q[1]*x*y + 2*q[2]*x*z + 2*q[3]*x + q[4]*y*y + 2*q[5]*y*z + 2*q[6]*y + q[7]*z*z + 2*q[8]*z + q[9]
}

// The decimator's vertices are the mesh's welded points; each face
// corner remembers the original vertex whose normal, texture coordinates
// and colour it keeps (corner). A vertex of the result is a (point,
// corner's original vertex) pair still used by a live face (out counts
// them).
type decimator struct {
	src    *Mesh
	rep    []int32 // an original vertex of each point: its position and skinning
	pos    []mathx64.Vec3
	q      []quadric
	faces  [][3]int32 // points
	corner [][3]int32 // original vertices
	faceOK []bool
	vf     [][]int32 // faces around each point
	alive  []bool
	open   []bool   // the point is on an edge of only one face
	stamp  []uint32 // bumped when a point's quadric or faces change
	live   int
	uses   map[[2]int32]int32 // live faces' corners per (point, original vertex)
	parts  [][]int32          // the points of each connected part of the surface
	nParts int                // parts with a live face
	heap   collapseHeap
	mark   []int32 // scratch: neighbour marks, by vertex
	markID int32
	nbr    []int32 // scratch of neighbours
	around []int32 // scratch of pushAround
}

type collapse struct {
	cost       float64
	from, to   int32
	sFrom, sTo uint32
}

type collapseHeap []collapse

func (h collapseHeap) Len() int           { return len(h) }
func (h collapseHeap) Less(i, j int) bool { return h[i].cost < h[j].cost }
func (h collapseHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *collapseHeap) Push(x any)        { *h = append(*h, x.(collapse)) }
func (h *collapseHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// weldKey is what makes two vertices one point: position and skinning.
type weldKey struct {
	pos      [3]float32
	ids, wts [4]float32
}

func newDecimator(b *Mesh) *decimator {
	nv, nf := b.VertexCount(), b.TriangleCount()
	point := make([]int32, nv)
	weld := make(map[weldKey]int32, nv)
	d := &decimator{src: b, faces: make([][3]int32, nf), corner: make([][3]int32, nf), faceOK: make([]bool, nf),
		uses: make(map[[2]int32]int32, nv)}
	for v := range point {
		k := weldKey{[3]float32(b.Positions[3*v : 3*v+3]), [4]float32(b.BoneIDs[4*v : 4*v+4]), [4]float32(b.BoneWeights[4*v : 4*v+4])}
		p, ok := weld[k]
		if !ok {
			p = int32(len(d.rep))
			weld[k] = p
			d.rep = append(d.rep, int32(v))
			d.pos = append(d.pos, mathx64.Vec3{float64(k.pos[0]), float64(k.pos[1]), float64(k.pos[2])})
		}
		point[v] = p
	}
	np := len(d.rep)
	d.q, d.vf, d.alive, d.open = make([]quadric, np), make([][]int32, np), make([]bool, np), make([]bool, np)
	d.stamp, d.mark, d.live = make([]uint32, np), make([]int32, np), np
	for p := range d.alive {
		d.alive[p] = true
	}
	// Area-weighted plane quadrics, areas relative to the mean so that
	// costs are squared distances (m²). A face whose corners weld into
	// fewer than three points has no area and is dropped.
	normals, areas := make([]mathx64.Vec3, nf), make([]float64, nf)
	var total float64
	for f := range d.faces {
		for k := 0; k < 3; k++ {
			v := int32(b.Indices[3*f+k])
			d.faces[f][k], d.corner[f][k] = point[v], v
		}
		fc := d.faces[f]
		d.faceOK[f] = fc[0] != fc[1] && fc[1] != fc[2] && fc[2] != fc[0]
		if d.faceOK[f] {
			normals[f], areas[f] = d.normal(fc)
			total += areas[f]
		}
	}
	mean := max(total/float64(max(nf, 1)), 1e-12)
	edges := map[[2]int32]edgeFaces{} // by its points in order
	for f, fc := range d.faces {
		if !d.faceOK[f] {
			continue
		}
		n := normals[f]
		pq := planeQuadric(n, -n.Dot(d.pos[fc[0]]), areas[f]/mean)
		for k, p := range fc {
			d.q[p].add(&pq)
			d.vf[p] = append(d.vf[p], int32(f))
			d.uses[[2]int32{p, d.corner[f][k]}]++
			e := edgeKey(p, fc[(k+1)%3])
			ef := edges[e]
			if ef.n < 2 {
				ef.f[ef.n] = int32(f)
			}
			ef.n++
			edges[e] = ef
		}
	}
	// Open edges, and seams (where the faces' corners differ in texture
	// coordinates or colour; creases, where only normals differ, are held
	// by the faces' own planes): a plane through each, across each face
	// along it.
	for f, fc := range d.faces {
		if !d.faceOK[f] {
			continue
		}
		for k, a := range fc {
			b := fc[(k+1)%3]
			ef := edges[edgeKey(a, b)]
			open := ef.n == 1
			if !open && !d.seam(ef, a, b) {
				continue
			}
			e := d.pos[b].Sub(d.pos[a])
			m := e.Cross(normals[f])
			if l := math.Sqrt(m.Dot(m)); l > 0 {
				m = mathx64.Vec3{m[0] / l, m[1] / l, m[2] / l}
				eq := planeQuadric(m, -m.Dot(d.pos[a]), decEdgeWeight*e.Dot(e)/mean)
				d.q[a].add(&eq)
				d.q[b].add(&eq)
			}
			if open {
				d.open[a], d.open[b] = true, true
			}
		}
	}
	// Each directed edge once: from every vertex to each neighbour.
	for v := range d.pos {
		for _, w := range d.neighbours(int32(v)) {
			d.push(int32(v), w)
		}
	}
	d.findParts()
	return d
}

// edgeFaces counts the faces along an edge and holds the first two.
type edgeFaces struct {
	n int32
	f [2]int32
}

// seam reports whether the two faces along edge a-b are painted
// differently at either end; an edge of more than two faces is no seam.
func (d *decimator) seam(ef edgeFaces, a, b int32) bool {
	if ef.n != 2 {
		return false
	}
	at := func(f, p int32) int32 {
		for k, q := range d.faces[f] {
			if q == p {
				return d.corner[f][k]
			}
		}
		return -1
	}
	return !d.samePaint(at(ef.f[0], a), at(ef.f[1], a)) || !d.samePaint(at(ef.f[0], b), at(ef.f[1], b))
}

func edgeKey(a, b int32) [2]int32 {
	if a > b {
		a, b = b, a
	}
	return [2]int32{a, b}
}

// normal is the unit normal and the area of a face.
func (d *decimator) normal(f [3]int32) (mathx64.Vec3, float64) {
	a, b, c := d.pos[f[0]], d.pos[f[1]], d.pos[f[2]]
	n := b.Sub(a).Cross(c.Sub(a))
	l := math.Sqrt(n.Dot(n))
	if l == 0 {
		return mathx64.Vec3{}, 0
	}
	return mathx64.Vec3{n[0] / l, n[1] / l, n[2] / l}, l / 2
}

// neighbours lists the live vertices sharing a live face with v into
// d.nbr and marks them with a fresh d.markID.
func (d *decimator) neighbours(v int32) []int32 {
	d.markID++
	d.nbr = d.nbr[:0]
	for _, f := range d.vf[v] {
		for _, w := range d.faces[f] {
			if w != v && d.mark[w] != d.markID {
				d.mark[w] = d.markID
				d.nbr = append(d.nbr, w)
			}
		}
	}
	return d.nbr
}

// pushAround queues both directions of every edge at v.
func (d *decimator) pushAround(v int32) {
	d.around = append(d.around[:0], d.neighbours(v)...)
	for _, w := range d.around {
		d.push(v, w)
		d.push(w, v)
	}
}

func (d *decimator) push(from, to int32) {
	p := d.pos[to]
	q := d.q[from]
	q.add(&d.q[to])
	e := d.pos[from].Sub(p)
	cost := q.eval(p) + decSkinWeight*d.skinDiff(d.rep[from], d.rep[to])*e.Dot(e)
	heap.Push(&d.heap, collapse{cost: max(cost, 0), from: from, to: to, sFrom: d.stamp[from], sTo: d.stamp[to]})
}

// skinDiff is the L1 distance (0 to 2) between two original vertices' bone
// weights, summed per joint (a joint listed twice counts once, with its
// weights added; zero weights are ignored, whatever their joint).
func (d *decimator) skinDiff(a, b int32) float64 {
	var ids [8]float32
	var diff [8]float64
	n := 0
	for side, v := range [2]int32{a, b} {
		sign := 1 - 2*float64(side)
		for k := 4 * int(v); k < 4*int(v)+4; k++ {
			w := d.src.BoneWeights[k]
			if w == 0 {
				continue
			}
			i := 0
			for i < n && ids[i] != d.src.BoneIDs[k] {
				i++
			}
			if i == n {
				ids[n], diff[n] = d.src.BoneIDs[k], 0
				n++
			}
			diff[i] += sign * float64(w)
		}
	}
	s := 0.0
	for _, x := range diff[:n] {
		s += math.Abs(x)
	}
	return s
}

// allowed reports whether collapsing from onto to keeps the surface a
// manifold without folds or slivers, its open edges where they were.
func (d *decimator) allowed(from, to int32) bool {
	// Link condition: the ends' common neighbours must be exactly the
	// third vertices of the faces along the edge: two inside the surface,
	// one on an open edge. A point on an open edge moves only along it.
	d.neighbours(to)
	common, shared := 0, 0
	for _, f := range d.vf[from] {
		fc := d.faces[f]
		if fc[0] == to || fc[1] == to || fc[2] == to {
			shared++
		}
	}
	seen := d.markID
	d.markID++
	var third [2]int32
	for _, f := range d.vf[from] {
		for _, w := range d.faces[f] {
			if w != from && w != to && d.mark[w] == seen {
				d.mark[w] = d.markID
				if common < 2 {
					third[common] = w
				}
				common++
			}
		}
	}
	switch {
	case shared == 1 && common == 1 && d.open[from]:
	case shared == 2 && common == 2 && !d.open[from]:
		// ... and the edge between those two third vertices must not
		// border a face of each end: that is a tetrahedron, which the
		// collapse would flatten into two faces back to back.
		if d.hasFace(from, third) && d.hasFace(to, third) {
			return false
		}
	default:
		return false
	}
	for _, f := range d.vf[from] {
		fc := d.faces[f]
		if fc[0] == to || fc[1] == to || fc[2] == to {
			continue
		}
		n0, _ := d.normal(fc)
		moved := fc
		for k := range moved {
			if moved[k] == from {
				moved[k] = to
			}
		}
		n1, a := d.normal(moved)
		if n0.Dot(n1) < decFlipCos || quality(d.pos[moved[0]], d.pos[moved[1]], d.pos[moved[2]], a) < decMinQuality {
			return false
		}
	}
	return true
}

// hasFace reports whether a face of v has both vertices of e.
func (d *decimator) hasFace(v int32, e [2]int32) bool {
	for _, f := range d.vf[v] {
		fc := d.faces[f]
		a := fc[0] == e[0] || fc[1] == e[0] || fc[2] == e[0]
		b := fc[0] == e[1] || fc[1] == e[1] || fc[2] == e[1]
		if a && b {
			return true
		}
	}
	return false
}

// quality is 4√3·area over the sum of squared edge lengths.
func quality(a, b, c mathx64.Vec3, area float64) float64 {
	e := b.Sub(a).Dot(b.Sub(a)) + c.Sub(b).Dot(c.Sub(b)) + a.Sub(c).Dot(a.Sub(c))
	if e == 0 {
		return 0
	}
	return 4 * math.Sqrt(3) * area / e
}

func (d *decimator) run(target int) {
	for len(d.uses) > target && d.heap.Len() > 0 {
		c := heap.Pop(&d.heap).(collapse)
		if c.from < 0 {
			d.dropPart(-1 - c.from)
			continue
		}
		if !d.alive[c.from] || !d.alive[c.to] || d.stamp[c.from] != c.sFrom || d.stamp[c.to] != c.sTo {
			continue
		}
		if !d.allowed(c.from, c.to) {
			continue
		}
		d.collapse(c.from, c.to)
	}
}

// findParts splits the surface into its connected parts and queues the
// removal of each (a collapse with from -1 - part): a mesh of many parts
// (a robot's bolts and rods) keeps at least four points in each part
// collapses alone leave, where dropping the smallest parts whole leaves
// points for the large ones' shape. The removal costs what collapses do,
// the planes' weights times squared distances: every face of the part moved
// by half its bounding box's diagonal.
func (d *decimator) findParts() {
	np := len(d.pos)
	part := make([]int32, np)
	for p := range part {
		part[p] = -1
	}
	var stack []int32
	for p0 := range part {
		if part[p0] >= 0 || len(d.vf[p0]) == 0 {
			continue
		}
		id := int32(len(d.parts))
		var pts []int32
		part[p0] = id
		stack = append(stack[:0], int32(p0))
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pts = append(pts, p)
			for _, f := range d.vf[p] {
				for _, q := range d.faces[f] {
					if part[q] < 0 {
						part[q] = id
						stack = append(stack, q)
					}
				}
			}
		}
		d.parts = append(d.parts, pts)
	}
	d.nParts = len(d.parts)
	if d.nParts < 2 {
		return
	}
	for id, pts := range d.parts {
		lo, hi := d.pos[pts[0]], d.pos[pts[0]]
		var w float64 // sum of the part's plane weights: each face's is in three points' quadrics
		for _, p := range pts {
			for k := 0; k < 3; k++ {
				lo[k], hi[k] = min(lo[k], d.pos[p][k]), max(hi[k], d.pos[p][k])
			}
			w += d.q[p][0] + d.q[p][4] + d.q[p][7] // trace: a unit normal's weight
		}
		diag := hi.Sub(lo)
		heap.Push(&d.heap, collapse{cost: w / 3 * diag.Dot(diag) / 4, from: -1 - int32(id), to: -1})
	}
}

// dropPart removes part id's faces and points, unless it is the last part
// with faces.
func (d *decimator) dropPart(id int32) {
	if d.nParts <= 1 {
		return
	}
	d.nParts--
	for _, p := range d.parts[id] {
		if !d.alive[p] {
			continue
		}
		for _, f := range d.vf[p] {
			if d.faceOK[f] {
				d.faceOK[f] = false
				for k, q := range d.faces[f] {
					d.unuse(q, d.corner[f][k])
				}
			}
		}
		d.vf[p], d.alive[p] = nil, false
		d.stamp[p]++
		d.live--
	}
}

// collapse moves vertex from onto to: the two faces along the edge go,
// the others of from now use to.
func (d *decimator) collapse(from, to int32) {
	// The faces along the edge pair each of their corners at from with
	// theirs at to: a corner at from that looks like one of them (the same
	// normal, texture coordinates and colour) takes the other's look at to,
	// as a smooth surface's corners all do; a corner across a crease or a
	// seam from them keeps its own.
	var pairs [4][2]int32
	np := 0
	for _, f := range d.vf[from] {
		fc := d.faces[f]
		kf, kt := -1, -1
		for k, p := range fc {
			switch p {
			case from:
				kf = k
			case to:
				kt = k
			}
		}
		if kt >= 0 && np < len(pairs) {
			pairs[np] = [2]int32{d.corner[f][kf], d.corner[f][kt]}
			np++
		}
	}
	for _, f := range d.vf[from] {
		fc := &d.faces[f]
		if fc[0] == to || fc[1] == to || fc[2] == to {
			d.faceOK[f] = false
			for k, w := range fc {
				d.unuse(w, d.corner[f][k])
				if w != from {
					d.vf[w] = removeFace(d.vf[w], f)
				}
			}
			continue
		}
		for k := range fc {
			if fc[k] != from {
				continue
			}
			v := d.corner[f][k]
			d.unuse(from, v)
			for _, pr := range pairs[:np] {
				if d.sameLook(v, pr[0]) {
					v = pr[1]
					break
				}
			}
			fc[k], d.corner[f][k] = to, v
			d.uses[[2]int32{to, v}]++
		}
		d.vf[to] = append(d.vf[to], f)
	}
	d.open[to] = d.open[to] || d.open[from]
	d.vf[from] = nil
	d.alive[from] = false
	d.live--
	d.q[to].add(&d.q[from])
	d.stamp[to]++
	d.pushAround(to)
}

// sameLook reports whether original vertices v and w have the same
// normal, texture coordinates and colour.
func (d *decimator) sameLook(v, w int32) bool {
	return v == w || slices.Equal(d.src.Normals[3*v:3*v+3], d.src.Normals[3*w:3*w+3]) && d.samePaint(v, w)
}

// samePaint reports whether original vertices v and w have the same
// texture coordinates and colour.
func (d *decimator) samePaint(v, w int32) bool {
	b := d.src
	return v == w || (b.UVs == nil || slices.Equal(b.UVs[2*v:2*v+2], b.UVs[2*w:2*w+2])) &&
		(b.Colors == nil || slices.Equal(b.Colors[4*v:4*v+4], b.Colors[4*w:4*w+4]))
}

// unuse drops a live face's corner at point p keeping original vertex v.
func (d *decimator) unuse(p, v int32) {
	k := [2]int32{p, v}
	if d.uses[k]--; d.uses[k] <= 0 {
		delete(d.uses, k)
	}
}

func removeFace(fs []int32, f int32) []int32 {
	for i, g := range fs {
		if g == f {
			fs[i] = fs[len(fs)-1]
			return fs[:len(fs)-1]
		}
	}
	return fs
}

// result compacts the live faces' corners into a new Mesh: one vertex
// per (point, original vertex), in that order, with the point's position
// and skinning and the original vertex's normal, texture coordinates and
// colour. A closed mesh of distinct points comes out as its live
// vertices in their original order.
func (d *decimator) result() Mesh {
	b := d.src
	out := Mesh{BindInv: append(b.BindInv[:0:0], b.BindInv...), Image: b.Image}
	keys := make([][2]int32, 0, len(d.uses))
	for k := range d.uses {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y [2]int32) int {
		if c := cmp.Compare(x[0], y[0]); c != 0 {
			return c
		}
		return cmp.Compare(x[1], y[1])
	})
	index := make(map[[2]int32]uint16, len(keys))
	for i, k := range keys {
		index[k] = uint16(i)
		p, v := int(d.rep[k[0]]), int(k[1])
		out.Positions = append(out.Positions, b.Positions[3*p:3*p+3]...)
		out.Normals = append(out.Normals, b.Normals[3*v:3*v+3]...)
		out.BoneIDs = append(out.BoneIDs, b.BoneIDs[4*p:4*p+4]...)
		out.BoneWeights = append(out.BoneWeights, b.BoneWeights[4*p:4*p+4]...)
		if b.UVs != nil {
			out.UVs = append(out.UVs, b.UVs[2*v:2*v+2]...)
		}
		if b.Colors != nil {
			out.Colors = append(out.Colors, b.Colors[4*v:4*v+4]...)
		}
	}
	for f, fc := range d.faces {
		if d.faceOK[f] {
			for k, p := range fc {
				out.Indices = append(out.Indices, index[[2]int32{p, d.corner[f][k]}])
			}
		}
	}
	return out
}
