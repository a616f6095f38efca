package body

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// This file holds the body's implicit surface: the field of the solids'
// smooth union sampled on a grid, its extraction into a mesh with surface
// nets, welding, normals and the skin weights of every vertex.

// bodyField is the body's implicit surface sampled on a grid: the smooth union
// of the solids, negative inside. Blocks of blockCells^3 cells list the
// solids that can matter in them, so each sample visits only a few.
type bodyField struct {
	solids     []solid
	k          float32 // widest smooth union
	h          float32 // cell size
	lo         mgl32.Vec3
	nx, ny, nz int
	bx, by, bz int
	blocks     [][]int32
	v          []float32
}

const (
	blockCells    = 8       // grid cells per block edge
	maxGridPoints = 1 << 23 // samples (32 MB); a larger box gets coarser cells
)

func newBodyField(solids []solid, h float32) *bodyField {
	f := &bodyField{solids: solids, h: h}
	for _, sh := range solids {
		f.k = max(f.k, sh.inner, sh.outer)
	}
	lo, hi := solids[0].lo, solids[0].hi
	for _, sh := range solids[1:] {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = min(lo[a], sh.lo[a]), max(hi[a], sh.hi[a])
		}
	}
	pad := mgl32.Vec3{1, 1, 1}.Mul(2*h + f.k)
	size := hi.Sub(lo).Add(pad.Mul(2))
	if points := size[0] * size[1] * size[2] / (h * h * h); points > maxGridPoints {
		h *= float32(math.Cbrt(float64(points / maxGridPoints))) // a stray far joint: coarser
		f.h = h
		pad = mgl32.Vec3{1, 1, 1}.Mul(2*h + f.k)
		size = hi.Sub(lo).Add(pad.Mul(2))
	}
	f.lo = lo.Sub(pad)
	f.nx, f.ny, f.nz = int(size[0]/h)+2, int(size[1]/h)+2, int(size[2]/h)+2
	f.bx, f.by, f.bz = (f.nx+blockCells-1)/blockCells, (f.ny+blockCells-1)/blockCells, (f.nz+blockCells-1)/blockCells
	f.blocks = make([][]int32, f.bx*f.by*f.bz)
	margin := f.k + 3*h
	for bk := 0; bk < f.bz; bk++ {
		for bj := 0; bj < f.by; bj++ {
			for bi := 0; bi < f.bx; bi++ {
				blo := f.point(bi*blockCells, bj*blockCells, bk*blockCells)
				bhi := blo.Add(mgl32.Vec3{1, 1, 1}.Mul(float32(blockCells) * h))
				var list []int32
				for i := range solids {
					sh := &solids[i]
					if sh.lo[0] <= bhi[0]+margin && sh.hi[0] >= blo[0]-margin &&
						sh.lo[1] <= bhi[1]+margin && sh.hi[1] >= blo[1]-margin &&
						sh.lo[2] <= bhi[2]+margin && sh.hi[2] >= blo[2]-margin {
						list = append(list, int32(i))
					}
				}
				f.blocks[(bk*f.by+bj)*f.bx+bi] = list
			}
		}
	}
	f.v = make([]float32, f.nx*f.ny*f.nz)
	for bk := 0; bk < f.bz; bk++ {
		for bj := 0; bj < f.by; bj++ {
			for bi := 0; bi < f.bx; bi++ {
				f.sample(bi*blockCells, bj*blockCells, bk*blockCells, blockCells, f.blocks[(bk*f.by+bj)*f.bx+bi])
			}
		}
	}
	return f
}

// sample fills the field on the size^3 points from (i, j, k). When the
// value at their centre shows that the surface is further away than the
// box reaches (the field changes at most slope per unit length), every
// point gets that value: the whole box is inside or outside and no sign
// change can touch it. Otherwise it samples the eight half-size boxes.
func (f *bodyField) sample(i, j, k, size int, list []int32) {
	if i >= f.nx || j >= f.ny || k >= f.nz {
		return
	}
	if size == 1 {
		f.v[f.index(i, j, k)] = f.eval(f.point(i, j, k), list)
		return
	}
	slope := float32(1.25) // ellipsoids' approximate distance
	for _, s := range list {
		slope = max(slope, (1+f.solids[s].flat)/(2*f.solids[s].flat))
	}
	span := float32(size-1) * f.h
	v := f.eval(f.point(i, j, k).Add(mgl32.Vec3{span, span, span}.Mul(0.5)), list)
	if len(list) == 0 || abs32(v) > slope*(0.87*span+f.h) { // 0.87 > sqrt(3)/2
		for z := k; z < min(k+size, f.nz); z++ {
			for y := j; y < min(j+size, f.ny); y++ {
				for x := i; x < min(i+size, f.nx); x++ {
					f.v[f.index(x, y, z)] = v
				}
			}
		}
		return
	}
	h := size / 2
	for c := 0; c < 8; c++ {
		f.sample(i+c&1*h, j+c>>1&1*h, k+c>>2&1*h, h, list)
	}
}

