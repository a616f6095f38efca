package spring

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// ScaleSpringDamperExact is the article's simple_spring_damper_exact_scale,
// per axis: the critical spring with half-life halflife (seconds) moving the
// scale x with scalar velocity v towards the goal scale g at rest, in log
// space. The offset is log2(x/g) and the result exp2(offset)·g, so v is a
// base-2 scalar velocity: doublings per second (negative: halvings), exactly
// d/dt log2(x). Scales must be positive; values at or below zero are read as
// a tiny positive scale (1e-30).
//
// A half-life below mathx.Eps snaps to (g, 0); otherwise dt <= 0 returns
// (x, v).
func ScaleSpringDamperExact(x, v, g mgl32.Vec3, halflife, dt float32) (x1, v1 mgl32.Vec3) {
	if halflife < mathx.Eps {
		return g, mgl32.Vec3{}
	}
	if dt <= 0 {
		return x, v
	}
	w0, w1, w2, w3 := criticalWeights64(halflifeToY(halflife), float64(dt))
	for i := range 3 {
		gi := positive(g[i])
		j0, vi := math.Log2(positive(x[i])/gi), float64(v[i])
		x1[i], v1[i] = f32(math.Exp2(w0*j0+w1*vi)*gi), f32(w2*j0+w3*vi)
	}
	return x1, v1
}
