package app

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// RedBlue compares a lab's propagated (red) with its finite-difference
// (blue) velocities over a pose, as the labs' readouts and plots show it:
// the mean and max, over joints 1..n-1 (all but the root), of |red -
// blue|, the vectors lines gives for a joint, in their unit (m/s, rad/s,
// 1/s). Non-finite differences are left out.
func RedBlue(n int, lines func(j int) (red, blue mgl32.Vec3)) (mean, most float32) {
	var sum float32
	k := 0
	for i := 1; i < n; i++ {
		red, blue := lines(i)
		d := red.Sub(blue).Len()
		if !mathx.Finite(d) {
			continue
		}
		sum += d
		most = max(most, d)
		k++
	}
	return sum / float32(max(k, 1)), most
}
