package nn

import (
	"math"
	"testing"

	"kinelab/animsys/mathx"
)

// ref is an MLP in float64, the oracle of the tests: the same weights,
// written out with plain loops.
type ref struct {
	in, out []int
	w, b    [][]float64
	act     []Act
	// the normalisation, as MLP's
	inMean, inStd, outMean, outStd []float64
}

func f64s(v []float32) []float64 {
	r := make([]float64, len(v))
	for i, x := range v {
		r[i] = float64(x)
	}
	return r
}

func toRef(m *MLP) *ref {
	r := &ref{inMean: f64s(m.InMean), inStd: f64s(m.InStd), outMean: f64s(m.OutMean), outStd: f64s(m.OutStd)}
	for _, d := range m.Layers {
		r.in, r.out = append(r.in, d.In), append(r.out, d.Out)
		r.w, r.b, r.act = append(r.w, f64s(d.W)), append(r.b, f64s(d.B)), append(r.act, d.Act)
	}
	return r
}

// forwardNorm is the output for a normalised input x (normalised units,
// as ForwardBatch), and the smallest |pre-activation| of a ReLU or ELU
// unit, where their derivatives jump or bend.
func (r *ref) forwardNorm(x []float64) (y []float64, kink float64) {
	kink = math.Inf(1)
	for l := range r.w {
		y = make([]float64, r.out[l])
		for o := range y {
			s := r.b[l][o]
			for i := 0; i < r.in[l]; i++ {
				s += r.w[l][o*r.in[l]+i] * x[i]
			}
			if r.act[l] != Linear {
				kink = min(kink, math.Abs(s))
			}
			switch {
			case r.act[l] == ReLU && s < 0:
				s = 0
			case r.act[l] == ELU && s < 0:
				s = math.Expm1(s)
			}
			y[o] = s
		}
		x = y
	}
	return y, kink
}

// forwardRaw is Forward's output for a raw input.
func (r *ref) forwardRaw(raw []float64) []float64 {
	x := make([]float64, len(raw))
	for i := range x {
		x[i] = (raw[i] - r.inMean[i]) / r.inStd[i]
	}
	y, _ := r.forwardNorm(x)
	for i := range y {
		y[i] = y[i]*r.outStd[i] + r.outMean[i]
	}
	return y
}

// loss is 0.5 Σ y² over the rows of xs (n rows of In, normalised), the
// loss the gradient tests differentiate; and the smallest |pre-
// activation| over them.
func (r *ref) loss(xs []float64, n int) (float64, float64) {
	s, kink := 0.0, math.Inf(1)
	in := r.in[0]
	for k := 0; k < n; k++ {
		y, kk := r.forwardNorm(xs[k*in : (k+1)*in])
		kink = min(kink, kk)
		for _, v := range y {
			s += 0.5 * v * v
		}
	}
	return s, kink
}

// testNet is a network of the sizes given with hidden activation act,
// random biases (New leaves them 0) and a normalisation far from the
// identity: means in [-2, 2), standard deviations in [0.5, 2.5).
func testNet(sizes []int, act Act, seed uint32) *MLP {
	rng := mathx.NewXorshift32(seed)
	m := New(sizes, act, &rng)
	for l := range m.Layers {
		for i := range m.Layers[l].B {
			m.Layers[l].B[i] = rng.Range(0.3)
		}
	}
	for _, v := range [][]float32{m.InMean, m.OutMean} {
		for i := range v {
			v[i] = rng.Range(2)
		}
	}
	for _, v := range [][]float32{m.InStd, m.OutStd} {
		for i := range v {
			v[i] = 1.5 + rng.Range(1)
		}
	}
	return m
}

// maxAbs is the largest |v|.
func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}

// The sizes the tests run: widths off the lanes' multiple of 8 and the
// kernels' blocks of 4 weight rows and 2 batch rows, so every tail runs,
// and one wide enough for whole blocks.
var testSizes = [][]int{{3, 9, 2}, {13, 37, 20, 6}, {59, 96, 33, 5}}

