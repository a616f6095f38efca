package spring

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// The scale spring per axis is the critical spring on log2(x/g), and its
// velocity is exactly d/dt log2(x): the base-2 scalar velocity.
func TestScaleSpringMatchesRK4(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	worst, worstV := 0.0, 0.0
	for i := 0; i < 200; i++ {
		var x, g mgl32.Vec3
		for k := 0; k < 3; k++ {
			x[k] = float32(math.Exp2(float64(6*r.Float32() - 3)))
			g[k] = float32(math.Exp2(float64(6*r.Float32() - 3)))
		}
		v := randVec3(r, 3)
		h := 0.05 + r.Float32()
		dt := checkTimes[i%len(checkTimes)]
		y := 2 * math.Ln2 / float64(h)
		gx, gv := ScaleSpringDamperExact(x, v, g, h, dt)
		for k := 0; k < 3; k++ {
			j0 := math.Log2(float64(x[k]) / float64(g[k]))
			wj, wv := rk4(j0, float64(v[k]), float64(dt), rk4Step, func(xx, vv float64) float64 { return -y*y*xx - 2*y*vv })
			want := math.Exp2(wj) * float64(g[k])
			e := math.Abs(float64(gx[k])-want) / want
			ev := math.Abs(float64(gv[k])-wv) / (1 + math.Abs(wv))
			worst, worstV = math.Max(worst, e), math.Max(worstV, ev)
			// Relative to the scale: one float32 rounding (6e-8) plus the
			// log2 offset's float32 input rounding amplified by ln2·|j|<=6.
			if e > 1e-6 || ev > 1e-6 {
				t.Fatalf("case %d axis %d: got (%g,%g) want (%g,%g)", i, k, gx[k], gv[k], want, wv)
			}
		}
		// v = d/dt log2(x): central difference of the scale spring.
		const fd = 1e-3
		a, _ := ScaleSpringDamperExact(x, v, g, h, 0.1-fd)
		b, _ := ScaleSpringDamperExact(x, v, g, h, 0.1+fd)
		_, w := ScaleSpringDamperExact(x, v, g, h, 0.1)
		for k := 0; k < 3; k++ {
			fdv := ScaleDifferentiateVelocity(b[k], a[k], 2*fd)
			// float32 rounding of scales (6e-8 relative) over 2 ms:
			// ~1e-4 doublings/s, plus O(fd²) truncation.
			if math.Abs(float64(fdv-w[k])) > 2e-3*(1+math.Abs(float64(w[k]))) {
				t.Fatalf("case %d axis %d: finite-difference scalar velocity %g, spring %g", i, k, fdv, w[k])
			}
		}
	}
	logMax(t, "ScaleSpringDamperExact scale vs RK4 (rel)", worst)
	logMax(t, "ScaleSpringDamperExact velocity vs RK4 (rel)", worstV)
}
