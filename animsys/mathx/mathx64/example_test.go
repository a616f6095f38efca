package mathx64_test

import (
	"fmt"
	"math"

	"kinelab/animsys/mathx/mathx64"
)

// A BVH joint with channels "Zrotation Xrotation Yrotation" turns by
// Rz Rx Ry; computed in float64, it is rounded once into a float32 pose.
func Example() {
	deg := math.Pi / 180
	q := mathx64.QuatZ(90 * deg).Mul(mathx64.QuatX(0)).Mul(mathx64.QuatY(90 * deg))
	v := q.Rotate(mathx64.Vec3{0, 0, 1})
	fmt.Printf("%.3f\n", v.F32())
	fmt.Printf("%.3f\n", q.UnitF32())
	// Output:
	// [0.000 1.000 0.000]
	// {0.500 [-0.500 0.500 0.500]}
}
