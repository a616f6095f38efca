package export

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
)

// allocDuring returns the bytes and objects allocated while f runs.
func allocDuring(f func()) (bytes, objects uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

// An export streams: what it allocates does not grow with the number of
// frames. Ten times the frames of a 59-joint file (72 joints with its End
// Sites, with finite differences: 18 arrays) allocate the same few hundred
// kilobytes — four frames of input, three of output, and the writers'
// buffers — where holding the output would take 16 kB more per frame.
func TestExportStreamsInConstantMemory(t *testing.T) {
	var bytes, objects [2]uint64
	for i, frames := range []int{400, 4000} {
		f := synthFile(t, frames)
		for _, format := range []string{"npz", "csv"} {
			src, _, err := NewBVHSource(f, bvh.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var w Writer = NewCSVWriter(io.Discard)
			if format == "npz" {
				w = NewNPZWriter(filepath.Join(t.TempDir(), "out.npz"))
			}
			var err2 error
			b, o := allocDuring(func() { err2 = Export(context.Background(), src, Options{FD: true}, w) })
			if err2 != nil {
				t.Fatal(err2)
			}
			t.Logf("%s, %d frames x %d joints: %d kB in %d allocations", format, frames, len(f.Joints), b>>10, o)
			if format == "npz" {
				bytes[i], objects[i] = b, o
			}
		}
	}
	if grow := int64(bytes[1]) - int64(bytes[0]); grow > 64<<10 || objects[1] > objects[0]+200 {
		t.Errorf("10x the frames allocated %d more bytes and %d more objects: the export holds frames", grow, objects[1]-objects[0])
	}
	if bytes[1] > 4<<20 {
		t.Errorf("an export allocated %d MB", bytes[1]>>20)
	}
}

// Sampling a frame and writing it allocate nothing.
func TestExportFrameAllocs(t *testing.T) {
	f := synthFile(t, 300)
	src, _, err := NewBVHSource(f, bvh.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewStream(src, Options{FD: true})
	if err != nil {
		t.Fatal(err)
	}
	h := s.Header()
	var fr Frame
	n := len(h.Joints)
	animsys.NewPoses(n, &fr.Local, &fr.World, &fr.LocalFD, &fr.WorldFD)
	cw := NewCSVWriter(io.Discard)
	nw := NewNPZWriter(filepath.Join(t.TempDir(), "out.npz"))
	defer nw.Abort()
	if err := cw.Begin(&h); err != nil {
		t.Fatal(err)
	}
	if err := nw.Begin(&h); err != nil {
		t.Fatal(err)
	}
	k := 0
	if a := testing.AllocsPerRun(100, func() {
		s.Sample(k, &fr.Local, &fr.World)
		fr.Index = k
		cw.Frame(&fr)
		nw.Frame(&fr)
		k++
	}); a != 0 {
		t.Errorf("%v allocations per frame", a)
	}
}

// BenchmarkExport times a 59-joint file's export per frame, with finite
// differences: go test -bench Export ./animsys/export.
func BenchmarkExport(b *testing.B) {
	f := synthFile(b, 1000)
	for _, format := range []string{"npz", "csv"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				src, _, _ := NewBVHSource(f, bvh.ReadOptions{})
				var w Writer = NewCSVWriter(io.Discard)
				if format == "npz" {
					w = NewNPZWriter(filepath.Join(b.TempDir(), "out.npz"))
				}
				if err := Export(context.Background(), src, Options{FD: true}, w); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/frame")
		})
	}
}

// TestExportLarge measures a long export when KINELAB_EXPORT_LARGE gives
// the number of frames (the README's figure is for 100000):
//
//	KINELAB_EXPORT_LARGE=100000 go test -run ExportLarge -v ./animsys/export
//
// With KINELAB_EXPORT_LARGE_FILE it also leaves the generated BVH file
// there, for timing `kinelab export` on it.
func TestExportLarge(t *testing.T) {
	frames, _ := strconv.Atoi(os.Getenv("KINELAB_EXPORT_LARGE"))
	if frames <= 0 {
		t.Skip("set KINELAB_EXPORT_LARGE=N to export a generated N-frame, 59-joint file")
	}
	start := time.Now()
	f := synthFile(t, frames)
	t.Logf("generated and parsed %d frames x %d joints (%d channels) in %v", frames, len(f.Joints), f.Channels, time.Since(start))
	if keep := os.Getenv("KINELAB_EXPORT_LARGE_FILE"); keep != "" {
		out, err := os.Create(keep)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeSynthBVH(out, frames); err != nil {
			t.Fatal(err)
		}
		out.Close()
	}
	for _, format := range []string{"npz", "csv"} {
		src, _, err := NewBVHSource(f, bvh.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "out."+format)
		var w Writer = NewNPZWriter(path)
		if format == "csv" {
			out, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			w = NewCSVWriter(out)
		}
		start := time.Now()
		var err2 error
		b, o := allocDuring(func() { err2 = Export(context.Background(), src, Options{}, w) })
		if err2 != nil {
			t.Fatal(err2)
		}
		d := time.Since(start)
		st, _ := os.Stat(path)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("%s: %v (%.1f us/frame), %d MB written, %d kB allocated in %d objects during the export; heap in use %d MB (the parsed file)",
			format, d, float64(d.Microseconds())/float64(frames), st.Size()>>20, b>>10, o, ms.HeapInuse>>20)
	}
}
