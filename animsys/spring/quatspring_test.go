package spring

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

func randVec3(r *rand.Rand, s float32) mgl32.Vec3 {
	return mgl32.Vec3{s * (2*r.Float32() - 1), s * (2*r.Float32() - 1), s * (2*r.Float32() - 1)}
}

// The quaternion spring is the critical spring on the scaled angle-axis
// offset log(x·g⁻¹): RK4 on that 3-D offset must give the same rotation.
func TestQuatSpringMatchesRK4(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	worstRot, worstVel := 0.0, 0.0
	for i := 0; i < 200; i++ {
		g := mathx.QuatFromScaledAngleAxis(randVec3(r, 3))
		j0 := randVec3(r, 1.5) // offsets within π so log(x·g⁻¹) returns j0
		x := mathx.QuatMul(mathx.QuatFromScaledAngleAxis(j0), g)
		v := randVec3(r, 4)
		h := 0.05 + r.Float32()
		dt := checkTimes[i%len(checkTimes)]
		y := 2 * math.Ln2 / float64(h)
		var wj, wv [3]float64
		for k := 0; k < 3; k++ {
			wj[k], wv[k] = rk4(float64(j0[k]), float64(v[k]), float64(dt), rk4Step,
				func(xx, vv float64) float64 { return -y*y*xx - 2*y*vv })
		}
		want := mathx.QuatMul(mathx.QuatFromScaledAngleAxis(mgl32.Vec3{float32(wj[0]), float32(wj[1]), float32(wj[2])}), g)
		gx, gv := QuatSpringDamperExact(x, v, g, h, dt)
		// Angle between the two rotations, radians.
		ang := float64(mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(gx, want))).Len())
		ve := float64(gv.Sub(mgl32.Vec3{float32(wv[0]), float32(wv[1]), float32(wv[2])}).Len()) / (1 + float64(v.Len()))
		worstRot, worstVel = math.Max(worstRot, ang), math.Max(worstVel, ve)
		// float32 quaternion products and log/exp: a few 1e-7 rad each;
		// 2e-6 rad and 2e-6 relative velocity leave room for the chain.
		if ang > 2e-6 || ve > 2e-6 {
			t.Fatalf("case %d: rotation off by %g rad, velocity by %g", i, ang, ve)
		}
	}
	logMax(t, "QuatSpringDamperExact rotation vs RK4 (rad)", worstRot)
	logMax(t, "QuatSpringDamperExact velocity vs RK4 (rel)", worstVel)
}

// v is the world-frame angular velocity of x when the offset keeps its axis
// (here: started at rest). With an off-axis initial velocity it differs from
// the angular velocity by about ½·offset×v; the figure is logged.
func TestQuatSpringVelocityIsAngularVelocity(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	worstAxis, worstGeneral := 0.0, 0.0
	for i := 0; i < 200; i++ {
		g := mathx.QuatFromScaledAngleAxis(randVec3(r, 3))
		j0 := randVec3(r, 1.5)
		x := mathx.QuatMul(mathx.QuatFromScaledAngleAxis(j0), g)
		for _, general := range []bool{false, true} {
			var v mgl32.Vec3
			if general {
				v = randVec3(r, 2)
			}
			const h, tt, fd = 0.3, 0.2, 1e-3
			a, _ := QuatSpringDamperExact(x, v, g, h, tt-fd)
			b, _ := QuatSpringDamperExact(x, v, g, h, tt+fd)
			_, w := QuatSpringDamperExact(x, v, g, h, tt)
			// World-frame angular velocity by central difference.
			fdw := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(b, a))).Mul(1 / (2 * fd))
			e := float64(fdw.Sub(w).Len())
			if general {
				worstGeneral = math.Max(worstGeneral, e)
				continue
			}
			worstAxis = math.Max(worstAxis, e)
			// Central difference of float32 rotations over 2 ms: rounding of
			// ~1e-7 rad / 2e-3 s = 5e-5 rad/s, plus O(fd²) truncation.
			if e > 2e-3 {
				t.Fatalf("case %d: finite-difference angular velocity %v, spring %v", i, fdw, w)
			}
		}
	}
	logMax(t, "QuatSpring v vs angular velocity (on-axis, rad/s)", worstAxis)
	logMax(t, "QuatSpring v vs angular velocity (off-axis, rad/s)", worstGeneral)
}
