package body

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx/mathx64"
)

// closedManifold fails t unless every edge of b is shared by exactly two
// faces with opposite directions (closed, oriented, manifold), no face is
// degenerate, and every vertex is used.
func closedManifold(t *testing.T, name string, b *Mesh) {
	t.Helper()
	type edge struct{ a, b uint16 }
	dir := map[edge]int{}
	used := make([]bool, b.VertexCount())
	for f := 0; f < b.TriangleCount(); f++ {
		i := b.Indices[3*f : 3*f+3]
		if i[0] == i[1] || i[1] == i[2] || i[2] == i[0] {
			t.Fatalf("%s: face %d is degenerate: %v", name, f, i)
		}
		for k := 0; k < 3; k++ {
			dir[edge{i[k], i[(k+1)%3]}]++
			used[i[k]] = true
		}
	}
	for e, n := range dir {
		if n != 1 || dir[edge{e.b, e.a}] != 1 {
			t.Fatalf("%s: edge %d-%d used %d times one way, %d the other", name, e.a, e.b, n, dir[edge{e.b, e.a}])
		}
	}
	for v, u := range used {
		if !u {
			t.Fatalf("%s: vertex %d unused", name, v)
		}
	}
}

// pointTriDist is the distance from p to triangle abc.
func pointTriDist(p, a, b, c mathx64.Vec3) float64 {
	// Project onto the plane, then fall back to the edges if outside.
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	n := ab.Cross(ac)
	nn := n.Dot(n)
	if nn > 0 {
		// Barycentrics of the projection.
		v := ap.Cross(ac).Dot(n) / nn
		w := ab.Cross(ap).Dot(n) / nn
		if v >= 0 && w >= 0 && v+w <= 1 {
			return math.Abs(ap.Dot(n)) / math.Sqrt(nn)
		}
	}
	seg := func(p, a, b mathx64.Vec3) float64 {
		ab, ap := b.Sub(a), p.Sub(a)
		t := 0.0
		if l := ab.Dot(ab); l > 0 {
			t = math.Max(0, math.Min(1, ap.Dot(ab)/l))
		}
		return ap.Sub(ab.Scale(t)).Len()
	}
	return math.Min(seg(p, a, b), math.Min(seg(p, b, c), seg(p, c, a)))
}

func vtx(b *Mesh, i int) mathx64.Vec3 {
	return mathx64.Vec3{float64(b.Positions[3*i]), float64(b.Positions[3*i+1]), float64(b.Positions[3*i+2])}
}

// surfaceError is the largest and the mean distance (m) from every third
// vertex of fine (about 3,000 of the default body's, which sit 1.6 cm
// apart) to the surface of coarse.
func surfaceError(fine, coarse *Mesh) (maxD, meanD float64) {
	n := 0
	for v := 0; v < fine.VertexCount(); v += 3 {
		n++
		p := vtx(fine, v)
		best := math.Inf(1)
		for f := 0; f < coarse.TriangleCount(); f++ {
			i := coarse.Indices[3*f : 3*f+3]
			best = math.Min(best, pointTriDist(p, vtx(coarse, int(i[0])), vtx(coarse, int(i[1])), vtx(coarse, int(i[2]))))
		}
		maxD = math.Max(maxD, best)
		meanD += best
	}
	return maxD, meanD / float64(n)
}

