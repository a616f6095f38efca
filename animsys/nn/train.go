package nn

import (
	"math"
	"runtime"
	"sync"
)

// Tape holds a batch's pass through an MLP: every layer's output (after
// its activation) and the gradients flowing back, for up to Rows rows.
// It is the memory of ForwardBatch and Backward, reused batch after
// batch.
type Tape struct {
	Rows int
	in   []float32   // the normalised input, Rows x In
	acts [][]float32 // per layer, Rows x Out
	dx   [][]float32 // per layer, the gradient at its input, Rows x In
	dy   []float32   // the gradient at the last output, Rows x Out
	n    int         // rows of the last batch
}

// NewTape allocates a tape for batches of up to rows rows.
func (m *MLP) NewTape(rows int) *Tape {
	t := &Tape{Rows: rows, in: make([]float32, rows*m.In()), dy: make([]float32, rows*m.Out())}
	for i := range m.Layers {
		t.acts = append(t.acts, make([]float32, rows*m.Layers[i].Out))
		t.dx = append(t.dx, make([]float32, rows*m.Layers[i].In))
	}
	return t
}

// ForwardBatch runs n rows of normalised input x (n x In; n <= Rows) and
// returns the normalised output (n x Out, the tape's memory: valid until
// the next ForwardBatch on t). Training works in normalised units; the
// caller normalises (NormIn).
func (m *MLP) ForwardBatch(t *Tape, x []float32, n int) []float32 {
	t.n = n
	copy(t.in, x[:n*m.In()])
	cur := t.in
	for l := range m.Layers {
		d := &m.Layers[l]
		y := t.acts[l][:n*d.Out]
		parallel(n, func(r0, r1 int) {
			forwardRows(y, cur, d.W, d.B, d.In, d.Out, r0, r1)
			activate(y[r0*d.Out:r1*d.Out], d.Act)
		})
		cur = y
	}
	return cur
}

// Grads are the gradients of a loss with respect to every weight and
// bias of an MLP, laid out as its layers.
type Grads struct{ W, B [][]float32 }

// NewGrads allocates zero gradients for m.
func (m *MLP) NewGrads() *Grads {
	g := &Grads{}
	for i := range m.Layers {
		g.W = append(g.W, make([]float32, len(m.Layers[i].W)))
		g.B = append(g.B, make([]float32, len(m.Layers[i].B)))
	}
	return g
}

// Zero sets every gradient to 0.
func (g *Grads) Zero() {
	for i := range g.W {
		clear(g.W[i])
		clear(g.B[i])
	}
}

// Backward takes the gradient of a loss at the last ForwardBatch's
// output (n x Out, normalised units), adds the gradients of the weights
// and biases to g (a sum over the rows: scale the loss, not g, for a
// mean), and returns the gradient at the normalised input (n x In, the
// tape's memory), for a network that feeds this one.
func (m *MLP) Backward(t *Tape, dOut []float32, g *Grads) []float32 {
	n := t.n
	dy := t.dy[:n*m.Out()]
	copy(dy, dOut[:len(dy)])
	for l := len(m.Layers) - 1; l >= 0; l-- {
		d := &m.Layers[l]
		activateGrad(dy, t.acts[l][:n*d.Out], d.Act)
		// the layer's input: the tape's input for the first layer (sliced
		// only there: it is In wide, not the layer's In), else the layer
		// before's output
		x := t.in
		if l > 0 {
			x = t.acts[l-1]
		}
		x = x[:n*d.In]
		dw, db, dyl := g.W[l], g.B[l], dy
		parallel(d.Out, func(o0, o1 int) { backWeightRows(dw, db, dyl, x, d.In, d.Out, n, o0, o1) })
		dx := t.dx[l][:n*d.In]
		parallel(n, func(r0, r1 int) { backInRows(dx, dyl, d.W, d.In, d.Out, r0, r1) })
		dy = dx
	}
	return dy
}

// NormIn writes raw input rows (n x In) normalised by the network's
// input normalisation into out.
func (m *MLP) NormIn(out, raw []float32, n int) {
	in := m.In()
	for r := 0; r < n; r++ {
		for i := 0; i < in; i++ {
			out[r*in+i] = (raw[r*in+i] - m.InMean[i]) / m.InStd[i]
		}
	}
}

// Workers is how many goroutines a batch's pass is split among: one a
// core.
var Workers = runtime.GOMAXPROCS(0)

// parallel runs f over [0, n) in Workers contiguous parts (inline for one
// worker or a small n).
func parallel(n int, f func(lo, hi int)) {
	w := min(Workers, n/8)
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		lo, hi := n*k/w, n*(k+1)/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// AdamW is the Adam optimiser with decoupled weight decay (Loshchilov &
// Hutter 2019): each parameter moves by LR·(m̂ / (√v̂ + Eps) + Decay·w),
// m and v the running means of its gradient and squared gradient, bias-
// corrected. Decay applies to weights, not biases.
type AdamW struct {
	LR, Beta1, Beta2, Eps, Decay float32
	Step                         int
	m, v                         *Grads
}

// NewAdamW makes an optimiser for net with the usual betas (0.9, 0.999).
func NewAdamW(net *MLP, lr, decay float32) *AdamW {
	return &AdamW{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, Decay: decay, m: net.NewGrads(), v: net.NewGrads()}
}

// Update moves net's parameters by one step on gradients g.
func (a *AdamW) Update(net *MLP, g *Grads) {
	a.Step++
	c1 := 1 / (1 - float32(math.Pow(float64(a.Beta1), float64(a.Step))))
	c2 := 1 / (1 - float32(math.Pow(float64(a.Beta2), float64(a.Step))))
	for l := range net.Layers {
		d := &net.Layers[l]
		a.update(d.W, g.W[l], a.m.W[l], a.v.W[l], c1, c2, a.Decay)
		a.update(d.B, g.B[l], a.m.B[l], a.v.B[l], c1, c2, 0)
	}
}

// update moves parameters w by their gradients g and moments m, v: the
// lanes a block at a time, split among the workers (a step's update is
// as many values as its products' weights: a third of the step's time
// one at a time in float64), the tail one at a time in the same float32
// operations.
func (a *AdamW) update(w, g, m, v []float32, c1, c2, decay float32) {
	b1, b2, lr, eps := a.Beta1, a.Beta2, a.LR, a.Eps
	n := len(g) / lanes * lanes
	parallel(n/lanes, func(k0, k1 int) {
		B1, B2, A1, A2 := splat(b1), splat(b2), splat(1-b1), splat(1-b2)
		C1, C2, LR, EPS, D := splat(c1), splat(c2), splat(lr), splat(eps), splat(decay)
		for i := k0 * lanes; i < k1*lanes; i += lanes {
			gi, wi := ld(g[i:]), ld(w[i:])
			mi := B1.Mul(ld(m[i:])).Add(A1.Mul(gi))
			vi := B2.Mul(ld(v[i:])).Add(A2.Mul(gi.Mul(gi)))
			st(m[i:], mi)
			st(v[i:], vi)
			step := mi.Mul(C1).Div(vi.Mul(C2).Sqrt().Add(EPS)).Add(D.Mul(wi))
			st(w[i:], wi.Sub(LR.Mul(step)))
		}
	})
	for i := n; i < len(g); i++ {
		gi := g[i]
		m[i] = b1*m[i] + (1-b1)*gi
		v[i] = b2*v[i] + (1-b2)*(gi*gi)
		step := m[i] * c1 / (float32(math.Sqrt(float64(v[i]*c2))) + eps)
		w[i] -= lr * (step + decay*w[i])
	}
}
