package app

import "math/rand"

// sliderEnd picks a slider value the way a user hammering the panel would:
// one end of [lo, hi] two times in three, else anywhere in between.
func sliderEnd(r *rand.Rand, lo, hi float32) float32 {
	switch r.Intn(3) {
	case 0:
		return lo
	case 1:
		return hi
	}
	return lo + (hi-lo)*r.Float32()
}
