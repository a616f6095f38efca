package export

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"kinelab/animsys/internal/ctxio"
)

// NPZWriter writes an export as a NumPy .npz archive (what numpy.savez
// writes: a zip of uncompressed .npy files) that numpy.load reads:
//
//	names     <U   (joints,)            joint names, End Sites included
//	parents   <i4  (joints,)            parent index, -1 for a root
//	end_site  |b1  (joints,)            the BVH file's End Sites
//	time      <f8  (frames,)            s from the first frame
//	fps       <f8  ()                   output frame rate
//	units     <U   ()                   length unit of positions, linear velocities
//	sample    <U   ()                   "cubic" or "linear"
//	local_pos <f4  (frames, joints, 3)  and every other Quantity, rotations
//	                                    (frames, joints, 4) as w, x, y, z
//
// A .npy entry states its shape before its data, and a zip holds its
// entries one after another, while an export produces every array's
// frames together. So each array's frames stream to a file of its own in a
// temporary folder beside the output, and End copies them into the
// archive: memory holds one frame per array, the disk the output twice.
//
// (No Go .npy library writes an array a piece at a time: they take the
// whole array as one value. The .npy header is a short documented format,
// written here.)
type NPZWriter struct {
	path   string
	tmp    string
	h      Header
	qs     []Quantity
	files  []*os.File // per quantity, then the times
	bufs   []*bufio.Writer
	frames int
	b      []byte
	vals   []float32
	closed bool
	hold   bool    // End leaves the archive for Commit
	out    *Output // the archive End wrote, with hold
	ctx    context.Context
}

// NewNPZWriter writes the archive to path.
func NewNPZWriter(path string) *NPZWriter { return &NPZWriter{path: path, ctx: context.Background()} }

// StopWith has End give up, with ctx's error, once ctx is done (an
// interrupted command): End copies every array into the archive (a
// gigabyte for a long capture, seconds of work), reading through ctx, so
// it checks it every 32 KiB.
func (w *NPZWriter) StopWith(ctx context.Context) { w.ctx = ctx }

// Begin creates the temporary files.
func (w *NPZWriter) Begin(h *Header) error {
	w.h, w.qs = *h, Quantities(h)
	if _, err := checkTarget(w.path); err != nil { // before any work
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(w.path), ".kinelab-export-")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) { // not the temporary name: the user never gave it
			err = fmt.Errorf("cannot create temporary files in %s: %w", filepath.Clean(filepath.Dir(w.path)), pe.Err)
		}
		return err
	}
	w.tmp = tmp
	temporary.add(tmp)
	for i := 0; i <= len(w.qs); i++ {
		f, err := os.Create(filepath.Join(tmp, strconv.Itoa(i)))
		if err != nil {
			w.Abort()
			return err
		}
		w.files = append(w.files, f)
		w.bufs = append(w.bufs, bufio.NewWriterSize(f, 1<<16))
	}
	return nil
}

