package spring

import "math"

// Scalar velocity (article: "Scalar Velocity"). Scales compose by
// multiplication, so their velocity is the log of a ratio per second. In
// base 2 a scalar velocity counts doublings per second (negative: halvings),
// and one over it is a doublelife (or, negated, a half-life). Scales must be
// positive; values at or below zero are read as a tiny positive scale
// (1e-30). dt <= 0 gives a velocity of 0 and leaves a scale unchanged.

// ScaleDifferentiateVelocityNaive is the article's
// scale_differentiate_velocity_naive: (next - curr)/dt, in scale units per
// second. It is what not to do: integrated back with
// ScaleIntegrateVelocityNaive it grows quickly at first and slowly later.
func ScaleDifferentiateVelocityNaive(next, curr, dt float32) float32 {
	if dt <= 0 {
		return 0
	}
	return f32((float64(next) - float64(curr)) / float64(dt))
}

// ScaleIntegrateVelocityNaive adds a naive scalar velocity: curr + vel·dt.
// The result may reach zero or below: naive velocities ignore that scales
// multiply.
func ScaleIntegrateVelocityNaive(vel, curr, dt float32) float32 {
	if dt <= 0 {
		return curr
	}
	return f32(float64(curr) + float64(vel)*float64(dt))
}

// ScaleDifferentiateVelocityNatural is the article's
// scale_differentiate_velocity_natural: ln(next/curr)/dt, in e-foldings per
// second.
func ScaleDifferentiateVelocityNatural(next, curr, dt float32) float32 {
	if dt <= 0 {
		return 0
	}
	return f32(math.Log(positive(next)/positive(curr)) / float64(dt))
}

// ScaleIntegrateVelocityNatural is the article's
// scale_integrate_velocity_natural: exp(vel·dt)·curr for vel in e-foldings
// per second. Constant velocity gives the same scale at any tick rate.
func ScaleIntegrateVelocityNatural(vel, curr, dt float32) float32 {
	if dt <= 0 {
		return curr
	}
	return f32(math.Exp(float64(vel)*float64(dt)) * positive(curr))
}

// ScaleDifferentiateVelocity is the article's scale_differentiate_velocity:
// log2(next/curr)/dt, the base-2 scalar velocity in doublings per second.
func ScaleDifferentiateVelocity(next, curr, dt float32) float32 {
	if dt <= 0 {
		return 0
	}
	return f32(math.Log2(positive(next)/positive(curr)) / float64(dt))
}

// ScaleIntegrateVelocity is the article's scale_integrate_velocity:
// exp2(vel·dt)·curr for vel in doublings per second.
func ScaleIntegrateVelocity(vel, curr, dt float32) float32 {
	if dt <= 0 {
		return curr
	}
	return f32(math.Exp2(float64(vel)*float64(dt)) * positive(curr))
}

// ScalarVelocityToDoublelife is the time in seconds a base-2 scalar velocity
// (doublings/s) takes to double a scale, 1/vel. Negative velocities give a
// negative doublelife, minus their half-life. Zero velocity never doubles:
// the result saturates at ±math.MaxFloat32.
func ScalarVelocityToDoublelife(vel float32) float32 {
	return f32(1 / float64(vel))
}

// DoublelifeToScalarVelocity is the base-2 scalar velocity (doublings/s)
// that doubles a scale every doublelife seconds, 1/doublelife; saturates at
// ±math.MaxFloat32 for a doublelife of 0.
func DoublelifeToScalarVelocity(doublelife float32) float32 {
	return f32(1 / float64(doublelife))
}

// ScalarVelocityToHalflife is the time in seconds a base-2 scalar velocity
// takes to halve a scale, -1/vel (DamperExact with half-life h shrinks the
// distance to its goal at the base-2 scalar velocity -1/h). Positive
// velocities give a negative half-life, minus their doublelife. Saturates at
// ±math.MaxFloat32 for vel = 0.
func ScalarVelocityToHalflife(vel float32) float32 {
	return f32(-1 / float64(vel))
}

// HalflifeToScalarVelocity is the base-2 scalar velocity (halvings are
// negative doublings per second) that halves a scale every halflife seconds,
// -1/halflife; saturates at ±math.MaxFloat32 for a half-life of 0.
func HalflifeToScalarVelocity(halflife float32) float32 {
	return f32(-1 / float64(halflife))
}

// EerpPow is the article's eerpf: x^(1-a)·y^a, the interpolation for scales
// (lerp with + turned into ·, - into / and · into pow). x and y must be
// positive. For extreme a, where one power overflows while the other
// underflows, it falls back to the log form (EerpLog) instead of Inf·0.
func EerpPow(x, y, a float32) float32 {
	fa := float64(a)
	r := math.Pow(positive(x), 1-fa) * math.Pow(positive(y), fa)
	if math.IsNaN(r) {
		return EerpLog(x, y, a)
	}
	return f32(r)
}

// EerpRatio is the article's eerpf_alt: x·(y/x)^a, the same value as
// EerpPow.
func EerpRatio(x, y, a float32) float32 {
	px := positive(x)
	return f32(px * math.Pow(positive(y)/px, float64(a)))
}

// EerpLog is the article's eerpf_alt2: exp(lerp(ln x, ln y, a)), the same
// value as EerpPow, computed as a lerp in log space.
func EerpLog(x, y, a float32) float32 {
	return f32(math.Exp(lerp64(math.Log(positive(x)), math.Log(positive(y)), float64(a))))
}