// TestDecimate: the bench skeleton's default body (about 9,000 vertices)
// simplified to crowd sizes stays a closed oriented manifold near the
// original surface, and every vertex left is an original one with its
// normal and bone weights unchanged. At 250 vertices it is nearer the
// fine surface than the surface grid's crowd body of about 500.
func TestDecimate(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	fine := generate(s.Parents, pos, rot, s.Names)
	closedManifold(t, "fine", &fine)
	index := map[[3]float32]int{}
	for v := 0; v < fine.VertexCount(); v++ {
		index[[3]float32(fine.Positions[3*v:3*v+3])] = v
	}
	grid := generateCell(s.Parents, pos, rot, s.Names, CellCrowd)
	gridMax, gridMean := surfaceError(&fine, &grid)
	t.Logf("surface grid, cell %.3f m: %d vertices; distance of the fine surface: max %.1f mm, mean %.2f mm",
		CellCrowd, grid.VertexCount(), gridMax*1e3, gridMean*1e3)
	prev := fine
	for _, tc := range []struct {
		target      int
		maxD, meanD float64 // m: limits on surfaceError
	}{
		// The Crowd lab's levels, each from the one before. Limits about
		// 1.5x what was measured: the body is about 1.75 m tall, its
		// wrists about 6 cm across.
		{250, 0.035, 0.0055},
		{150, 0.05, 0.009},
		{100, 0.14, 0.014}, // a hand gone to a stub: far away only

	} {
		t0 := time.Now()
		c := Decimate(&prev, tc.target)
		el := time.Since(t0)
		name := "decimated to " + itoa(tc.target)
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		closedManifold(t, name, &c)
		if n := c.VertexCount(); n > tc.target+tc.target/20 || n < tc.target-tc.target/20 {
			t.Errorf("%s: %d vertices", name, n)
		}
		for v := 0; v < c.VertexCount(); v++ {
			o, ok := index[[3]float32(c.Positions[3*v:3*v+3])]
			if !ok {
				t.Fatalf("%s: vertex %d is not an original vertex", name, v)
			}
			for k := 0; k < 3; k++ {
				if c.Normals[3*v+k] != fine.Normals[3*o+k] {
					t.Fatalf("%s: vertex %d's normal changed", name, v)
				}
			}
			for k := 0; k < 4; k++ {
				if c.BoneIDs[4*v+k] != fine.BoneIDs[4*o+k] || c.BoneWeights[4*v+k] != fine.BoneWeights[4*o+k] {
					t.Fatalf("%s: vertex %d's skinning changed", name, v)
				}
			}
		}
		maxD, meanD := surfaceError(&fine, &c)
		t.Logf("%s: %d vertices, %d triangles in %v; distance of the fine surface: max %.1f mm, mean %.2f mm",
			name, c.VertexCount(), c.TriangleCount(), el.Round(time.Millisecond), maxD*1e3, meanD*1e3)
		if maxD > tc.maxD || meanD > tc.meanD {
			t.Errorf("%s: max %.1f mm (limit %.0f), mean %.2f mm (limit %.1f)", name, maxD*1e3, tc.maxD*1e3, meanD*1e3, tc.meanD*1e3)
		}
		if tc.target == 250 && (maxD >= gridMax || meanD >= gridMean) {
			t.Errorf("%s: max %.1f mm, mean %.2f mm; the %d-vertex grid body is nearer (%.1f, %.2f)",
				name, maxD*1e3, meanD*1e3, grid.VertexCount(), gridMax*1e3, gridMean*1e3)
		}
		prev = c
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// TestDecimateLimits: a target at or above the vertex count changes
// nothing; a target of 0 stops where no collapse is allowed, still a
// closed manifold of at least 4 vertices.
func TestDecimateLimits(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	// A coarse body (900 vertices) that is still a closed manifold: at
	// cells above 0.04 surface nets can join two sheets of a hand or foot
	// at one edge, and a decimator only promises not to add such edges.
	b := generateCell(s.Parents, pos, rot, s.Names, 0.04)
	closedManifold(t, "source", &b)
	same := Decimate(&b, b.VertexCount())
	if same.VertexCount() != b.VertexCount() || len(same.Indices) != len(b.Indices) {
		t.Errorf("target = vertex count: %d vertices, %d indices from %d, %d", same.VertexCount(), len(same.Indices), b.VertexCount(), len(b.Indices))
	}
	least := Decimate(&b, 0)
	closedManifold(t, "decimated to 0", &least)
	t.Logf("target 0: %d vertices, %d triangles left", least.VertexCount(), least.TriangleCount())
	if least.VertexCount() < 4 {
		t.Errorf("target 0: %d vertices", least.VertexCount())
	}
}

// TestSkinDiff: the L1 distance between two vertices' weights, per joint,
// whatever the order of the influences, with a joint listed twice added up
// and zero weights ignored.
func TestSkinDiff(t *testing.T) {
	b := Mesh{
		BoneIDs: []float32{
			3, 0, 0, 0, // all on joint 3
			3, 5, 0, 0, // 0.6 on 3, 0.4 on 5
			5, 3, 0, 0, // the same, listed the other way round
			0, 3, 0, 0, // 0.5 on 0, 0.5 on 3
			3, 3, 0, 0, // joint 3 twice: all on 3
		},
		BoneWeights: []float32{
			1, 0, 0, 0,
			0.6, 0.4, 0, 0,
			0.4, 0.6, 0, 0,
			0.5, 0.5, 0, 0,
			0.25, 0.75, 0, 0,
		},
	}
	d := &decimator{src: &b}
	for _, tc := range []struct {
		a, b int32
		want float64
	}{
		{0, 0, 0}, {0, 1, 0.8}, {1, 0, 0.8}, {1, 2, 0}, {0, 3, 1}, {0, 4, 0}, {3, 4, 1}, {1, 3, 1},
	} {
		if got := d.skinDiff(tc.a, tc.b); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("skinDiff(%d, %d) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestDecimateTetrahedra: a tetrahedron cannot lose a vertex: collapsing
// any edge would flatten it into two faces back to back, which the link
// condition on edges refuses. Of a mesh of two, the smaller goes whole
// first, and the larger stays as it was.
func TestDecimateTetrahedra(t *testing.T) {
	var b Mesh
	for k, size := range []float32{1, 0.2} {
		o := float32(3 * k)
		for _, p := range [][3]float32{{o, 0, 0}, {o + size, 0, 0}, {o, size, 0}, {o, 0, size}} {
			b.Positions = append(b.Positions, p[:]...)
			b.Normals = append(b.Normals, 0, 1, 0)
			b.BoneIDs = append(b.BoneIDs, 0, 0, 0, 0)
			b.BoneWeights = append(b.BoneWeights, 1, 0, 0, 0)
		}
		v := uint16(4 * k)
		b.Indices = append(b.Indices, v, v+2, v+1, v, v+1, v+3, v, v+3, v+2, v+1, v+2, v+3)
	}
	b.BindInv = make([]mgl32.Mat4, 1)
	closedManifold(t, "two tetrahedra", &b)
	if d := Decimate(&b, 8); d.VertexCount() != 8 || len(d.Indices) != len(b.Indices) {
		t.Errorf("target 8: %d vertices, %d indices; want all 8, %d", d.VertexCount(), len(d.Indices), len(b.Indices))
	}
	for _, target := range []int{4, 0} {
		d := Decimate(&b, target)
		closedManifold(t, "decimated", &d)
		if d.VertexCount() != 4 || !slices.Equal(d.Positions, b.Positions[:12]) || !slices.Equal(d.Indices, b.Indices[:12]) {
			t.Errorf("target %d: %d vertices at %v, want the large tetrahedron's 4", target, d.VertexCount(), d.Positions)
		}
	}
}

// flatShaded splits b into a vertex per face corner with the face's
// normal, and colours each face by the side of y = mid its centre is on.
func flatShaded(b *Mesh, mid float32) Mesh {
	out := Mesh{BindInv: b.BindInv}
	for f := 0; f < b.TriangleCount(); f++ {
		var p [3]mgl32.Vec3
		for k := range p {
			p[k] = mgl32.Vec3(b.Positions[3*int(b.Indices[3*f+k]) : 3*int(b.Indices[3*f+k])+3])
		}
		n := p[1].Sub(p[0]).Cross(p[2].Sub(p[0])).Normalize()
		col := []uint8{200, 120, 40, 255}
		if (p[0][1]+p[1][1]+p[2][1])/3 > mid {
			col = []uint8{40, 40, 40, 255}
		}
		for k := range p {
			v := int(b.Indices[3*f+k])
			out.Indices = append(out.Indices, uint16(out.VertexCount()))
			out.Positions = append(out.Positions, p[k][:]...)
			out.Normals = append(out.Normals, n[:]...)
			out.BoneIDs = append(out.BoneIDs, b.BoneIDs[4*v:4*v+4]...)
			out.BoneWeights = append(out.BoneWeights, b.BoneWeights[4*v:4*v+4]...)
			out.Colors = append(out.Colors, col...)
		}
	}
	return out
}

// weldedManifold fails t unless b, its vertices welded by position, is a
// closed oriented manifold.
func weldedManifold(t *testing.T, name string, b *Mesh) {
	t.Helper()
	at := map[[3]float32]uint16{}
	w := Mesh{Indices: make([]uint16, len(b.Indices))}
	for i, v := range b.Indices {
		p := [3]float32(b.Positions[3*int(v) : 3*int(v)+3])
		id, ok := at[p]
		if !ok {
			id = uint16(len(at))
			at[p] = id
		}
		w.Indices[i] = id
	}
	w.Positions = make([]float32, 3*len(at))
	closedManifold(t, name+", welded", &w)
}

// TestDecimateFlatShaded: a mesh with a vertex per face corner (hard
// edges everywhere, two colours) simplifies as the surface it is: to the
// target's vertices (corners of one point with different normals or
// colours counted apart), closed once welded, every vertex an original
// position with its skinning and an original normal with a colour it had,
// and about as near the fine surface as the smooth body of as many
// triangles.
func TestDecimateFlatShaded(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	fine := generateCell(s.Parents, pos, rot, s.Names, 0.04)
	flat := flatShaded(&fine, 1.2)
	weldedManifold(t, "flat", &flat)
	skin := map[[3]float32][8]float32{}
	for v := 0; v < fine.VertexCount(); v++ {
		skin[[3]float32(fine.Positions[3*v:3*v+3])] = [8]float32(append(slices.Clone(fine.BoneIDs[4*v:4*v+4]), fine.BoneWeights[4*v:4*v+4]...))
	}
	looks := map[[7]float32]bool{}
	look := func(b *Mesh, v int) [7]float32 {
		var l [7]float32
		copy(l[:], b.Normals[3*v:3*v+3])
		for k := 0; k < 4; k++ {
			l[3+k] = float32(b.Colors[4*v+k])
		}
		return l
	}
	for v := 0; v < flat.VertexCount(); v++ {
		looks[look(&flat, v)] = true
	}
	const target = 900
	c := Decimate(&flat, target)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	weldedManifold(t, "decimated", &c)
	if n := c.VertexCount(); n > target || n < target-target/10 {
		t.Errorf("%d vertices, want %d or a few fewer", n, target)
	}
	for v := 0; v < c.VertexCount(); v++ {
		sk, ok := skin[[3]float32(c.Positions[3*v:3*v+3])]
		if !ok {
			t.Fatalf("vertex %d is not at an original position", v)
		}
		if [8]float32(append(slices.Clone(c.BoneIDs[4*v:4*v+4]), c.BoneWeights[4*v:4*v+4]...)) != sk {
			t.Fatalf("vertex %d's skinning changed", v)
		}
		if !looks[look(&c, v)] {
			t.Fatalf("vertex %d: normal and colour %v were no vertex's", v, look(&c, v))
		}
	}
	maxD, meanD := surfaceError(&fine, &c)
	smooth := Decimate(&fine, c.TriangleCount()/2+2)
	sMax, sMean := surfaceError(&fine, &smooth)
	t.Logf("%d flat vertices to %d (%d triangles): max %.1f mm, mean %.2f mm; smooth, %d triangles: max %.1f mm, mean %.2f mm",
		flat.VertexCount(), c.VertexCount(), c.TriangleCount(), maxD*1e3, meanD*1e3, smooth.TriangleCount(), sMax*1e3, sMean*1e3)
	if maxD > 2*sMax || meanD > 2*sMean {
		t.Errorf("flat: max %.1f mm, mean %.2f mm; more than twice the smooth body's", maxD*1e3, meanD*1e3)
	}
}

// TestDecimateOpenSurface: a bumpy square sheet (open) keeps its outline:
// its four corners, every vertex of its open edges on the square's sides,
// and no face turned over.
func TestDecimateOpenSurface(t *testing.T) {
	const n = 21
	var b Mesh
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			x, z := float32(i)/(n-1), float32(j)/(n-1)
			y := 0.05 * float32(math.Sin(3*float64(x))*math.Cos(2*float64(z)))
			b.Positions = append(b.Positions, x, y, z)
			b.Normals = append(b.Normals, 0, 1, 0)
			b.BoneIDs = append(b.BoneIDs, 0, 0, 0, 0)
			b.BoneWeights = append(b.BoneWeights, 1, 0, 0, 0)
		}
	}
	for i := 0; i+1 < n; i++ {
		for j := 0; j+1 < n; j++ {
			v := uint16(i*n + j)
			b.Indices = append(b.Indices, v, v+1, v+n, v+1, v+n+1, v+n)
		}
	}
	b.BindInv = make([]mgl32.Mat4, 1)
	c := Decimate(&b, 40)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d vertices to %d", b.VertexCount(), c.VertexCount())
	if c.VertexCount() > 40 {
		t.Errorf("%d vertices, want at most 40", c.VertexCount())
	}
	on := func(v uint16) bool {
		x, z := c.Positions[3*int(v)], c.Positions[3*int(v)+2]
		return x == 0 || x == 1 || z == 0 || z == 1
	}
	corners := 0
	edges := map[[2]uint16]int{}
	for f := 0; f < c.TriangleCount(); f++ {
		i := c.Indices[3*f : 3*f+3]
		p := func(k int) mgl32.Vec3 { return mgl32.Vec3(c.Positions[3*int(i[k]) : 3*int(i[k])+3]) }
		if p(1).Sub(p(0)).Cross(p(2).Sub(p(0)))[1] <= 0 {
			t.Errorf("face %d turned over or flat", f)
		}
		for k := 0; k < 3; k++ {
			a, e := i[k], i[(k+1)%3]
			edges[[2]uint16{min(a, e), max(a, e)}]++
		}
	}
	for e, k := range edges {
		if k == 1 && (!on(e[0]) || !on(e[1])) {
			t.Errorf("open edge %v off the square's sides", e)
		}
	}
	for v := 0; v < c.VertexCount(); v++ {
		x, z := c.Positions[3*v], c.Positions[3*v+2]
		if (x == 0 || x == 1) && (z == 0 || z == 1) {
			corners++
		}
	}
	if corners != 4 {
		t.Errorf("%d of the square's corners left", corners)
	}
}

// TestSmoothNormals: a flat-shaded cube (a vertex per face corner) becomes
// its 8 corners, each with the normal along its diagonal, and keeps its
// 12 triangles.
func TestSmoothNormals(t *testing.T) {
	var cube Mesh
	quad := func(o, u, v mgl32.Vec3) { // o, o+u, o+u+v, o+v counter-clockwise from outside
		n := u.Cross(v).Normalize()
		base := uint16(cube.VertexCount())
		for _, p := range []mgl32.Vec3{o, o.Add(u), o.Add(u).Add(v), o.Add(v)} {
			cube.Positions = append(cube.Positions, p[:]...)
			cube.Normals = append(cube.Normals, n[:]...)
			cube.BoneIDs = append(cube.BoneIDs, 0, 0, 0, 0)
			cube.BoneWeights = append(cube.BoneWeights, 1, 0, 0, 0)
		}
		cube.Indices = append(cube.Indices, base, base+1, base+2, base, base+2, base+3)
	}
	x, y, z := mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, 1}
	quad(mgl32.Vec3{}, y, x) // z = 0, facing -z
	quad(z, x, y)            // z = 1
	quad(mgl32.Vec3{}, z, y) // x = 0, facing -x
	quad(x, y, z)            // x = 1
	quad(mgl32.Vec3{}, x, z) // y = 0, facing -y
	quad(y, z, x)            // y = 1
	cube.BindInv = make([]mgl32.Mat4, 1)
	weldedManifold(t, "cube", &cube)
	s := SmoothNormals(&cube)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.VertexCount() != 8 || s.TriangleCount() != 12 {
		t.Fatalf("%d vertices, %d triangles; want 8, 12", s.VertexCount(), s.TriangleCount())
	}
	closedManifold(t, "smoothed cube", &s)
	for v := 0; v < 8; v++ {
		p := mgl32.Vec3(s.Positions[3*v : 3*v+3])
		want := p.Sub(mgl32.Vec3{0.5, 0.5, 0.5}).Normalize()
		if got := mgl32.Vec3(s.Normals[3*v : 3*v+3]); !got.ApproxEqualThreshold(want, 1e-5) {
			t.Errorf("corner %v: normal %v, want %v", p, got, want)
		}
	}
}
