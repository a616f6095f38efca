package export

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"kinelab/animsys/internal/regular"
)

// Size estimates the bytes an export of src with opt takes on the disk
// at its peak, before anything is written: as .npz (npz), every array's
// float32 values (and the times) twice over, since NPZWriter writes each
// array to a temporary file and then copies them into the archive; as
// CSV, the header and the rows of the first sizeFrames frames, written
// for the count, times the frames, with a tenth more for the longer
// frame numbers and values of later rows.
func Size(src Source, opt Options, npz bool) (int64, error) {
	s, err := NewStream(src, opt)
	if err != nil {
		return 0, err
	}
	h := s.Header()
	frames := int64(h.Frames)
	if npz {
		per := int64(8) // the frame's time
		for _, q := range Quantities(&h) {
			per += int64(q.Dim) * int64(len(h.Joints)) * 4
		}
		width := 1 // the names, each as wide as the longest (unicodeArray)
		for _, n := range h.Joints {
			width = max(width, utf8.RuneCountInString(n))
		}
		joints := int64(len(h.Joints)) * int64(4*width+4+1) // names, parents, End Sites
		return 2 * (frames*per + joints + npzOverhead), nil
	}
	w := &firstFrames{left: min(h.Frames, sizeFrames)}
	w.CSVWriter = NewCSVWriter(&w.n)
	if err := s.Run(context.Background(), w); err != nil && !errors.Is(err, errEnough) {
		return 0, err
	}
	if err := w.End(); err != nil { // the rows measured, flushed
		return 0, err
	}
	k := int64(min(h.Frames, sizeFrames))
	return w.head + (w.n.n-w.head)*frames/k*11/10, nil
}

// sizeFrames are the frames Size writes to measure a CSV row, and
// npzOverhead the bytes of an archive's .npy headers and zip entries
// (about 250 bytes for each of some 30 arrays), rounded up.
const (
	sizeFrames  = 16
	npzOverhead = 8 << 10
)

// counter counts the bytes written to it.
type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// firstFrames is a CSVWriter into a counter that takes the first left
// frames and then stops the run (errEnough); head is the bytes of the
// header row.
type firstFrames struct {
	*CSVWriter
	n    counter
	left int
	head int64
}

var errEnough = errors.New("enough frames measured")

func (f *firstFrames) Begin(h *Header) error {
	if err := f.CSVWriter.Begin(h); err != nil {
		return err
	}
	err := f.CSVWriter.End() // flushed: the header row's bytes alone
	f.head = f.n.n
	return err
}

func (f *firstFrames) Frame(fr *Frame) error {
	if f.left == 0 {
		return errEnough
	}
	f.left--
	return f.CSVWriter.Frame(fr)
}

// CheckSpace refuses an output of need bytes at path where the file
// system of path's folder has less free: "walk.csv: the export needs about
// 5.4 GB; 1.2 GB is free in /tmp; nothing written". Where the free space
// cannot be read it is nil: the writes then fail as they would.
func CheckSpace(path string, need int64) error {
	dir := filepath.Dir(path)
	free, ok := freeSpace(dir)
	if !ok || need <= free {
		return nil
	}
	return fmt.Errorf("%s: the export needs about %s; %s is free in %s; nothing written", path, regular.Bytes(need), regular.Bytes(free), dir)
}
