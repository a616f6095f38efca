package nn

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"kinelab/animsys/mathx"
)

// TestWriteReadRoundTrip checks that a network read back has the same
// shape and bits, and so gives the same outputs bit for bit.
func TestWriteReadRoundTrip(t *testing.T) {
	m := testNet([]int{13, 37, 20, 6}, ELU, 21)
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	same := func(what string, a, b []float32) {
		if len(a) != len(b) {
			t.Fatalf("%s: %d values read, %d written", what, len(b), len(a))
		}
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("%s[%d]: %g written, %g read", what, i, a[i], b[i])
			}
		}
	}
	if len(got.Layers) != len(m.Layers) {
		t.Fatalf("%d layers read, %d written", len(got.Layers), len(m.Layers))
	}
	for l, d := range m.Layers {
		e := got.Layers[l]
		if e.In != d.In || e.Out != d.Out || e.Act != d.Act {
			t.Fatalf("layer %d: %dx%d %v read, %dx%d %v written", l, e.In, e.Out, e.Act, d.In, d.Out, d.Act)
		}
		same("W", d.W, e.W)
		same("B", d.B, e.B)
	}
	same("InMean", m.InMean, got.InMean)
	same("InStd", m.InStd, got.InStd)
	same("OutMean", m.OutMean, got.OutMean)
	same("OutStd", m.OutStd, got.OutStd)

	rng := mathx.NewXorshift32(22)
	a, b := make([]float32, m.Out()), make([]float32, m.Out())
	for k := 0; k < 5; k++ {
		in := randSlice(&rng, m.In(), 3)
		m.Forward(a, in, m.NewScratch())
		got.Forward(b, in, got.NewScratch())
		same("output", a, b)
	}
}

// header is a stored network's header: the layer count, then In, Out
// and the activation of each layer.
func header(layers ...[3]uint32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint32(len(layers)))
	for _, l := range layers {
		binary.Write(&b, binary.LittleEndian, l[:])
	}
	return b.Bytes()
}

// TestReadRefuses checks that Read refuses what is not a network, each
// with an error that says what is wrong.
func TestReadRefuses(t *testing.T) {
	m := testNet([]int{4, 5, 3}, ReLU, 23)
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	// Byte offsets: the header is 4 + 2·12 bytes, then layer 0's W (20
	// floats) and B (5), layer 1's W (15) and B (3), the normalisation
	// (2·4 + 2·3).
	const hdr, w0 = 28, 28
	patch := func(off int, v float32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[off:], math.Float32bits(v))
		return b
	}
	norm := hdr + 4*(20+5+15+3)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "ends early"},
		{"cut in the header", good[:10], "ends early"},
		{"cut in the weights", good[:w0+7], "layer 0: the file ends early"},
		{"cut in the normalisation", good[:len(good)-3], "normalisation: the file ends early"},
		{"NaN weight", patch(w0+4*3, float32(math.NaN())), "layer 0: a value is not finite"},
		{"infinite bias", patch(w0+4*20, float32(math.Inf(1))), "layer 0: a value is not finite"},
		{"zero std", patch(norm+4*4, 0), "standard deviation is not positive"},
		{"no layers", header(), "0 layers, want 1 to 64"},
		{"a million layers", binary.LittleEndian.AppendUint32(nil, 1<<20), "1048576 layers, want 1 to 64"},
		{"2 GiB of weights", header([3]uint32{16384, 16384, 1}, [3]uint32{16384, 16384, 0}), "536903680 weights, want at most 268435456"},
		{"layers that do not chain", header([3]uint32{4, 5, 1}, [3]uint32{6, 3, 0}), "layer 1 takes 6 inputs, the layer before gives 5"},
		{"absurd width", header([3]uint32{4, 1 << 30, 1}), "layer 0 is 4x1073741824, want 1 to 16384 units"},
		{"zero width", header([3]uint32{0, 3, 1}), "layer 0 is 0x3"},
		{"unknown activation", header([3]uint32{4, 3, 9}), "layer 0: activation 9 unknown"},
	}
	for _, c := range cases {
		got, err := Read(bytes.NewReader(c.data))
		if err == nil {
			t.Errorf("%s: read a network of %d layers, want an error", c.name, len(got.Layers))
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want one saying %q", c.name, err, c.want)
		}
	}
}
