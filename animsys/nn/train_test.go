package nn

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"kinelab/animsys/mathx"
)

// fitData is n rows of x in [-1, 1)³ and y = (sin(x0 + 2 x1), x2 cos(x0)):
// a smooth function a 3-32-32-2 network can fit.
func fitData(n int, seed uint32) (x, y []float32) {
	rng := mathx.NewXorshift32(seed)
	x, y = randSlice(&rng, 3*n, 1), make([]float32, 2*n)
	for r := 0; r < n; r++ {
		a, b, c := float64(x[3*r]), float64(x[3*r+1]), float64(x[3*r+2])
		y[2*r], y[2*r+1] = float32(math.Sin(a+2*b)), float32(c*math.Cos(a))
	}
	return x, y
}

// step is one AdamW step on the batch rows [r0, r0+n) of x, y on the
// mean squared error; it returns the batch's loss (mean over rows of
// 0.5 Σ (y - target)²).
func step(m *MLP, opt *AdamW, t *Tape, g *Grads, x, y []float32, r0, n int) float64 {
	out := m.ForwardBatch(t, x[3*r0:], n)
	d, loss := make([]float32, 2*n), 0.0
	for i := range d {
		e := out[i] - y[2*r0+i]
		d[i] = e / float32(n)
		loss += 0.5 * float64(e) * float64(e) / float64(n)
	}
	g.Zero()
	m.Backward(t, d, g)
	opt.Update(m, g)
	return loss
}

// meanLoss is the loss over all rows, without a step.
func meanLoss(m *MLP, x, y []float32, n int) float64 {
	out, s, loss := make([]float32, 2), m.NewScratch(), 0.0
	for r := 0; r < n; r++ {
		m.Forward(out, x[3*r:3*r+3], s)
		for i := range out {
			e := float64(out[i] - y[2*r+i])
			loss += 0.5 * e * e / float64(n)
		}
	}
	return loss
}

// TestAdamWFits trains a 3-32-32-2 ReLU network on 256 samples of a
// smooth function, 400 steps of batches of 64 at a rate of 3e-3 from a
// fixed seed, and wants the loss below a twentieth of the untrained
// network's. The bound has a margin: these runs end at 0.6% of it in
// both builds (whose roundings differ), while an optimiser that moves the
// wrong way, or by a gradient wrong in sign or scale, does not reach it.
func TestAdamWFits(t *testing.T) {
	const n, batch, steps = 256, 64, 400
	x, y := fitData(n, 31)
	rng := mathx.NewXorshift32(32)
	m := New([]int{3, 32, 32, 2}, ReLU, &rng)
	opt, tape, g := NewAdamW(m, 3e-3, 1e-4), m.NewTape(batch), m.NewGrads()
	before := meanLoss(m, x, y, n)
	for s := 0; s < steps; s++ {
		step(m, opt, tape, g, x, y, (s%(n/batch))*batch, batch)
	}
	after := meanLoss(m, x, y, n)
	t.Logf("loss %.4g before, %.4g after %d steps (%.2f%%)", before, after, steps, 100*after/before)
	if !(after < before/20) {
		t.Fatalf("loss %g after %d steps, %g before: want below a twentieth", after, steps, before)
	}
}

// TestAdamWStateRoundTrip checks that an optimiser's state read back has
// the same step and moments, bit for bit, so training goes on exactly as
// it would have; and that a short state is refused.
func TestAdamWStateRoundTrip(t *testing.T) {
	const n = 64
	x, y := fitData(n, 33)
	rng := mathx.NewXorshift32(34)
	m := New([]int{3, 16, 2}, ELU, &rng)
	opt, tape, g := NewAdamW(m, 1e-3, 1e-2), m.NewTape(n), m.NewGrads()
	for s := 0; s < 5; s++ {
		step(m, opt, tape, g, x, y, 0, n)
	}
	var buf bytes.Buffer
	if err := opt.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back := NewAdamW(m, 1e-3, 1e-2)
	if err := back.ReadState(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	if back.Step != opt.Step {
		t.Fatalf("step %d read, %d written", back.Step, opt.Step)
	}
	for k, pair := range [][2]*Grads{{opt.m, back.m}, {opt.v, back.v}} {
		for l := range pair[0].W {
			for _, s := range [][2][]float32{{pair[0].W[l], pair[1].W[l]}, {pair[0].B[l], pair[1].B[l]}} {
				for i := range s[0] {
					if math.Float32bits(s[0][i]) != math.Float32bits(s[1][i]) {
						t.Fatalf("moment %d layer %d [%d]: %g written, %g read", k+1, l, i, s[0][i], s[1][i])
					}
				}
			}
		}
	}
	// the same next step from both: the same weights
	m2 := New([]int{3, 16, 2}, ELU, &rng)
	for l := range m.Layers {
		copy(m2.Layers[l].W, m.Layers[l].W)
		copy(m2.Layers[l].B, m.Layers[l].B)
	}
	step(m, opt, tape, g, x, y, 0, n)
	step(m2, back, m2.NewTape(n), m2.NewGrads(), x, y, 0, n)
	for l := range m.Layers {
		for i, w := range m.Layers[l].W {
			if math.Float32bits(w) != math.Float32bits(m2.Layers[l].W[i]) {
				t.Fatalf("after a step from the state read back, layer %d W[%d] is %g, %g from the original", l, i, m2.Layers[l].W[i], w)
			}
		}
	}
	err := back.ReadState(bytes.NewReader(buf.Bytes()[:buf.Len()-1]))
	if err == nil || !strings.Contains(err.Error(), "ends early") {
		t.Fatalf("a state one byte short: error %v, want one saying it ends early", err)
	}
}
