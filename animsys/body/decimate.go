package body

import (
	"container/heap"
	"math"

	"kinelab/animsys/mathx/mathx64"
)

// Decimate returns a copy of the closed body mesh b with about target
// vertices, made by edge collapses in order of quadric error (Garland and
// Heckbert, "Surface simplification using quadric error metrics", 1997).
//
// Each collapse moves one end of an edge onto the other (a half-edge
// collapse), so every vertex left keeps its original position, normal and
// bone weights exactly: the coarse body skins like the fine one it came
// from. The cost of a collapse is the sum of squared distances (m², each
// plane weighted by its face's area over the mean) of the kept position
// from the planes of the original faces merged into either end, plus
// decSkinWeight times the squared edge length for each unit of weight the
// two ends disagree on (so joints keep rings of vertices to bend at).
// A collapse that would fold the surface (a face turning by more than
// about 72°), pinch it (an edge joining more than two faces), flatten a
// tetrahedron or leave a sliver is skipped.
//
// Under a software renderer a crowd's drawing costs about in proportion
// to its triangles, and a mesh simplified this way keeps thin limbs whole
// at far fewer triangles than a surface grid of coarser cells.
// target is clamped to at least 4; a mesh that cannot be simplified that
// far stops where no collapse is allowed.
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

type decimator struct {
	src    *Mesh
	pos    []mathx64.Vec3
	q      []quadric
	faces  [][3]int32
	faceOK []bool
	vf     [][]int32 // faces around each vertex
	alive  []bool
	stamp  []uint32 // bumped when a vertex's quadric or faces change
	live   int
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

func newDecimator(b *Mesh) *decimator {
	nv, nf := b.VertexCount(), b.TriangleCount()
	d := &decimator{src: b, pos: make([]mathx64.Vec3, nv), q: make([]quadric, nv),
		faces: make([][3]int32, nf), faceOK: make([]bool, nf), vf: make([][]int32, nv),
		alive: make([]bool, nv), stamp: make([]uint32, nv), live: nv, mark: make([]int32, nv)}
	for v := range d.pos {
		d.pos[v] = mathx64.Vec3{float64(b.Positions[3*v]), float64(b.Positions[3*v+1]), float64(b.Positions[3*v+2])}
		d.alive[v] = true
	}
	// Area-weighted plane quadrics, areas relative to the mean so that
	// costs are squared distances (m²).
	normals, areas := make([]mathx64.Vec3, nf), make([]float64, nf)
	var total float64
	for f := range d.faces {
		for k := 0; k < 3; k++ {
			d.faces[f][k] = int32(b.Indices[3*f+k])
		}
		d.faceOK[f] = true
		normals[f], areas[f] = d.normal(d.faces[f])
		total += areas[f]
	}
	mean := max(total/float64(max(nf, 1)), 1e-12)
	for f, fc := range d.faces {
		n := normals[f]
		pq := planeQuadric(n, -n.Dot(d.pos[fc[0]]), areas[f]/mean)
		for _, v := range fc {
			d.q[v].add(&pq)
			d.vf[v] = append(d.vf[v], int32(f))
		}
	}
	// Each directed edge once: from every vertex to each neighbour.
	for v := range d.pos {
		for _, w := range d.neighbours(int32(v)) {
			d.push(int32(v), w)
		}
	}
	return d
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
	cost := q.eval(p) + decSkinWeight*d.skinDiff(from, to)*e.Dot(e)
	heap.Push(&d.heap, collapse{cost: max(cost, 0), from: from, to: to, sFrom: d.stamp[from], sTo: d.stamp[to]})
}

// skinDiff is the L1 distance (0 to 2) between two vertices' bone
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
// closed manifold without folds or slivers.
func (d *decimator) allowed(from, to int32) bool {
	// Link condition: the ends' common neighbours must be exactly the
	// two faces' third vertices along the edge.
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
	if shared != 2 || common != 2 {
		return false
	}
	// ... and the edge between those two third vertices must not border
	// a face of each end: that is a tetrahedron, which the collapse would
	// flatten into two faces back to back.
	if d.hasFace(from, third) && d.hasFace(to, third) {
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
	for d.live > target && d.heap.Len() > 0 {
		c := heap.Pop(&d.heap).(collapse)
		if !d.alive[c.from] || !d.alive[c.to] || d.stamp[c.from] != c.sFrom || d.stamp[c.to] != c.sTo {
			continue
		}
		if !d.allowed(c.from, c.to) {
			continue
		}
		d.collapse(c.from, c.to)
	}
}

// collapse moves vertex from onto to: the two faces along the edge go,
// the others of from now use to.
func (d *decimator) collapse(from, to int32) {
	for _, f := range d.vf[from] {
		fc := &d.faces[f]
		if fc[0] == to || fc[1] == to || fc[2] == to {
			d.faceOK[f] = false
			for _, w := range fc {
				if w != from {
					d.vf[w] = removeFace(d.vf[w], f)
				}
			}
			continue
		}
		for k := range fc {
			if fc[k] == from {
				fc[k] = to
			}
		}
		d.vf[to] = append(d.vf[to], f)
	}
	d.vf[from] = nil
	d.alive[from] = false
	d.live--
	d.q[to].add(&d.q[from])
	d.stamp[to]++
	d.pushAround(to)
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

// result compacts the live vertices and faces into a new Mesh.
func (d *decimator) result() Mesh {
	b := d.src
	out := Mesh{BindInv: append(b.BindInv[:0:0], b.BindInv...)}
	remap := make([]int32, len(d.pos))
	for v := range d.pos {
		remap[v] = -1
		if !d.alive[v] || len(d.vf[v]) == 0 {
			continue
		}
		remap[v] = int32(out.VertexCount())
		out.Positions = append(out.Positions, b.Positions[3*v:3*v+3]...)
		out.Normals = append(out.Normals, b.Normals[3*v:3*v+3]...)
		out.BoneIDs = append(out.BoneIDs, b.BoneIDs[4*v:4*v+4]...)
		out.BoneWeights = append(out.BoneWeights, b.BoneWeights[4*v:4*v+4]...)
	}
	for f, fc := range d.faces {
		if d.faceOK[f] {
			out.Indices = append(out.Indices, uint16(remap[fc[0]]), uint16(remap[fc[1]]), uint16(remap[fc[2]]))
		}
	}
	return out
}