// Frame appends the frame to every array's file.
func (w *NPZWriter) Frame(f *Frame) error {
	n := len(w.h.Joints)
	for i := range w.qs {
		q := &w.qs[i]
		vals := w.vals[:0]
		for j := 0; j < n; j++ {
			vals = q.appendValues(vals, f, j)
		}
		b := w.b[:0]
		for _, v := range vals {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
		w.b, w.vals = b, vals
		if _, err := w.bufs[i].Write(b); err != nil {
			return w.named(err)
		}
	}
	b := binary.LittleEndian.AppendUint64(w.b[:0], math.Float64bits(f.Time))
	w.b = b
	if _, err := w.bufs[len(w.qs)].Write(b); err != nil {
		return w.named(err)
	}
	w.frames++
	return nil
}

// End writes the archive (through an Output: an output that was there is
// replaced only by a whole archive) and removes the temporary files.
func (w *NPZWriter) End() (err error) {
	defer w.cleanup()
	if w.frames != w.h.Frames {
		return fmt.Errorf("npz: %d frames written, the header says %d", w.frames, w.h.Frames)
	}
	for _, b := range w.bufs {
		if err := b.Flush(); err != nil {
			return w.named(err)
		}
	}
	out, err := Create(w.path)
	if err != nil {
		return err
	}
	defer func() {
		switch {
		case err == nil && w.hold:
			w.out = out // for Commit
			return
		case err == nil:
			err = out.Commit()
		}
		out.Abort()
	}()
	bw := bufio.NewWriterSize(out, 1<<16)
	z := zip.NewWriter(bw)
	n := len(w.h.Joints)
	parents := make([]byte, 0, 4*n)
	ends := make([]byte, n)
	for j, p := range w.h.Parents {
		parents = binary.LittleEndian.AppendUint32(parents, uint32(int32(p)))
		if w.h.EndSite[j] {
			ends[j] = 1
		}
	}
	names, nd := unicodeArray(w.h.Joints)
	units, ud := unicodeArray([]string{w.h.Units})
	sample, sd := unicodeArray([]string{w.h.Sample})
	fps := binary.LittleEndian.AppendUint64(nil, math.Float64bits(w.h.FPS))
	for _, e := range []struct {
		name, descr string
		shape       []int
		data        []byte
	}{
		{"names", nd, []int{n}, names},
		{"parents", "<i4", []int{n}, parents},
		{"end_site", "|b1", []int{n}, ends},
		{"fps", "<f8", nil, fps},
		{"units", ud, nil, units},
		{"sample", sd, nil, sample},
	} {
		if err := writeNpy(z, e.name, e.descr, e.shape, bytes.NewReader(e.data)); err != nil {
			return err
		}
	}
	if err := w.copyNpy(z, "time", "<f8", []int{w.frames}, len(w.qs)); err != nil {
		return w.named(err)
	}
	for i, q := range w.qs {
		if err := w.copyNpy(z, q.Name, "<f4", []int{w.frames, n, q.Dim}, i); err != nil {
			return w.named(err)
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	return bw.Flush()
}

// named hides the temporary files' names, which the user never gave, in
// an error about one (a full disk): what failed is writing beside the
// output.
func (w *NPZWriter) named(err error) error {
	var pe *fs.PathError
	if w.tmp != "" && errors.As(err, &pe) && strings.HasPrefix(pe.Path, w.tmp) {
		return fmt.Errorf("writing temporary data in %s: %w", filepath.Dir(w.tmp), pe.Err)
	}
	return err
}

// copyNpy writes temporary file i as the archive's entry name.npy.
func (w *NPZWriter) copyNpy(z *zip.Writer, name, descr string, shape []int, i int) error {
	f := w.files[i]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return writeNpy(z, name, descr, shape, ctxio.Reader(w.ctx, f))
}

// Hold has End leave the archive in its temporary file, for Commit to
// put in place: a command writing several outputs replaces none until
// every one is whole.
func (w *NPZWriter) Hold() { w.hold = true }

// Commit puts the archive End wrote (with Hold) in place.
func (w *NPZWriter) Commit() error {
	if w.out == nil {
		return errors.New(w.path + ": no archive to commit")
	}
	err := w.out.Commit()
	w.out = nil
	return err
}

// ReadyContext flushes the archive End wrote (with Hold) to the disk
// before Commit, giving up once ctx is done (Output.ReadyContext).
func (w *NPZWriter) ReadyContext(ctx context.Context) error {
	if w.out == nil {
		return errors.New(w.path + ": no archive to commit")
	}
	return w.out.ReadyContext(ctx)
}

// Abort removes the temporary files (End does it too), and the archive
// held for Commit.
func (w *NPZWriter) Abort() {
	w.cleanup()
	if w.out != nil {
		w.out.Abort()
		w.out = nil
	}
}

// cleanup removes the temporary files of the arrays.
func (w *NPZWriter) cleanup() {
	if w.closed {
		return
	}
	w.closed = true
	for _, f := range w.files {
		f.Close()
	}
	if w.tmp != "" {
		os.RemoveAll(w.tmp)
		temporary.remove(w.tmp)
	}
}

// writeNpy adds name.npy to the archive: the .npy header for an array of
// dtype descr and the shape (C order), then the data. Entries are stored
// uncompressed, as numpy.savez does.
func writeNpy(z *zip.Writer, name, descr string, shape []int, data io.Reader) error {
	e, err := z.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: zip.Store})
	if err != nil {
		return err
	}
	h, err := NpyHeader(descr, shape)
	if err != nil {
		return err
	}
	if _, err := e.Write(h); err != nil {
		return err
	}
	_, err = io.Copy(e, data)
	return err
}

// NpyHeader is the header of a .npy file (format 1.0, or 2.0 when the
// dictionary needs more than 65535 bytes) for a C-order array of dtype
// descr ("<f4", "<i4", "|b1", "<U12", ...) and shape (nil for a scalar):
// the magic "\x93NUMPY", the version, the dictionary's length and the
// dictionary, padded with spaces and a newline to a multiple of 64 bytes.
func NpyHeader(descr string, shape []int) ([]byte, error) {
	dims := make([]string, len(shape))
	for i, s := range shape {
		if s < 0 {
			return nil, errors.New("npy: negative dimension")
		}
		dims[i] = strconv.Itoa(s)
	}
	sh := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		sh = "(" + dims[0] + ",)"
	}
	dict := "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + sh + ", }"
	major, lenSize := byte(1), 2
	if len(dict)+1+64 > math.MaxUint16 {
		major, lenSize = 2, 4
	}
	pre := 8 + lenSize
	total := pre + len(dict) + 1
	total += (64 - total%64) % 64
	h := make([]byte, 0, total)
	h = append(h, "\x93NUMPY"...)
	h = append(h, major, 0)
	if lenSize == 2 {
		h = binary.LittleEndian.AppendUint16(h, uint16(total-pre))
	} else {
		h = binary.LittleEndian.AppendUint32(h, uint32(total-pre))
	}
	h = append(h, dict...)
	for len(h) < total-1 {
		h = append(h, ' ')
	}
	return append(h, '\n'), nil
}

// unicodeArray encodes strings as NumPy's fixed-width unicode dtype: each
// padded to the longest, as little-endian UTF-32 code points.
func unicodeArray(ss []string) ([]byte, string) {
	width := 1
	for _, s := range ss {
		width = max(width, utf8.RuneCountInString(s))
	}
	out := make([]byte, 0, 4*width*len(ss))
	for _, s := range ss {
		k := 0
		for _, r := range s {
			out = binary.LittleEndian.AppendUint32(out, uint32(r))
			k++
		}
		for ; k < width; k++ {
			out = binary.LittleEndian.AppendUint32(out, 0)
		}
	}
	return out, "<U" + strconv.Itoa(width)
}
