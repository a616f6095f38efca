package mathx

import "math"

// WrapTime wraps time t (s) into [0, d), as a looping clip's time wraps at
// its duration d; it is 0 when d <= 0 and when t is negative or not
// finite after wrapping.
func WrapTime(t, d float32) float32 {
	if !(d > 0) {
		return 0
	}
	t = float32(math.Mod(float64(t), float64(d)))
	if t < 0 || !Finite(t) {
		t = 0
	}
	return t
}

// Float32Sat converts to float32, saturating at ±MaxFloat32 (NaN stays
// NaN): a float64 result that overflows float32 stays finite.
func Float32Sat(x float64) float32 {
	return float32(max(-math.MaxFloat32, min(math.MaxFloat32, x)))
}
