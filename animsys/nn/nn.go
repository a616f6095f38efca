// Package nn is kinelab's small neural-network kit: multilayer
// perceptrons of dense layers, their forward pass for one vector (no
// allocation: what a character runs each frame) and for a batch, the
// batch's backward pass, and the AdamW optimiser. It is what learned
// motion matching (Holden et al. 2020, "Learned Motion Matching") needs
// and no more: its networks are a few dense layers wide, trained on one
// machine's cores. Pure Go; the matrix kernels are in gemm.go.
package nn

import (
	"fmt"
	"math"

	"kinelab/animsys/mathx"
)

// Act is a layer's activation.
type Act uint8

// The activations: none, the rectifier max(0, x), and the exponential
// linear unit (x > 0 ? x : e^x - 1), which the compressor of learned
// motion matching uses so that its latent stays smooth.
const (
	Linear Act = iota
	ReLU
	ELU
	numActs
)

var actNames = [numActs]string{"linear", "relu", "elu"}

func (a Act) String() string {
	if a < numActs {
		return actNames[a]
	}
	return fmt.Sprintf("Act(%d)", int(a))
}

// Dense is one layer: y = act(W x + b), W Out rows of In weights each
// (row-major), b Out biases.
type Dense struct {
	In, Out int
	W, B    []float32
	Act     Act
}

// MLP is a chain of dense layers, each the next one's input, with the
// normalisation of its input and output kept beside the weights: a
// network is given raw values and gives raw values back (Forward), while
// it learns on unit-scaled ones.
type MLP struct {
	Layers []Dense
	// InMean, InStd: x is fed as (x - InMean) / InStd; OutMean, OutStd:
	// the last layer's y is given back as y·OutStd + OutMean. Each as long
	// as In and Out; a std is never 0 (Normalise floors them).
	InMean, InStd, OutMean, OutStd []float32
}

// New makes an MLP of the sizes given (input, hidden..., output), every
// hidden layer with activation hidden and the last one linear, the
// weights drawn by He's initialisation (a normal of variance 2/In, from
// rng, so a seed makes the same network) and the biases 0, the
// normalisation the identity.
func New(sizes []int, hidden Act, rng *mathx.Xorshift32) *MLP {
	if len(sizes) < 2 {
		panic("nn.New: want at least an input and an output size")
	}
	m := &MLP{}
	for l := 0; l+1 < len(sizes); l++ {
		in, out := sizes[l], sizes[l+1]
		d := Dense{In: in, Out: out, W: make([]float32, in*out), B: make([]float32, out), Act: hidden}
		if l+2 == len(sizes) {
			d.Act = Linear
		}
		sd := float32(math.Sqrt(2 / float64(in)))
		for i := range d.W {
			d.W[i] = sd * Normal(rng)
		}
		m.Layers = append(m.Layers, d)
	}
	m.InMean, m.InStd = make([]float32, sizes[0]), ones(sizes[0])
	m.OutMean, m.OutStd = make([]float32, m.Out()), ones(m.Out())
	return m
}

func ones(n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// Normal is a standard normal draw from rng (Box-Muller): New's weights,
// and a trainer's noise.
func Normal(rng *mathx.Xorshift32) float32 {
	u1 := max(float64(rng.Float()), 1e-12)
	u2 := float64(rng.Float())
	return float32(math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2))
}

// In is the input's size, Out the output's.
func (m *MLP) In() int  { return m.Layers[0].In }
func (m *MLP) Out() int { return m.Layers[len(m.Layers)-1].Out }

// Params is the number of weights and biases.
func (m *MLP) Params() int {
	n := 0
	for i := range m.Layers {
		n += len(m.Layers[i].W) + len(m.Layers[i].B)
	}
	return n
}

// Bytes is the memory the network holds (float32 weights, biases and
// normalisation).
func (m *MLP) Bytes() int {
	return 4 * (m.Params() + 2*m.In() + 2*m.Out())
}

// widest is the widest layer output.
func (m *MLP) widest() int {
	w := 0
	for i := range m.Layers {
		w = max(w, m.Layers[i].Out, m.Layers[i].In)
	}
	return w
}

// Scratch is the working memory of Forward: two buffers as wide as the
// widest layer.
type Scratch struct{ a, b []float32 }

// NewScratch allocates the working memory of Forward on m.
func (m *MLP) NewScratch() *Scratch {
	w := m.widest()
	return &Scratch{a: make([]float32, w), b: make([]float32, w)}
}

// Forward writes the network's output for in (raw, len In) to out (raw,
// len Out), in s's memory: it allocates nothing.
func (m *MLP) Forward(out, in []float32, s *Scratch) {
	x := s.a[:m.In()]
	for i, v := range in[:len(x)] {
		x[i] = (v - m.InMean[i]) / m.InStd[i]
	}
	for l := range m.Layers {
		d := &m.Layers[l]
		y := s.b[:d.Out]
		if l&1 == 1 {
			y = s.a[:d.Out]
		}
		gemv(y, d.W, x, d.B, d.Out, d.In)
		activate(y, d.Act)
		x = y
	}
	for i := range out[:m.Out()] {
		out[i] = x[i]*m.OutStd[i] + m.OutMean[i]
	}
}

// activate applies a to y in place.
func activate(y []float32, a Act) {
	switch a {
	case ReLU:
		for i, v := range y {
			y[i] = max(v, 0)
		}
	case ELU:
		for i, v := range y {
			if v < 0 {
				y[i] = float32(math.Expm1(float64(v)))
			}
		}
	}
}

// activateGrad multiplies dy by the activation's derivative, read from
// its output y (ReLU: 1 where y > 0; ELU: 1 where y > 0, else y + 1).
func activateGrad(dy, y []float32, a Act) {
	switch a {
	case ReLU:
		for i, v := range y {
			if v <= 0 {
				dy[i] = 0
			}
		}
	case ELU:
		for i, v := range y {
			if v < 0 {
				dy[i] *= v + 1
			}
		}
	}
}

// Normalise sets the input (or output) normalisation from the mean and
// standard deviation of the rows of data (n rows of len dims), each
// standard deviation floored at floor (a value that never varies is not
// blown up).
func Normalise(data []float32, dims int, floor float32) (mean, std []float32) {
	n := len(data) / dims
	mean, std = make([]float32, dims), make([]float32, dims)
	if n == 0 {
		for i := range std {
			std[i] = 1
		}
		return
	}
	acc := make([]float64, dims)
	for r := 0; r < n; r++ {
		for i, v := range data[r*dims : (r+1)*dims] {
			acc[i] += float64(v)
		}
	}
	for i := range acc {
		mean[i] = float32(acc[i] / float64(n))
		acc[i] = 0
	}
	for r := 0; r < n; r++ {
		for i, v := range data[r*dims : (r+1)*dims] {
			d := float64(v - mean[i])
			acc[i] += d * d
		}
	}
	for i := range acc {
		std[i] = max(float32(math.Sqrt(acc[i]/float64(n))), floor)
	}
	return mean, std
}