func (f *bodyField) index(i, j, k int) int { return (k*f.ny+j)*f.nx + i }

func (f *bodyField) point(i, j, k int) mgl32.Vec3 {
	return f.lo.Add(mgl32.Vec3{float32(i), float32(j), float32(k)}.Mul(f.h))
}

// listAt is the list of solids that matter near p.
func (f *bodyField) listAt(p mgl32.Vec3) []int32 {
	c := p.Sub(f.lo).Mul(1 / (f.h * blockCells))
	i := max(0, min(f.bx-1, int(c[0])))
	j := max(0, min(f.by-1, int(c[1])))
	k := max(0, min(f.bz-1, int(c[2])))
	return f.blocks[(k*f.by+j)*f.bx+i]
}

// eval is the body's field at p from the solids in list: a smooth union
// (polynomial smooth minimum) inside each group, then of the groups; far
// from every solid it is a positive constant.
func (f *bodyField) eval(p mgl32.Vec3, list []int32) float32 {
	const far = 1e9
	d, g := float32(far), float32(far)
	group := -1
	var outer float32
	for _, i := range list {
		sh := &f.solids[i]
		e := sh.dist(p)
		if sh.group != group {
			d = smin(d, g, outer)
			group, g, outer = sh.group, e, sh.outer
			continue
		}
		g = smin(g, e, sh.inner)
	}
	return smin(d, g, outer)
}

// smin is the polynomial smooth minimum of a and b over width k (min if k
// is 0).
func smin(a, b, k float32) float32 {
	if h := k - abs32(a-b); h > 0 {
		return min(a, b) - h*h/(4*k)
	}
	return min(a, b)
}

func (f *bodyField) grad(p mgl32.Vec3, list []int32) mgl32.Vec3 {
	e := 0.25 * f.h
	var g mgl32.Vec3
	for a := 0; a < 3; a++ {
		var o mgl32.Vec3
		o[a] = e
		g[a] = (f.eval(p.Add(o), list) - f.eval(p.Sub(o), list)) / (2 * e)
	}
	return g
}

// mesh extracts the surface with surface nets: one vertex per cell the
// surface crosses, one quad per grid edge it crosses. Vertices are then
// pulled onto the surface and given its normal. ok is false when the mesh
// would need more than 16-bit indices.
func (f *bodyField) mesh() (m Mesh, ok bool) {
	cell, pos, ok := f.cellVertices()
	if !ok {
		return m, false
	}
	m.Indices = f.quads(cell, pos)
	m.Positions, m.Normals = f.project(pos)
	weld(&m, 0.1*f.h)
	return m, true
}

// cellVertices places a vertex in every cell the surface crosses; cell
// holds each cell's vertex (-1 for none). ok is false past maxVerts
// vertices.
func (f *bodyField) cellVertices() (cell []int32, pos []mgl32.Vec3, ok bool) {
	cx, cy, cz := f.nx-1, f.ny-1, f.nz-1
	cell = make([]int32, cx*cy*cz)
	for k := 0; k < cz; k++ {
		for j := 0; j < cy; j++ {
			for i := 0; i < cx; i++ {
				ci := (k*cy+j)*cx + i
				cell[ci] = -1
				p, crossed := f.cellVertex(i, j, k)
				if !crossed {
					continue
				}
				if len(pos) >= maxVerts {
					return nil, nil, false
				}
				cell[ci] = int32(len(pos))
				pos = append(pos, p)
			}
		}
	}
	return cell, pos, true
}

// cellVertex is the vertex of cell (i, j, k): the mean of the points
// where the surface crosses its edges; false when the cell lies wholly
// inside or outside.
func (f *bodyField) cellVertex(i, j, k int) (mgl32.Vec3, bool) {
	var corner [8]float32
	mask := 0
	for c := 0; c < 8; c++ {
		corner[c] = f.v[f.index(i+c&1, j+c>>1&1, k+c>>2&1)]
		if corner[c] < 0 {
			mask |= 1 << c
		}
	}
	if mask == 0 || mask == 255 {
		return mgl32.Vec3{}, false
	}
	var sum mgl32.Vec3
	n := 0
	for c := 0; c < 8; c++ {
		for _, bit := range [3]int{1, 2, 4} {
			if c&bit != 0 || (corner[c] < 0) == (corner[c|bit] < 0) {
				continue
			}
			t := corner[c] / (corner[c] - corner[c|bit])
			p := mgl32.Vec3{float32(c & 1), float32(c >> 1 & 1), float32(c >> 2 & 1)}
			p[bit>>1] += t // bit 1, 2, 4 -> axis 0, 1, 2
			sum = sum.Add(p)
			n++
		}
	}
	return f.point(i, j, k).Add(sum.Mul(f.h / float32(n))), true
}

