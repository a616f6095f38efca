package body

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// This file holds the solids a body is built from (round cones, spheres,
// ellipsoids) and their signed distance functions.

// solid is one piece of the body: a round cone (a capsule whose radius
// goes from ra at a to rb at a + u*length), flattened to flat times its
// width along the thin axis t, or an ellipsoid centred on a. It moves with
// joint.
type solid struct {
	joint     int
	group     int     // solids of a group are contiguous in the list
	inner     float32 // smooth-union width with the group's earlier solids
	outer     float32 // smooth-union width of the group with the body
	a         mgl32.Vec3
	u, t, w   mgl32.Vec3 // orthonormal: axis, thin axis, wide axis
	length    float32
	ra, rb    float32
	flat      float32
	ellipsoid bool
	radii     mgl32.Vec3 // ellipsoid half-extents along u, t, w
	sb, ca    float32    // round cone: sine and cosine of its side slope
	lo, hi    mgl32.Vec3 // bounding box
}

func roundCone(joint int, a, b mgl32.Vec3, ra, rb, flat float32, thin mgl32.Vec3) solid {
	d := b.Sub(a)
	l := d.Len()
	if l <= abs32(ra-rb)+1e-6 { // one end sphere holds the other: a sphere
		if rb > ra {
			a, ra = b, rb
		}
		return sphereSolid(joint, a, ra)
	}
	sh := solid{joint: joint, a: a, u: d.Mul(1 / l), length: l, ra: ra, rb: rb, flat: flat}
	sh.t = perpTo(thin, sh.u, mgl32.Vec3{0, 1, 0})
	sh.w = sh.u.Cross(sh.t)
	sh.sb = (ra - rb) / l
	sh.ca = float32(math.Sqrt(float64(1 - sh.sb*sh.sb)))
	r := max(ra, rb)
	for k := 0; k < 3; k++ {
		sh.lo[k] = min(a[k], b[k]) - r
		sh.hi[k] = max(a[k], b[k]) + r
	}
	return sh
}

func sphereSolid(joint int, c mgl32.Vec3, r float32) solid {
	rv := mgl32.Vec3{r, r, r}
	return solid{joint: joint, a: c, u: mgl32.Vec3{0, 1, 0}, t: mgl32.Vec3{0, 0, 1}, w: mgl32.Vec3{1, 0, 0},
		ra: r, rb: r, flat: 1, ca: 1, lo: c.Sub(rv), hi: c.Add(rv)}
}

func ellipsoidSolid(joint int, c, u, t mgl32.Vec3, radii mgl32.Vec3) solid {
	r := max(radii[0], radii[1], radii[2])
	rv := mgl32.Vec3{r, r, r}
	return solid{joint: joint, a: c, u: u, t: t, w: u.Cross(t), radii: radii, ellipsoid: true, flat: 1,
		lo: c.Sub(rv), hi: c.Add(rv)}
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// beyond is how far p lies past either end of a round cone, along its
// axis (0 for spheres and ellipsoids): the part of a limb past its joint
// belongs to the next bone.
func (sh *solid) beyond(p mgl32.Vec3) float32 {
	if sh.ellipsoid || sh.length == 0 {
		return 0
	}
	x := p.Sub(sh.a).Dot(sh.u)
	return max(0, -x, x-sh.length)
}

// dist is the (approximate, for flattened solids and ellipsoids) signed
// distance from p to the solid's surface.
func (sh *solid) dist(p mgl32.Vec3) float32 {
	d := p.Sub(sh.a)
	x, y, z := d.Dot(sh.u), d.Dot(sh.t), d.Dot(sh.w)
	if sh.ellipsoid {
		r := sh.radii
		qx, qy, qz := x/r[0], y/r[1], z/r[2]
		k0 := sqrt32(qx*qx + qy*qy + qz*qz)
		k1 := sqrt32(qx*qx/(r[0]*r[0]) + qy*qy/(r[1]*r[1]) + qz*qz/(r[2]*r[2]))
		if k1 == 0 {
			return -min(r[0], r[1], r[2])
		}
		return k0 * (k0 - 1) / k1
	}
	y /= sh.flat
	q := sqrt32(y*y + z*z)
	var dd float32
	switch k := -sh.sb*q + sh.ca*x; {
	case k < 0:
		dd = sqrt32(q*q+x*x) - sh.ra
	case k > sh.ca*sh.length:
		x -= sh.length
		dd = sqrt32(q*q+x*x) - sh.rb
	default:
		dd = q*sh.ca + x*sh.sb - sh.ra
	}
	return dd * (1 + sh.flat) / 2
}
