package gltf

import (
	"errors"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
)

// shearTol is the largest |cos| of the angle between two scaled axes of a
// node matrix, and the largest relative spread of a scale called uniform:
// well above the float32 rounding of exported matrices (1e-7), well below
// any shear or stretch anyone authors (1e-4 is 0.006 degrees).
const shearTol = 1e-4

// finite reports whether every x is a finite number.
func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// nodeRest is a node's local transform (glTF 2.0 section 3.5.3
// "Transformations"): its TRS properties, or its matrix decomposed into
// them. Velocities are zero.
func nodeRest(n *gltf.Node) (kf, error) {
	if m := n.MatrixOrDefault(); m != gltf.DefaultMatrix {
		return decompose(m)
	}
	t, r, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	if !finite(t[:]...) || !finite(r[:]...) || !finite(s[:]...) {
		return kf{}, errors.New("a translation, rotation or scale that is not a finite number")
	}
	q := quat{r[3], r[0], r[1], r[2]}
	if q.dot(q) < 1e-12 {
		return kf{}, errors.New("a zero rotation quaternion")
	}
	k := kfIdentity()
	k.pos, k.rot, k.scl = vec(t), q.normalize(), vec(s)
	return k, nil
}

// decompose splits a column-major affine matrix into translation, rotation
// and per-axis scale, M = T R S (section 3.5.3: a node matrix must be
// decomposable to TRS). It refuses a projective bottom row, a zero axis
// and shear (axes not orthogonal, shearTol). A negative determinant (a
// mirror) becomes a rotation and three negative scales.
func decompose(m [16]float64) (kf, error) {
	if !finite(m[:]...) {
		return kf{}, errors.New("a matrix that is not finite numbers")
	}
	if math.Abs(m[3])+math.Abs(m[7])+math.Abs(m[11]) > 1e-6 || math.Abs(m[15]-1) > 1e-6 {
		return kf{}, errors.New("a projective matrix (bottom row not 0 0 0 1)")
	}
	cols := [3]vec{{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}}
	var s vec
	for i, c := range cols {
		s[i] = c.norm()
		if s[i] < 1e-12 {
			return kf{}, fmt.Errorf("a matrix with a zero scale on axis %d", i)
		}
	}
	for i := 0; i < 3; i++ {
		j := (i + 1) % 3
		if c := cols[i].dot(cols[j]) / (s[i] * s[j]); math.Abs(c) > shearTol {
			return kf{}, fmt.Errorf("a sheared matrix (axes %d and %d at cos %.3g): only translation, rotation and scale are supported", i, j, c)
		}
	}
	if cols[0].cross(cols[1]).dot(cols[2]) < 0 {
		s = s.scale(-1)
	}
	var r [3]vec // rotation matrix columns
	for i := range cols {
		r[i] = cols[i].scale(1 / s[i])
	}
	k := kfIdentity()
	k.pos, k.rot, k.scl = vec{m[12], m[13], m[14]}, matQuat(r), s
	return k, nil
}

// matQuat is the unit quaternion of the rotation matrix with columns c
// (Shepperd's method: from the largest of the four diagonal combinations,
// so no division by a small number).
func matQuat(c [3]vec) quat {
	// r[i][j] is row i, column j.
	r := func(i, j int) float64 { return c[j][i] }
	tr := r(0, 0) + r(1, 1) + r(2, 2)
	var q quat
	switch {
	case tr >= r(0, 0) && tr >= r(1, 1) && tr >= r(2, 2):
		w := math.Sqrt(1+tr) * 2
		q = quat{w / 4, (r(2, 1) - r(1, 2)) / w, (r(0, 2) - r(2, 0)) / w, (r(1, 0) - r(0, 1)) / w}
	case r(0, 0) >= r(1, 1) && r(0, 0) >= r(2, 2):
		x := math.Sqrt(1+r(0, 0)-r(1, 1)-r(2, 2)) * 2
		q = quat{(r(2, 1) - r(1, 2)) / x, x / 4, (r(0, 1) + r(1, 0)) / x, (r(0, 2) + r(2, 0)) / x}
	case r(1, 1) >= r(2, 2):
		y := math.Sqrt(1+r(1, 1)-r(0, 0)-r(2, 2)) * 2
		q = quat{(r(0, 2) - r(2, 0)) / y, (r(0, 1) + r(1, 0)) / y, y / 4, (r(1, 2) + r(2, 1)) / y}
	default:
		z := math.Sqrt(1+r(2, 2)-r(0, 0)-r(1, 1)) * 2
		q = quat{(r(1, 0) - r(0, 1)) / z, (r(0, 2) + r(2, 0)) / z, (r(1, 2) + r(2, 1)) / z, z / 4}
	}
	return q.normalize()
}

// uniform reports whether the three scales agree to shearTol (relative).
func uniform(s vec) bool {
	lo, hi := math.Min(s[0], math.Min(s[1], s[2])), math.Max(s[0], math.Max(s[1], s[2]))
	return hi-lo <= shearTol*math.Max(math.Abs(lo), math.Abs(hi))
}