// quads returns the triangles of one quad per grid edge the surface
// crosses, joining the four cells around the edge. Edges are visited
// tile by tile so that quads sharing vertices come close together in the
// index list (the GPU then shades fewer vertices twice).
func (f *bodyField) quads(cell []int32, pos []mgl32.Vec3) []uint16 {
	var idx []uint16
	const tile = 6
	for tk := 0; tk < f.nz; tk += tile {
		for tj := 0; tj < f.ny; tj += tile {
			for ti := 0; ti < f.nx; ti += tile {
				for k := tk; k < min(tk+tile, f.nz); k++ {
					for j := tj; j < min(tj+tile, f.ny); j++ {
						for i := ti; i < min(ti+tile, f.nx); i++ {
							idx = f.edgeQuads(idx, cell, pos, [3]int{i, j, k})
						}
					}
				}
			}
		}
	}
	return idx
}

// edgeQuads appends to idx the quads of the three grid edges from grid
// point p toward +x, +y and +z that the surface crosses, each split
// into two triangles along its shorter diagonal.
func (f *bodyField) edgeQuads(idx []uint16, cell []int32, pos []mgl32.Vec3, p [3]int) []uint16 {
	cx, cy := f.nx-1, f.ny-1
	cdim := [3]int{cx, cy, f.nz - 1}
	ndim := [3]int{f.nx, f.ny, f.nz}
	in := f.v[f.index(p[0], p[1], p[2])] < 0
	for a := 0; a < 3; a++ {
		q := p
		q[a]++
		if q[a] >= ndim[a] || (f.v[f.index(q[0], q[1], q[2])] < 0) == in {
			continue
		}
		b, c := (a+1)%3, (a+2)%3
		if p[b] < 1 || p[c] < 1 || p[b] > cdim[b]-1 || p[c] > cdim[c]-1 {
			continue
		}
		// Cells (b-1, c-1), (b, c-1), (b, c), (b-1, c) turn
		// counter-clockwise about +a, the outward side when p is in.
		var quad [4]int32
		for n, off := range [4][2]int{{1, 1}, {0, 1}, {0, 0}, {1, 0}} {
			cc := p
			cc[b] -= off[0]
			cc[c] -= off[1]
			quad[n] = cell[(cc[2]*cy+cc[1])*cx+cc[0]]
		}
		if !in {
			quad[1], quad[3] = quad[3], quad[1]
		}
		if pos[quad[0]].Sub(pos[quad[2]]).Len() > pos[quad[1]].Sub(pos[quad[3]]).Len() {
			quad = [4]int32{quad[1], quad[2], quad[3], quad[0]} // split along the shorter diagonal
		}
		idx = append(idx,
			uint16(quad[0]), uint16(quad[1]), uint16(quad[2]),
			uint16(quad[0]), uint16(quad[2]), uint16(quad[3]))
	}
	return idx
}

// project pulls each vertex onto the surface (two Newton steps on the
// field, each at most half a cell) and takes the field's gradient as its
// normal.
func (f *bodyField) project(pos []mgl32.Vec3) (positions, normals []float32) {
	positions = make([]float32, 0, 3*len(pos))
	normals = make([]float32, 0, 3*len(pos))
	e := 0.1 * f.h
	for _, p := range pos {
		list := f.listAt(p)
		for it := 0; it < 2; it++ {
			v := f.eval(p, list)
			g := mgl32.Vec3{
				f.eval(p.Add(mgl32.Vec3{e, 0, 0}), list) - v,
				f.eval(p.Add(mgl32.Vec3{0, e, 0}), list) - v,
				f.eval(p.Add(mgl32.Vec3{0, 0, e}), list) - v,
			}.Mul(1 / e)
			g2 := g.Dot(g)
			if g2 < 1e-12 {
				break
			}
			step := g.Mul(-v / g2)
			if l := step.Len(); l > 0.5*f.h {
				step = step.Mul(0.5 * f.h / l)
			}
			p = p.Add(step)
		}
		g := f.grad(p, list)
		if g.Len() < 1e-12 {
			g = mgl32.Vec3{0, 1, 0}
		}
		g = g.Normalize()
		positions = append(positions, p[0], p[1], p[2])
		normals = append(normals, g[0], g[1], g[2])
	}
	return positions, normals
}

