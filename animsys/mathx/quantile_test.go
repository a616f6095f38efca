package mathx

import "testing"

// TestQuantile: the rank floor(q·n) of the sorted values, the input left
// as it was, 0 for none, q outside [0, 1] held at the ends.
func TestQuantile(t *testing.T) {
	xs := []float32{5, 1, 4, 2, 3, 6}
	for _, c := range []struct{ q, want float32 }{{0, 1}, {0.02, 1}, {0.5, 4}, {0.99, 6}, {1, 6}, {-1, 1}, {2, 6}} {
		if got := Quantile(xs, c.q); got != c.want {
			t.Errorf("Quantile(%v, %v) = %v, want %v", xs, c.q, got, c.want)
		}
	}
	if xs[0] != 5 || xs[5] != 6 {
		t.Errorf("Quantile sorted its input: %v", xs)
	}
	if Median([]float32{3, 1, 2}) != 2 || Median(nil) != 0 {
		t.Error("Median of 3, 1, 2 is 2, of none 0")
	}
}
