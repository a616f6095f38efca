package bvh

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"kinelab/animsys"
)

// writeLarge writes a mocap-like BVH file: the 23-joint humanoid in
// centimetres (72 channels: six on the root, three on the others, five End
// Sites) and frames of random values with three decimals in [-180, 180),
// one frame per line, at 120 fps. If keep is not nil it receives each
// value as float32.
func writeLarge(w io.Writer, frames int, keep *[]float32) error {
	sk := animsys.BenchSkeleton() // the default humanoid (assets.Humanoid)
	rest := animsys.NewClip("rest", 1, sk.Len(), 1)
	for j, o := range sk.Offsets {
		rest.SetPos(0, j, o)
	}
	var head bytes.Buffer
	if err := Write(&head, &sk, &rest, Centimetres.Scale()); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	h := head.Bytes()
	bw.Write(h[:bytes.Index(h, []byte("MOTION\n"))])
	bw.WriteString("MOTION\nFrames: " + strconv.Itoa(frames) + "\nFrame Time: 0.0083333\n")
	rng := rand.New(rand.NewPCG(7, 8))
	const channels = 72
	line := make([]byte, 0, 1024)
	for range frames {
		line = line[:0]
		for k := range channels {
			if k > 0 {
				line = append(line, ' ')
			}
			v := float64(rng.IntN(360000)-180000) / 1000
			line = strconv.AppendFloat(line, v, 'f', 3, 64)
			if keep != nil {
				*keep = append(*keep, float32(v))
			}
		}
		line = append(line, '\n')
		bw.Write(line)
	}
	return bw.Flush()
}

// A 6000-frame file (3.4 MB) parses to its values, allocating little more
// than the decoded motion itself.
func TestLargeFile(t *testing.T) {
	const frames = 6000
	path := filepath.Join(t.TempDir(), "large.bvh")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []float32
	if err := writeLarge(out, frames, &want); err != nil {
		t.Fatal(err)
	}
	out.Close()

	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, err := Parse(in, path)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if f.Frames != frames || f.Channels != 72 || len(f.Joints) != 28 || len(f.Motion) != len(want) {
		t.Fatalf("%d frames, %d channels, %d joints, %d values", f.Frames, f.Channels, len(f.Joints), len(f.Motion))
	}
	for i, v := range want {
		if d := f.Motion[i] - v; d > 1e-4 || d < -1e-4 {
			t.Fatalf("value %d: %g, want %g", i, f.Motion[i], v)
		}
	}
	decoded := uint64(4 * len(f.Motion))
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > decoded+256<<10 {
		t.Errorf("allocated %d bytes for %d bytes of motion", alloc, decoded)
	}
}

// BenchmarkParseLarge parses a 100,000-frame file of the humanoid (72
// channels, about 55 MB) from disk; it reports the file's MB/s, the time
// and allocation per parse, and the size of the decoded motion.
func BenchmarkParseLarge(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large.bvh")
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := writeLarge(out, 100_000, nil); err != nil {
		b.Fatal(err)
	}
	st, _ := out.Stat()
	out.Close()
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var f *File
	for b.Loop() {
		in, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		f, err = Parse(in, path)
		in.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Size())/1e6, "file-MB")
	b.ReportMetric(float64(4*len(f.Motion))/1e6, "motion-MB")
}

// BenchmarkClipLarge converts the same 100,000 frames to an animsys.Clip
// (28 joints, 40 bytes a joint a frame).
func BenchmarkClipLarge(b *testing.B) {
	var buf bytes.Buffer
	if err := writeLarge(&buf, 100_000, nil); err != nil {
		b.Fatal(err)
	}
	f, err := Parse(&buf, "large.bvh")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		f.Clip(0.01, "")
	}
}
