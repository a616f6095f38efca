package spring

import "math"

// The closed forms are evaluated in float64 and returned as float32: products
// like y*dt or stiffness/dt² can leave float32 range long before the result
// does, and float64 keeps the regime formulas accurate near their boundaries.

// f32 converts a float64 result to float32, saturating at ±math.MaxFloat32 so
// that finite inputs never produce ±Inf.
func f32(x float64) float32 {
	if x > math.MaxFloat32 {
		return math.MaxFloat32
	}
	if x < -math.MaxFloat32 {
		return -math.MaxFloat32
	}
	return float32(x)
}

// minScale is the smallest scale the log-space functions accept: scales are
// positive by definition, and anything at or below zero is read as this.
const minScale = 1e-30

// positive clamps a scale to at least minScale so its logarithm is finite.
func positive(s float32) float64 {
	return math.Max(float64(s), minScale)
}
