package spring

import (
	"math"

	"kinelab/animsys/mathx"
)

// Transition cost (article: "Inertialization Transition Cost"). An
// inertialized transition leaves an offset x (units) with velocity v
// (units/s) between source and destination, which the critical decay spring
// (DecaySpringDamperExact) carries to zero. Its cost is the area between the
// two animations, the integral of |offset(t)| over all time, in unit·seconds.
// Everything uses y = 2 ln2 / halflife; a half-life below mathx.Eps snaps the
// offset away, so it costs nothing and never crosses zero.

// DecayZeroCrossing is the article's decay_spring_damper_intersection: the
// time in seconds at which the decaying offset crosses zero,
// t = -x/(v + x·y), or -1 if it never does (t not positive: the offset keeps
// its sign).
func DecayZeroCrossing(x, v, halflife float32) float32 {
	if halflife < mathx.Eps {
		return -1
	}
	t, ok := zeroCrossing64(float64(x), float64(v), halflifeToY(halflife))
	if !ok {
		return -1
	}
	return f32(t)
}

// TransitionCost is the article's decay_spring_damper_displacement: the
// exact total displacement ∫|offset(t)| dt from 0 to ∞ of the offset (x, v)
// decayed with the given half-life, in unit·seconds. When the offset crosses
// zero the integral is split at the crossing so the two lobes add up instead
// of cancelling.
func TransitionCost(x, v, halflife float32) float32 {
	if halflife < mathx.Eps {
		return 0
	}
	xx, vv, y := float64(x), float64(v), halflifeToY(halflife)
	all := decayIntegralFrom64(xx, vv, y, 0) // ∫ from 0 to ∞, signed
	t, ok := zeroCrossing64(xx, vv, y)
	if !ok {
		return f32(math.Abs(all))
	}
	tail := decayIntegralFrom64(xx, vv, y, t) // ∫ from t to ∞, signed
	return f32(math.Abs(all-tail) + math.Abs(tail))
}

// TransitionCostApprox is the article's approximate cost |(2·x·y + v)/y²|,
// the absolute value of the signed integral: exact unless the offset
// crosses zero, an underestimate when it does. It equals
// |TransitionCostFeature(src) - TransitionCostFeature(dst)| for x and v the
// differences of source and destination.
func TransitionCostApprox(x, v, halflife float32) float32 {
	if halflife < mathx.Eps {
		return 0
	}
	y := halflifeToY(halflife)
	return f32(math.Abs(decayIntegralFrom64(float64(x), float64(v), y, 0)))
}

// TransitionCostFeature is the article's motion-matching feature
// 2·pos/y + vel/y², in unit·seconds, for a bone position pos (units) and
// velocity vel (units/s): the absolute difference of two frames' features is
// TransitionCostApprox of their offset, so one feature replaces separately
// weighted position and velocity features.
func TransitionCostFeature(pos, vel, halflife float32) float32 {
	if halflife < mathx.Eps {
		return 0
	}
	y := halflifeToY(halflife)
	return f32(2*float64(pos)/y + float64(vel)/(y*y))
}

// TransitionCostBaseline is the usual motion-matching cost the article
// compares against: the weighted summed absolute differences
// posWeight·|x| + velWeight·|v| (the article plots velWeight 0.5 with
// posWeight 1). Its units are whatever the weights make them.
func TransitionCostBaseline(x, v, posWeight, velWeight float32) float32 {
	return f32(float64(posWeight)*math.Abs(float64(x)) + float64(velWeight)*math.Abs(float64(v)))
}

// zeroCrossing64 returns t = -x/(v + x·y) and whether it is a crossing
// (finite and positive).
func zeroCrossing64(x, v, y float64) (float64, bool) {
	den := v + x*y
	if den == 0 {
		return 0, false
	}
	t := -x / den
	return t, t > 0 && !math.IsInf(t, 0)
}

// decayIntegralFrom64 is the signed ∫ from t to ∞ of the decaying offset
// e^(-yτ)·(x + (v + x·y)·τ) dτ, which is
// e^(-yt)·(t·v·y + x·y·(t·y + 2) + v)/y².
func decayIntegralFrom64(x, v, y, t float64) float64 {
	if t == 0 {
		return (2*x*y + v) / (y * y)
	}
	yt := y * t
	if yt > 1400 { // e^(-yt) underflows; skip the product that could be Inf·0
		return 0
	}
	return math.Exp(-yt) * (t*v*y + x*y*(yt+2) + v) / (y * y)
}
