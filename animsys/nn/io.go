package nn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// An MLP is stored as little-endian binary: the layer count, then per
// layer In, Out (uint32), its activation (uint32), W and B (float32);
// then the four normalisation vectors. AdamW's state is its step and its
// two moments, laid out as the network's gradients.

// maxUnits bounds a stored layer's width and maxLayers its depth: a
// corrupt file is refused before it asks for gigabytes.
const (
	maxUnits  = 1 << 14
	maxLayers = 64
	// maxParams bounds a stored network's weights and biases (1 GiB of
	// float32), checked before any is allocated: 16384-wide layers
	// 64 deep would ask for 64 GiB.
	maxParams = 1 << 28
)

// Write stores m in w.
func (m *MLP) Write(w io.Writer) error {
	hdr := []uint32{uint32(len(m.Layers))}
	for i := range m.Layers {
		d := &m.Layers[i]
		hdr = append(hdr, uint32(d.In), uint32(d.Out), uint32(d.Act))
	}
	if err := binary.Write(w, binary.LittleEndian, hdr); err != nil {
		return err
	}
	for i := range m.Layers {
		if err := writeFloats(w, m.Layers[i].W, m.Layers[i].B); err != nil {
			return err
		}
	}
	return writeFloats(w, m.InMean, m.InStd, m.OutMean, m.OutStd)
}

func writeFloats(w io.Writer, vs ...[]float32) error {
	for _, v := range vs {
		if err := binary.Write(w, binary.LittleEndian, v); err != nil {
			return err
		}
	}
	return nil
}

// Read loads an MLP stored by Write, refusing what is not one: sizes out
// of bounds, layers that do not chain, a value that is not finite, or a
// standard deviation that is not positive.
func Read(r io.Reader) (*MLP, error) {
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, fmt.Errorf("network: %w", eof(err))
	}
	if n == 0 || n > maxLayers {
		return nil, fmt.Errorf("network: %d layers, want 1 to %d", n, maxLayers)
	}
	hdr := make([]uint32, 3*n)
	if err := binary.Read(r, binary.LittleEndian, hdr); err != nil {
		return nil, fmt.Errorf("network: %w", eof(err))
	}
	m := &MLP{}
	params := 0
	for l := 0; l < int(n); l++ {
		// widths out of range are said below, layer by layer
		params += min(int(hdr[3*l])+1, maxUnits+1) * min(int(hdr[3*l+1]), maxUnits)
	}
	if params > maxParams {
		return nil, fmt.Errorf("network: %d weights, want at most %d", params, maxParams)
	}
	for l := 0; l < int(n); l++ {
		in, out, act := int(hdr[3*l]), int(hdr[3*l+1]), Act(hdr[3*l+2])
		switch {
		case in < 1 || in > maxUnits || out < 1 || out > maxUnits:
			return nil, fmt.Errorf("network: layer %d is %dx%d, want 1 to %d units", l, in, out, maxUnits)
		case act >= numActs:
			return nil, fmt.Errorf("network: layer %d: activation %d unknown", l, act)
		case l > 0 && in != m.Layers[l-1].Out:
			return nil, fmt.Errorf("network: layer %d takes %d inputs, the layer before gives %d", l, in, m.Layers[l-1].Out)
		}
		m.Layers = append(m.Layers, Dense{In: in, Out: out, Act: act, W: make([]float32, in*out), B: make([]float32, out)})
	}
	for l := range m.Layers {
		if err := readFloats(r, m.Layers[l].W, m.Layers[l].B); err != nil {
			return nil, fmt.Errorf("network: layer %d: %w", l, err)
		}
	}
	m.InMean, m.InStd = make([]float32, m.In()), make([]float32, m.In())
	m.OutMean, m.OutStd = make([]float32, m.Out()), make([]float32, m.Out())
	if err := readFloats(r, m.InMean, m.InStd, m.OutMean, m.OutStd); err != nil {
		return nil, fmt.Errorf("network: normalisation: %w", err)
	}
	for _, s := range [][]float32{m.InStd, m.OutStd} {
		for _, v := range s {
			if !(v > 0) {
				return nil, errors.New("network: a standard deviation is not positive")
			}
		}
	}
	return m, nil
}

func readFloats(r io.Reader, vs ...[]float32) error {
	for _, v := range vs {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return eof(err)
		}
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return errors.New("a value is not finite")
			}
		}
	}
	return nil
}

// eof names a short file.
func eof(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the file ends early")
	}
	return err
}

// Write stores the optimiser's state (its step and moments; its rates
// are the trainer's to set) in w.
func (a *AdamW) Write(w io.Writer) error {
	if err := binary.Write(w, binary.LittleEndian, uint64(a.Step)); err != nil {
		return err
	}
	for _, g := range []*Grads{a.m, a.v} {
		for l := range g.W {
			if err := writeFloats(w, g.W[l], g.B[l]); err != nil {
				return err
			}
		}
	}
	return nil
}

// ReadState loads the state Write stored into a (made by NewAdamW for
// the same network).
func (a *AdamW) ReadState(r io.Reader) error {
	var step uint64
	if err := binary.Read(r, binary.LittleEndian, &step); err != nil {
		return fmt.Errorf("optimiser: %w", eof(err))
	}
	if step > 1<<40 {
		return fmt.Errorf("optimiser: step %d", step)
	}
	a.Step = int(step)
	for _, g := range []*Grads{a.m, a.v} {
		for l := range g.W {
			if err := readFloats(r, g.W[l], g.B[l]); err != nil {
				return fmt.Errorf("optimiser: %w", err)
			}
		}
	}
	return nil
}