// TestForwardMatchesFloat64 holds Forward (raw in, raw out) to the
// float64 reference on random inputs, for each activation. Tolerance: a
// float32 dot product of n terms is within about n·2⁻²⁴ of Σ|terms| (far
// less on average, the roundings being random), n ≤ 96 here, and the
// terms' magnitudes stay within a few times the outputs' over three
// layers, so the error is of order 1e-6 of the outputs' largest; 2e-5 of
// it is allowed. A dropped or doubled term, a wrong row or a lost bias
// is of order 1e-2 of it or more.
func TestForwardMatchesFloat64(t *testing.T) {
	for _, sizes := range testSizes {
		for _, act := range []Act{ReLU, ELU, Linear} {
			m := testNet(sizes, act, 7)
			r, s := toRef(m), m.NewScratch()
			rng := mathx.NewXorshift32(8)
			out := make([]float32, m.Out())
			for k := 0; k < 20; k++ {
				in := make([]float32, m.In())
				for i := range in {
					in[i] = m.InMean[i] + rng.Range(3)
				}
				m.Forward(out, in, s)
				want := r.forwardRaw(f64s(in))
				tol := 2e-5 * maxAbs(want)
				for i := range want {
					if d := math.Abs(float64(out[i]) - want[i]); !(d <= tol) {
						t.Fatalf("%v %v input %d: output %d is %g, float64 %g (off by %.3g, allowed %.3g)", sizes, act, k, i, out[i], want[i], d, tol)
					}
				}
			}
		}
	}
}

// TestForwardBatchMatchesForward checks that a batch's rows (NormIn,
// ForwardBatch, unnormalised) give Forward's outputs bit for bit: both
// take each output's dot product in the same order (gemm.go), and the
// normalisations are the same float32 operations.
func TestForwardBatchMatchesForward(t *testing.T) {
	const rows = 11
	for _, sizes := range testSizes {
		for _, act := range []Act{ReLU, ELU} {
			m := testNet(sizes, act, 9)
			rng := mathx.NewXorshift32(10)
			raw := randSlice(&rng, rows*m.In(), 3)
			x := make([]float32, rows*m.In())
			m.NormIn(x, raw, rows)
			tape := m.NewTape(rows)
			y := m.ForwardBatch(tape, x, rows)
			out, s := make([]float32, m.Out()), m.NewScratch()
			for r := 0; r < rows; r++ {
				m.Forward(out, raw[r*m.In():(r+1)*m.In()], s)
				for i, v := range out {
					b := y[r*m.Out()+i]*m.OutStd[i] + m.OutMean[i]
					if math.Float32bits(b) != math.Float32bits(v) {
						t.Fatalf("%v %v row %d output %d: batch %g, Forward %g", sizes, act, r, i, b, v)
					}
				}
			}
		}
	}
}

