package nn

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"kinelab/animsys/mathx"
)

// The benchmarks report GFLOP/s: a multiply and an add are two
// floating-point operations, counted for every product a pass forms,
// including those the kernels skip where a ReLU's gradient is 0 (so the
// figure is the nominal rate, comparable across kernels).

// randSlice is n uniform values in [-s, s).
func randSlice(rng *mathx.Xorshift32, n int, s float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = rng.Range(s)
	}
	return v
}

// weightFlops is 2 Σ In·Out: one vector's multiply-adds through m.
func weightFlops(m *MLP) float64 {
	f := 0.0
	for i := range m.Layers {
		f += 2 * float64(m.Layers[i].In*m.Layers[i].Out)
	}
	return f
}

func reportGflops(b *testing.B, flopsPerOp float64) {
	b.ReportMetric(flopsPerOp*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkForward is one vector through a 59-512-340 ReLU network: the
// size of learned motion matching's decompressor, what a character runs
// each frame.
func BenchmarkForward(b *testing.B) {
	rng := mathx.NewXorshift32(1)
	m := New([]int{59, 512, 340}, ReLU, &rng)
	in, out, s := randSlice(&rng, 59, 1), make([]float32, 340), m.NewScratch()
	b.ReportAllocs()
	for b.Loop() {
		m.Forward(out, in, s)
	}
	reportGflops(b, weightFlops(m))
}

// BenchmarkTrainStep is one step of training a 400-512-512-32 ReLU
// network on a batch of 64 rows: ForwardBatch, the loss's gradient,
// Backward and AdamW's update. Three products per weight and row
// (forward, the weight's gradient, the input's gradient, the first
// layer's included, as Backward computes it).
func BenchmarkTrainStep(b *testing.B) {
	const rows = 64
	rng := mathx.NewXorshift32(2)
	m := New([]int{400, 512, 512, 32}, ReLU, &rng)
	x, target := randSlice(&rng, rows*400, 1), randSlice(&rng, rows*32, 1)
	t, g, opt := m.NewTape(rows), m.NewGrads(), NewAdamW(m, 1e-4, 1e-4)
	dOut := make([]float32, rows*32)
	b.ReportAllocs()
	for b.Loop() {
		y := m.ForwardBatch(t, x, rows)
		for i := range dOut {
			dOut[i] = (y[i] - target[i]) / rows
		}
		g.Zero()
		m.Backward(t, dOut, g)
		opt.Update(m, g)
	}
	reportGflops(b, 3*rows*weightFlops(m))
}

// gemmCase is one matrix product of a pass, on a layer of in x out and a
// batch of n rows.
type gemmCase struct {
	op          string // fwd (Y = X Wᵀ + b), bin (dX = dY W), bw (dW += dYᵀ X), gemv
	in, out, n  int
	x, w, y, dw []float32
	b, dy, dx   []float32
}

func newGemmCase(rng *mathx.Xorshift32, op string, in, out, n int) *gemmCase {
	return &gemmCase{op: op, in: in, out: out, n: n,
		x: randSlice(rng, n*in, 1), w: randSlice(rng, out*in, 0.1), y: make([]float32, n*out),
		dw: make([]float32, out*in), b: randSlice(rng, out, 0.1), dy: randSlice(rng, n*out, 1), dx: make([]float32, n*in)}
}

func (c *gemmCase) flops() float64 { return 2 * float64(c.in*c.out*c.n) }

// ours runs the case on this package's kernels, split among Workers as
// train.go splits them.
func (c *gemmCase) ours() {
	switch c.op {
	case "gemv":
		gemv(c.y, c.w, c.x, c.b, c.out, c.in)
	case "fwd":
		parallel(c.n, func(r0, r1 int) { forwardRows(c.y, c.x, c.w, c.b, c.in, c.out, r0, r1) })
	case "bin":
		parallel(c.n, func(r0, r1 int) { backInRows(c.dx, c.dy, c.w, c.in, c.out, r0, r1) })
	case "bw":
		parallel(c.out, func(o0, o1 int) { backWeightRows(c.dw, c.b, c.dy, c.x, c.in, c.out, c.n, o0, o1) })
	}
}

// gonum runs the same product by gonum's Sgemm (Sgemv for one vector),
// which splits it among GOMAXPROCS goroutines itself; the bias and its
// gradient, n·out additions, are left out.
func (c *gemmCase) gonum() {
	gen := func(r, k int, d []float32) blas32.General {
		return blas32.General{Rows: r, Cols: k, Stride: k, Data: d}
	}
	switch c.op {
	case "gemv":
		blas32.Gemv(blas.NoTrans, 1, gen(c.out, c.in, c.w), blas32.Vector{N: c.in, Inc: 1, Data: c.x}, 0, blas32.Vector{N: c.out, Inc: 1, Data: c.y})
	case "fwd":
		blas32.Gemm(blas.NoTrans, blas.Trans, 1, gen(c.n, c.in, c.x), gen(c.out, c.in, c.w), 0, gen(c.n, c.out, c.y))
	case "bin":
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, gen(c.n, c.out, c.dy), gen(c.out, c.in, c.w), 0, gen(c.n, c.in, c.dx))
	case "bw":
		blas32.Gemm(blas.Trans, blas.NoTrans, 1, gen(c.n, c.out, c.dy), gen(c.n, c.in, c.x), 1, gen(c.out, c.in, c.dw))
	}
}

// BenchmarkSgemm sets this package's kernels ("lanes") against gonum's
// Sgemm for the products of BenchmarkTrainStep's layers (batch 64) and
// BenchmarkForward's (one vector), one at a time, and all nine of the
// training step together ("step").
func BenchmarkSgemm(b *testing.B) {
	rng := mathx.NewXorshift32(3)
	var step []*gemmCase
	var cases []*gemmCase
	for _, s := range [][2]int{{400, 512}, {512, 512}, {512, 32}} {
		for _, op := range []string{"fwd", "bin", "bw"} {
			c := newGemmCase(&rng, op, s[0], s[1], 64)
			step, cases = append(step, c), append(cases, c)
		}
	}
	for _, s := range [][2]int{{59, 512}, {512, 340}} {
		cases = append(cases, newGemmCase(&rng, "gemv", s[0], s[1], 1))
	}
	kernels := []struct {
		name string
		run  func(*gemmCase)
	}{{"lanes", (*gemmCase).ours}, {"gonum", (*gemmCase).gonum}}
	for _, c := range cases {
		for _, k := range kernels {
			b.Run(fmt.Sprintf("%s/%dx%d/%s", c.op, c.in, c.out, k.name), func(b *testing.B) {
				for b.Loop() {
					k.run(c)
				}
				reportGflops(b, c.flops())
			})
		}
	}
	flops := 0.0
	for _, c := range step {
		flops += c.flops()
	}
	for _, k := range kernels {
		b.Run("step/"+k.name, func(b *testing.B) {
			for b.Loop() {
				for _, c := range step {
					k.run(c)
				}
			}
			reportGflops(b, flops)
		})
	}
}
