package spring

import (
	"math"

	"kinelab/animsys/mathx"
)

// HalflifeToDamping is the article's halflife_to_damping: the damping (1/s)
// of a critical spring whose half-life is halflife seconds, 4 ln2 / halflife.
// Half-lives below mathx.Eps are read as mathx.Eps, so the result is large but
// finite.
func HalflifeToDamping(halflife float32) float32 {
	return f32(4 * math.Ln2 / math.Max(float64(halflife), mathx.Eps))
}

// DampingToHalflife is the article's damping_to_halflife, the inverse of
// HalflifeToDamping: 4 ln2 / damping, in seconds. Damping below mathx.Eps is
// read as mathx.Eps.
func DampingToHalflife(damping float32) float32 {
	return f32(4 * math.Ln2 / math.Max(float64(damping), mathx.Eps))
}

// FrequencyToStiffness is the article's frequency_to_stiffness: the stiffness
// (1/s²) of an undamped spring oscillating at frequency Hz, (2π·frequency)².
func FrequencyToStiffness(frequency float32) float32 {
	w := 2 * math.Pi * float64(frequency)
	return f32(w * w)
}

// StiffnessToFrequency is the article's stiffness_to_frequency, the inverse of
// FrequencyToStiffness: sqrt(stiffness) / 2π, in Hz. Negative stiffness gives 0.
func StiffnessToFrequency(stiffness float32) float32 {
	return f32(math.Sqrt(math.Max(float64(stiffness), 0)) / (2 * math.Pi))
}

// DamperExact is the article's damper_exact: x moved towards the goal g over
// dt seconds so that the distance halves every halflife seconds,
//
//	lerp(x, g, 1 - exp(-ln2 · dt / halflife)).
//
// It is exactly dt-invariant: two steps of dt/2 equal one step of dt. A
// half-life below mathx.Eps snaps to g; otherwise dt <= 0 returns x.
func DamperExact(x, g, halflife, dt float32) float32 {
	if halflife < mathx.Eps {
		return g
	}
	if dt <= 0 {
		return x
	}
	return f32(damper64(float64(x), float64(g), float64(halflife), float64(dt)))
}

// damper64 is damper_exact in float64 for halflife > 0, dt >= 0.
func damper64(x, g, halflife, dt float64) float64 {
	return g + (x-g)*math.Exp(-math.Ln2*dt/halflife)
}