// TestBackwardMatchesFiniteDifferences holds Backward's gradients of
// every weight, bias and input to central differences of the float64
// reference's loss 0.5 Σ y² over a batch (dOut = y). The differences
// step by h = 1e-6 in float64: their truncation error (h² times the
// loss's third derivative) and rounding (1e-16·loss/h) are both below
// 1e-9 of the gradients, so they are exact to the tolerance, which is
// float32's: Backward sums products of float32 values over a batch of 7
// rows and layers up to 37 wide, about 1e-6 relative to the sums'
// magnitudes; 1e-4 of the largest gradient of the tensor (plus 1e-4 of
// the value itself) is allowed. A missing activation derivative, a
// transposed index or a dropped row is an error of order the gradient.
// The step never crosses a ReLU's kink: the test checks that no pre-
// activation lies within 1e-4 of 0, where a step of 1e-6 times an input
// of a few units cannot reach.
func TestBackwardMatchesFiniteDifferences(t *testing.T) {
	const rows, h = 7, 1e-6
	for _, act := range []Act{ReLU, ELU} {
		for _, sizes := range [][]int{{19, 37, 21, 6}, {3, 9, 2}} {
			m := testNet(sizes, act, 11)
			rng := mathx.NewXorshift32(12)
			x := randSlice(&rng, rows*m.In(), 2)
			tape, g := m.NewTape(rows), m.NewGrads()
			y := m.ForwardBatch(tape, x, rows)
			dOut := append([]float32(nil), y...)
			dx := m.Backward(tape, dOut, g)

			r, xs := toRef(m), f64s(x)
			if _, kink := r.loss(xs, rows); kink < 1e-4 {
				t.Fatalf("%v %v: a pre-activation is %g from a kink; pick another seed", sizes, act, kink)
			}
			// fd is the central difference of the loss in *p.
			fd := func(p *float64) float64 {
				v := *p
				*p = v + h
				lp, _ := r.loss(xs, rows)
				*p = v - h
				lm, _ := r.loss(xs, rows)
				*p = v
				return (lp - lm) / (2 * h)
			}
			check := func(what string, got []float32, params []float64) {
				want := make([]float64, len(params))
				for i := range params {
					want[i] = fd(&params[i])
				}
				scale := maxAbs(want)
				for i := range want {
					tol := 1e-4 * (scale + math.Abs(want[i]))
					if d := math.Abs(float64(got[i]) - want[i]); !(d <= tol) {
						t.Fatalf("%v %v %s[%d]: Backward %g, finite difference %g (off by %.3g, allowed %.3g)", sizes, act, what, i, got[i], want[i], d, tol)
					}
				}
			}
			for l := range m.Layers {
				check("layer "+string(rune('0'+l))+" W", g.W[l], r.w[l])
				check("layer "+string(rune('0'+l))+" B", g.B[l], r.b[l])
			}
			check("input", dx, xs)
		}
	}
}

// TestForwardAllocates checks that Forward allocates nothing: it runs
// each frame for each character.
func TestForwardAllocates(t *testing.T) {
	m := testNet([]int{59, 96, 33, 5}, ELU, 13)
	in, out, s := make([]float32, m.In()), make([]float32, m.Out()), m.NewScratch()
	if n := testing.AllocsPerRun(100, func() { m.Forward(out, in, s) }); n != 0 {
		t.Fatalf("Forward allocates %v times a call, want 0", n)
	}
}

// TestWorkersSameBits checks that a batch's pass gives the same bits
// split among two goroutines as in one: every output, gradient and input
// gradient is a sum over the same terms in the same order whichever
// goroutine computes it (rows are split for ForwardBatch and the input
// gradients, weight rows for the weight gradients), so not merely close
// but equal.
func TestWorkersSameBits(t *testing.T) {
	const rows = 37 // parallel splits 16 rows or more
	defer func(w int) { Workers = w }(Workers)
	m := testNet([]int{19, 40, 24, 5}, ReLU, 14)
	rng := mathx.NewXorshift32(15)
	x, dOut := randSlice(&rng, rows*m.In(), 2), randSlice(&rng, rows*m.Out(), 1)
	run := func(w int) (y, dx []float32, g *Grads) {
		Workers = w
		tape := m.NewTape(rows)
		g = m.NewGrads()
		y = append([]float32(nil), m.ForwardBatch(tape, x, rows)...)
		dx = append([]float32(nil), m.Backward(tape, dOut, g)...)
		return y, dx, g
	}
	y1, dx1, g1 := run(1)
	y2, dx2, g2 := run(2)
	same := func(what string, a, b []float32) {
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("%s[%d]: %g with one worker, %g with two", what, i, a[i], b[i])
			}
		}
	}
	same("output", y1, y2)
	same("input gradient", dx1, dx2)
	for l := range g1.W {
		same("weight gradient", g1.W[l], g2.W[l])
		same("bias gradient", g1.B[l], g2.B[l])
	}
}

// TestParallelCovers checks that parallel's parts cover [0, n) once.
func TestParallelCovers(t *testing.T) {
	defer func(w int) { Workers = w }(Workers)
	for _, w := range []int{1, 2, 3, 8} {
		Workers = w
		for _, n := range []int{0, 1, 7, 15, 16, 17, 64, 100} {
			hits := make([]int32, n)
			parallel(n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					hits[i]++ // each index in one part: no race
				}
			})
			for i, c := range hits {
				if c != 1 {
					t.Fatalf("workers %d, n %d: index %d covered %d times", w, n, i, c)
				}
			}
		}
	}
}
