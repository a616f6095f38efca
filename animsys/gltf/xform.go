package gltf

import (
	"errors"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"

	"kinelab/animsys/mathx/mathx64"
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

// within reports whether every x is within ±maxValue.
func within(xs ...float64) bool {
	for _, x := range xs {
		if !(math.Abs(x) <= maxValue) {
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
	if !within(t[:]...) || !within(s[:]...) {
		return kf{}, fmt.Errorf("a translation or scale beyond ±%g, the largest kinelab reads", float32(maxValue))
	}
	q := mathx64.Quat{W: r[3], X: r[0], Y: r[1], Z: r[2]}
	if q.Dot(q) < 1e-12 {
		return kf{}, errors.New("a zero rotation quaternion")
	}
	k := kfIdentity()
	k.pos, k.rot, k.scl = mathx64.Vec3(t), q.Normalize(), mathx64.Vec3(s)
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
	if !within(m[:]...) {
		return kf{}, fmt.Errorf("a matrix entry beyond ±%g, the largest kinelab reads", float32(maxValue))
	}
	if math.Abs(m[3])+math.Abs(m[7])+math.Abs(m[11]) > 1e-6 || math.Abs(m[15]-1) > 1e-6 {
		return kf{}, errors.New("a projective matrix (bottom row not 0 0 0 1)")
	}
	cols := [3]mathx64.Vec3{{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}}
	var s mathx64.Vec3
	for i, c := range cols {
		s[i] = c.Len()
		if s[i] < 1e-12 {
			return kf{}, fmt.Errorf("a matrix with a zero scale on axis %d", i)
		}
	}
	for i := 0; i < 3; i++ {
		j := (i + 1) % 3
		if c := cols[i].Dot(cols[j]) / (s[i] * s[j]); math.Abs(c) > shearTol {
			return kf{}, fmt.Errorf("a sheared matrix (axes %d and %d at cos %.3g): only translation, rotation and scale are supported", i, j, c)
		}
	}
	if cols[0].Cross(cols[1]).Dot(cols[2]) < 0 {
		s = s.Scale(-1)
	}
	var r [3][3]float64 // the rotation matrix, r[row][col]
	for i := range cols {
		c := cols[i].Scale(1 / s[i])
		r[0][i], r[1][i], r[2][i] = c[0], c[1], c[2]
	}
	k := kfIdentity()
	k.pos, k.rot, k.scl = mathx64.Vec3{m[12], m[13], m[14]}, mathx64.QuatFromMatrix(r).Normalize(), s
	return k, nil
}

// uniform reports whether the three scales agree to shearTol (relative).
func uniform(s mathx64.Vec3) bool {
	lo, hi := math.Min(s[0], math.Min(s[1], s[2])), math.Max(s[0], math.Max(s[1], s[2]))
	return hi-lo <= shearTol*math.Max(math.Abs(lo), math.Abs(hi))
}