// weld merges the ends of every edge shorter than eps (at sharp tips the
// projection can pull two cells' vertices onto one point) and drops the
// triangles that collapse; collapsing an edge of a closed mesh leaves it
// closed. It then numbers the vertices in order of first use, so the
// vertex data is read in the order the triangles need it.
func weld(m *Mesh, eps float32) {
	nv := m.VertexCount()
	root := make([]int32, nv)
	for i := range root {
		root[i] = int32(i)
	}
	find := func(i int32) int32 {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	at := func(i uint16) mgl32.Vec3 { return mgl32.Vec3{m.Positions[3*i], m.Positions[3*i+1], m.Positions[3*i+2]} }
	for t := 0; t < len(m.Indices); t += 3 {
		for k := 0; k < 3; k++ {
			a, b := m.Indices[t+k], m.Indices[t+(k+1)%3]
			if at(a).Sub(at(b)).Len() < eps {
				ra, rb := find(int32(a)), find(int32(b))
				root[max(ra, rb)] = min(ra, rb)
			}
		}
	}
	remap := make([]int32, nv)
	for i := range remap {
		remap[i] = -1
	}
	pos := make([]float32, 0, len(m.Positions))
	nrm := make([]float32, 0, len(m.Normals))
	idx := m.Indices[:0]
	for t := 0; t+2 < len(m.Indices); t += 3 {
		var tri [3]int32
		for k := range tri {
			tri[k] = find(int32(m.Indices[t+k]))
		}
		if tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] {
			continue
		}
		for _, v := range tri {
			if remap[v] < 0 {
				remap[v] = int32(len(pos) / 3)
				pos = append(pos, m.Positions[3*v:3*v+3]...)
				nrm = append(nrm, m.Normals[3*v:3*v+3]...)
			}
			idx = append(idx, uint16(remap[v]))
		}
	}
	m.Positions, m.Normals, m.Indices = pos, nrm, idx
}

// skin gives every vertex up to four joints. Each solid scores how far it
// is from claiming the vertex: how much further its surface is than the
// nearest solid's, or how far the vertex lies past either end of its bone
// (the part of a limb past a joint belongs to the next bone), whichever
// is more. The best score gets influence 1, and influence falls to 0 at
// fade worse; a joint takes its best solid's. The fifth-largest influence
// is subtracted from the top four so that weights stay continuous as
// joints enter and leave the top four, and the rest are normalised.
func (f *bodyField) skin(m *Mesh, fade float32) {
	nv := m.VertexCount()
	m.BoneIDs = make([]float32, 4*nv)
	m.BoneWeights = make([]float32, 4*nv)
	type inf struct {
		joint int
		w     float32
	}
	var infs []inf
	var score []float32
	for v := 0; v < nv; v++ {
		p := mgl32.Vec3{m.Positions[3*v], m.Positions[3*v+1], m.Positions[3*v+2]}
		list := f.listAt(p)
		score = score[:0]
		dmin := float32(math.Inf(1))
		for _, i := range list {
			d := f.solids[i].dist(p)
			score = append(score, d)
			dmin = min(dmin, d)
		}
		best := float32(math.Inf(1))
		for n, i := range list {
			score[n] = max(score[n]-dmin, f.solids[i].beyond(p))
			best = min(best, score[n])
		}
		infs = infs[:0]
		for n, i := range list {
			w := 1 - (score[n]-best)/fade
			if w <= 0 {
				continue
			}
			w *= w
			j := f.solids[i].joint
			found := false
			for x := range infs {
				if infs[x].joint == j {
					infs[x].w = max(infs[x].w, w)
					found = true
				}
			}
			if !found {
				infs = append(infs, inf{j, w})
			}
		}
		// Sort by weight, largest first (few entries: insertion sort).
		for x := 1; x < len(infs); x++ {
			for y := x; y > 0 && infs[y].w > infs[y-1].w; y-- {
				infs[y], infs[y-1] = infs[y-1], infs[y]
			}
		}
		if len(infs) > 4 {
			cut := infs[4].w
			infs = infs[:4]
			if infs[0].w-cut > 1e-6 {
				for x := range infs {
					infs[x].w -= cut
				}
			}
		}
		sum := float32(0)
		for _, in := range infs {
			sum += in.w
		}
		if sum == 0 { // no solid near: not on the surface
			infs, sum = append(infs, inf{0, 1}), 1
		}
		for x, in := range infs {
			m.BoneIDs[4*v+x] = float32(in.joint)
			m.BoneWeights[4*v+x] = in.w / sum
		}
	}
}
