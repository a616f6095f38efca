package app

import (
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Small numeric helpers the labs share: the red/blue comparison, clip
// time wrapping, and float32 conversion and formatting for plots and CSV.

// DiffStats is the mean and max over joints 1..n-1 (all but the root) of
// |red - blue|, the propagated and finite-difference vectors lines gives;
// non-finite differences are left out.
func DiffStats(n int, lines func(int) (red, blue mgl32.Vec3)) (mean, most float32) {
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

// WrapTime wraps time t (s) into [0, d), as a clip's time wraps at its
// duration d; it is 0 when d <= 0 and when t is negative or not finite.
func WrapTime(t, d float32) float32 {
	if !(d > 0) {
		return 0
	}
	t = float32(math.Mod(float64(t), float64(d)))
	if t < 0 || !mathx.Finite(t) {
		t = 0
	}
	return t
}

// Float32Sat converts to float32, saturating at ±MaxFloat32 (NaN stays NaN).
func Float32Sat(x float64) float32 {
	return float32(max(-math.MaxFloat32, min(math.MaxFloat32, x)))
}

// CSVFloat formats a float32 with the fewest digits that parse back to
// the same value.
func CSVFloat(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }
