package mathx

import "slices"

// Quantile is the q-quantile (0 <= q <= 1) of xs by the rank floor(q·n) of
// a sorted copy (for q = 0.5 the middle value, the upper one of an even
// count); 0 for none. xs is not changed. NaNs sort first.
func Quantile(xs []float32, q float32) float32 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[Clamp(int(q*float32(len(s))), 0, len(s)-1)]
}

// Median is Quantile(xs, 0.5): the middle value, the upper one of an even
// count.
func Median(xs []float32) float32 { return Quantile(xs, 0.5) }
