package nn

import (
	"fmt"
	"math"
	"testing"

	"kinelab/animsys/mathx"
)

// The kernels against float64 loops, on every width from 1 to past two
// blocks of lanes and every count of weight rows and batch rows around
// the kernels' blocks, each on a part of the rows (as parallel gives
// them), leaving the rest untouched.
//
// Tolerance: a sum of k float32 terms, in any order and with or without
// fused multiply-adds, is within (k+1)·2⁻²⁴ of the sum of the terms'
// magnitudes (the textbook bound for recursive summation; products
// rounded once more, hence the +1); allowed here: (k+2)·2⁻²⁴·Σ|terms|.
// It is a bound, not an estimate, so it holds for every input, and a
// wrong or missing term is far outside it.

// sentinel marks the memory a kernel must not write.
var sentinel = math.Float32frombits(0x7fc0dead)

func fill(v []float32, x float32) {
	for i := range v {
		v[i] = x
	}
}

// sparseDY is random gradients, two in five 0 (as after a ReLU).
func sparseDY(rng *mathx.Xorshift32, n int) []float32 {
	v := randSlice(rng, n, 1)
	for i := range v {
		if rng.Float() < 0.4 {
			v[i] = 0
		}
	}
	return v
}

func within(t *testing.T, what string, got float32, want, mag float64, k int) {
	t.Helper()
	tol := float64(k+2) * 0x1p-24 * mag
	if d := math.Abs(float64(got) - want); !(d <= tol) {
		t.Fatalf("%s: %g, float64 %g (off by %.3g, allowed %.3g)", what, got, want, d, tol)
	}
}

func untouched(t *testing.T, what string, v []float32) {
	t.Helper()
	for i, x := range v {
		if math.Float32bits(x) != math.Float32bits(sentinel) {
			t.Fatalf("%s: element %d written (%g), outside the kernel's rows", what, i, x)
		}
	}
}

func TestKernels(t *testing.T) {
	rng := mathx.NewXorshift32(41)
	for _, in := range []int{1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 40, 59} {
		for _, out := range []int{1, 2, 3, 4, 5, 7, 8, 9, 13} {
			for _, n := range []int{1, 2, 3, 5} {
				t.Run(fmt.Sprintf("%dx%d,%d", in, out, n), func(t *testing.T) {
					w, b := randSlice(&rng, out*in, 1), randSlice(&rng, out, 1)
					x, dy := randSlice(&rng, n*in, 1), sparseDY(&rng, n*out)
					r0, r1 := n/3, n     // the rows a worker is given
					o0, o1 := out/3, out // the weight rows
					if n > 2 {
						r1 = n - 1
					}

					// gemv and forwardRows: y = W x + b
					y := make([]float32, n*out)
					fill(y, sentinel)
					forwardRows(y, x, w, b, in, out, r0, r1)
					for r := 0; r < n; r++ {
						if r < r0 || r >= r1 {
							untouched(t, "forwardRows", y[r*out:(r+1)*out])
							continue
						}
						yv := make([]float32, out)
						gemv(yv, w, x[r*in:(r+1)*in], b, out, in)
						for o := 0; o < out; o++ {
							s, mag := float64(b[o]), math.Abs(float64(b[o]))
							for i := 0; i < in; i++ {
								p := float64(w[o*in+i]) * float64(x[r*in+i])
								s, mag = s+p, mag+math.Abs(p)
							}
							within(t, fmt.Sprintf("forwardRows row %d out %d", r, o), y[r*out+o], s, mag, in)
							within(t, fmt.Sprintf("gemv row %d out %d", r, o), yv[o], s, mag, in)
						}
					}

					// backInRows: dX = dY W
					dx := make([]float32, n*in)
					fill(dx, sentinel)
					backInRows(dx, dy, w, in, out, r0, r1)
					for r := 0; r < n; r++ {
						if r < r0 || r >= r1 {
							untouched(t, "backInRows", dx[r*in:(r+1)*in])
							continue
						}
						for i := 0; i < in; i++ {
							s, mag := 0.0, 0.0
							for o := 0; o < out; o++ {
								p := float64(dy[r*out+o]) * float64(w[o*in+i])
								s, mag = s+p, mag+math.Abs(p)
							}
							within(t, fmt.Sprintf("backInRows row %d in %d", r, i), dx[r*in+i], s, mag, out)
						}
					}

					// backWeightRows: dW += dYᵀ X, db += Σ dY, onto values
					// already there
					dw0, db0 := randSlice(&rng, out*in, 1), randSlice(&rng, out, 1)
					dw, db := append([]float32(nil), dw0...), append([]float32(nil), db0...)
					for o := 0; o < out; o++ {
						if o < o0 || o >= o1 {
							fill(dw[o*in:(o+1)*in], sentinel)
							db[o] = sentinel
						}
					}
					backWeightRows(dw, db, dy, x, in, out, n, o0, o1)
					for o := 0; o < out; o++ {
						if o < o0 || o >= o1 {
							untouched(t, "backWeightRows", append(dw[o*in:(o+1)*in:(o+1)*in], db[o]))
							continue
						}
						sb, mb := float64(db0[o]), math.Abs(float64(db0[o]))
						for r := 0; r < n; r++ {
							sb, mb = sb+float64(dy[r*out+o]), mb+math.Abs(float64(dy[r*out+o]))
						}
						within(t, fmt.Sprintf("backWeightRows bias %d", o), db[o], sb, mb, n)
						for i := 0; i < in; i++ {
							s, mag := float64(dw0[o*in+i]), math.Abs(float64(dw0[o*in+i]))
							for r := 0; r < n; r++ {
								p := float64(dy[r*out+o]) * float64(x[r*in+i])
								s, mag = s+p, mag+math.Abs(p)
							}
							within(t, fmt.Sprintf("backWeightRows out %d in %d", o, i), dw[o*in+i], s, mag, n)
						}
					}
				})
			}
		}
	}
}
