package bvh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"kinelab/animsys/internal/ctxio"
	"kinelab/animsys/words"
)

// maxValues bounds Frames x Channels, so sizes never overflow.
const maxValues = math.MaxInt32

// Parse reads a BVH file from r; name is used in error messages (usually
// the file's path). It streams: the input is read through a window of at
// most 64 KiB and the motion is decoded straight into File.Motion,
// allocated once from the `Frames:` line when r's size is known (an
// *os.File or a reader with Len, like bytes.Reader) and grown by doubling
// otherwise. A malformed
// file gives a *ParseError; a failing reader gives its error wrapped.
// The accepted conventions are listed in the package documentation.
func Parse(r io.Reader, name string) (*File, error) {
	return ParseContext(context.Background(), r, name)
}

// ParseContext is Parse stopping once ctx is done (an interrupted
// command), with ctx's error wrapped: it reads r through ctx, checked at
// every read of at most 64 KiB, a few milliseconds of parsing.
func ParseContext(ctx context.Context, r io.Reader, name string) (*File, error) {
	hint := sizeHint(r)
	p := &parser{s: newScanner(ctxio.Reader(ctx, r), hint), f: &File{Name: name}, hint: hint}
	if err := p.hierarchy(); err != nil {
		return nil, err
	}
	if err := p.header(); err != nil {
		return nil, err
	}
	if err := p.motion(); err != nil {
		return nil, err
	}
	return p.f, nil
}

// sizeHint is the number of bytes r holds, or -1 if unknown.
func sizeHint(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case *os.File:
		if st, err := v.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size()
		}
	}
	return -1
}

type parser struct {
	s        *scanner
	f        *File
	hint     int64  // bytes in the input, or -1
	lastLine []byte // the line label last read, for messages
}

func (p *parser) errorAt(line, col int, format string, args ...any) error {
	return &ParseError{File: p.f.Name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// next returns the next token; a read error or an over-long token becomes
// the returned error.
func (p *parser) next() (tok []byte, line, col int, newline bool, err error) {
	tok, line, col, newline, err = p.s.token()
	return tok, line, col, newline, p.wrap(err, line, col)
}

func (p *parser) wrap(err error, line, col int) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errTooLong):
		return p.errorAt(line, col, "expected a token or line shorter than %d bytes", bufSize)
	default:
		return fmt.Errorf("%s:%d:%d: reading: %w", p.f.Name, line, col, err)
	}
}

// found describes a token for "expected X, found Y" messages.
func found(tok []byte) string {
	if tok == nil {
		return "end of file"
	}
	if len(tok) > 40 {
		return strconv.Quote(string(tok[:40])) + "..."
	}
	return strconv.Quote(string(tok))
}

func is(tok []byte, keyword string) bool { return bytes.EqualFold(tok, []byte(keyword)) }

// hierarchy parses everything up to and including the MOTION keyword:
// an optional HIERARCHY, then one or more ROOT blocks.
func (p *parser) hierarchy() error {
	tok, line, col, _, err := p.next()
	if err != nil {
		return err
	}
	want := "HIERARCHY or ROOT"
	if is(tok, "HIERARCHY") {
		want = "ROOT"
		if tok, line, col, _, err = p.next(); err != nil {
			return err
		}
	}
	for {
		switch {
		case is(tok, "ROOT"):
			if err := p.root(); err != nil {
				return err
			}
			want = "ROOT or MOTION"
		case is(tok, "MOTION") && len(p.f.Joints) > 0:
			p.assignChannels()
			return nil
		default:
			return p.errorAt(line, col, "expected %s, found %s", want, found(tok))
		}
		if tok, line, col, _, err = p.next(); err != nil {
			return err
		}
	}
}

// block is a ROOT, JOINT or End Site whose '}' has not been read yet.
type block struct {
	joint    int
	offset   bool // its OFFSET has been read
	channels bool // its CHANNELS have been read
	endSites int  // End Sites among its children so far
}

// root parses a ROOT block, the ROOT keyword already read, with all the
// joints inside it. It is a loop over a stack of open blocks rather than a
// recursion, so no file can nest deep enough to matter.
func (p *parser) root() error {
	stack := make([]block, 0, 16)
	if err := p.open(&stack, -1, false); err != nil {
		return err
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		j := &p.f.Joints[top.joint]
		tok, line, col, _, err := p.next()
		if err != nil {
			return err
		}
		switch {
		case is(tok, "OFFSET"):
			if top.offset {
				return p.errorAt(line, col, "expected one OFFSET in %s, found a second", p.describe(top.joint))
			}
			top.offset = true
			for k := range 3 {
				tok, line, col, _, err := p.next()
				if err != nil {
					return err
				}
				v, msg := parseFloat32(tok)
				if msg == "" && !(v >= -MaxValue && v <= MaxValue) {
					msg = fmt.Sprintf("each within ±%g", float32(MaxValue))
				}
				if msg != "" {
					return p.errorAt(line, col, "expected 3 numbers after OFFSET (%s), found %s", msg, found(tok))
				}
				j.Offset[k] = v
			}
		case is(tok, "CHANNELS") && !j.EndSite:
			if top.channels {
				return p.errorAt(line, col, "expected one CHANNELS in %s, found a second", p.describe(top.joint))
			}
			top.channels = true
			if err := p.channels(j); err != nil {
				return err
			}
		case is(tok, "JOINT") && !j.EndSite:
			if err := p.open(&stack, top.joint, false); err != nil {
				return err
			}
		case (is(tok, "End") || is(tok, "EndSite")) && !j.EndSite:
			if is(tok, "End") {
				site, scol, err := p.s.name()
				if err != nil {
					return p.wrap(err, line, scol)
				}
				if !is(site, "Site") {
					return p.errorAt(line, scol, "expected Site after End, found %s", found(site))
				}
			}
			top.endSites++
			if err := p.open(&stack, top.joint, true); err != nil {
				return err
			}
		case len(tok) == 1 && tok[0] == '}':
			if !top.offset {
				return p.errorAt(line, col, "expected OFFSET in %s before }", p.describe(top.joint))
			}
			stack = stack[:len(stack)-1]
		case j.EndSite:
			return p.errorAt(line, col, "expected OFFSET or } in %s, found %s", p.describe(top.joint), found(tok))
		default:
			return p.errorAt(line, col, "expected OFFSET, CHANNELS, JOINT, End Site or } in %s, found %s", p.describe(top.joint), found(tok))
		}
	}
	return nil
}

// describe names joint j for messages: `joint "Hips"` or `End Site of "Head"`.
func (p *parser) describe(j int) string {
	jt := &p.f.Joints[j]
	if jt.EndSite {
		return fmt.Sprintf("End Site of %q", p.f.Joints[jt.Parent].Name)
	}
	return fmt.Sprintf("joint %q", jt.Name)
}

// open reads a joint's name (not for an End Site) and its '{', and pushes
// it. An End Site is named after its parent: "<parent>_End", then
// "<parent>_End2", ... for further End Sites of the same parent.
func (p *parser) open(stack *[]block, parent int, endSite bool) error {
	var name string
	if endSite {
		name = p.f.Joints[parent].Name + "_End"
		if n := (*stack)[len(*stack)-1].endSites; n > 1 {
			name += strconv.Itoa(n)
		}
	} else {
		b, ncol, err := p.s.name()
		if err != nil {
			return p.wrap(err, p.s.line, ncol)
		}
		var ok bool
		if name, ok = words.UTF8(string(b)); !ok {
			p.f.NotUTF8 = append(p.f.NotUTF8, len(p.f.Joints))
		}
		if name == "" {
			name = "Joint" + strconv.Itoa(len(p.f.Joints))
		}
	}
	tok, bline, bcol, _, err := p.next()
	if err != nil {
		return err
	}
	if len(tok) != 1 || tok[0] != '{' {
		if endSite {
			return p.errorAt(bline, bcol, "expected { after End Site, found %s", found(tok))
		}
		return p.errorAt(bline, bcol, "expected { after joint name %q, found %s", name, found(tok))
	}
	p.f.Joints = append(p.f.Joints, Joint{Name: name, Parent: parent, EndSite: endSite})
	*stack = append(*stack, block{joint: len(p.f.Joints) - 1})
	return nil
}

// channels reads "n name1 ... namen" after CHANNELS.
func (p *parser) channels(j *Joint) error {
	tok, line, col, _, err := p.next()
	if err != nil {
		return err
	}
	n, aerr := strconv.Atoi(string(tok))
	if aerr != nil || n < 0 || tok[0] == '+' || tok[0] == '-' {
		return p.errorAt(line, col, "expected a channel count after CHANNELS, found %s", found(tok))
	}
	for k := 0; k < n; k++ {
		tok, line, col, _, err := p.next()
		if err != nil {
			return err
		}
		c, ok := channelByName(tok)
		if !ok {
			return p.errorAt(line, col, "expected channel %d of %d (Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation), found %s",
				k+1, n, found(tok))
		}
		j.Channels = append(j.Channels, c)
	}
	return nil
}

// assignChannels numbers each joint's first channel in file order, the
// order of the values in a frame.
func (p *parser) assignChannels() {
	n := 0
	for i := range p.f.Joints {
		p.f.Joints[i].First = n
		n += len(p.f.Joints[i].Channels)
	}
	p.f.Channels = n
}

// header parses the `Frames:` and `Frame Time:` lines after MOTION. Each
// is a line of its own; the colon may be glued or spaced, or missing.
func (p *parser) header() error {
	text, line, col, vcol, err := p.label("frames")
	if err != nil {
		return err
	}
	if text == nil {
		return p.errorAt(line, col, "expected Frames:, found %s", found(firstWord(p.lastLine)))
	}
	n, aerr := strconv.Atoi(string(text))
	if aerr != nil || n < 0 || text[0] == '+' || text[0] == '-' {
		return p.errorAt(line, vcol, "expected a frame count after Frames:, found %s", found(text))
	}
	if p.f.Channels > 0 && n > maxValues/p.f.Channels {
		return p.errorAt(line, vcol, "expected at most %d values (Frames x %s), found Frames: %d",
			maxValues, words.Count(p.f.Channels, "channel"), n)
	}
	p.f.Frames, p.f.FramesLine = n, line

	text, line, col, vcol, err = p.label("frame", "time")
	if err != nil {
		return err
	}
	if text == nil {
		return p.errorAt(line, col, "expected Frame Time:, found %s", found(firstWord(p.lastLine)))
	}
	t, msg := parseFloat32(text)
	if msg != "" || !(t > 0) {
		return p.errorAt(line, vcol, "expected a positive frame time (s) after Frame Time:, found %s", found(text))
	}
	if !(t >= MinFrameTime && t <= MaxFrameTime) {
		return p.errorAt(line, vcol, "expected a frame time of %g to %g s (%g to %g frames a second) after Frame Time:, found %s",
			MinFrameTime, MaxFrameTime, 1/MaxFrameTime, 1/MinFrameTime, found(text))
	}
	p.f.FrameTime = t
	if ft, err := strconv.ParseFloat(string(text), 64); err == nil && ft > 0 {
		p.f.Rate = 1 / ft
	}
	return nil
}

// label reads the next non-blank line and matches it against words
// (case-insensitive, blanks between them optional) followed by an optional
// ':'. It returns the text after the label (nil if the line does not match,
// kept in p.lastLine) with the line and columns of the line and of the text.
func (p *parser) label(words ...string) (text []byte, line, col, vcol int, err error) {
	p.s.skipSpace()
	line = p.s.line
	b, col, serr := p.s.name()
	if serr != nil {
		return nil, line, col, col, p.wrap(serr, line, col)
	}
	p.lastLine = b
	if len(b) == 0 && p.s.pos < p.s.end {
		p.lastLine = p.s.buf[p.s.pos : p.s.pos+1] // a '{'
	}
	rest := b
	for _, w := range words {
		rest = bytes.TrimLeft(rest, " \t\v\f")
		if len(rest) < len(w) || !bytes.EqualFold(rest[:len(w)], []byte(w)) {
			return nil, line, col, col, nil
		}
		rest = rest[len(w):]
	}
	rest = bytes.TrimLeft(rest, " \t\v\f")
	if len(rest) > 0 && rest[0] == ':' {
		rest = bytes.TrimLeft(rest[1:], " \t\v\f")
	}
	if len(rest) == 0 {
		rest = []byte{} // matched, but no value: not nil
	}
	return rest, line, col, col + len(b) - len(rest), nil
}

func firstWord(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	if i := bytes.IndexAny(b, " \t\v\f:"); i > 0 {
		return b[:i]
	}
	return b
}

// Motion layout modes, decided after the first frame.
const (
	undecided = iota
	perLine   // one frame per line: a line with too few or too many values is an error naming its frame
	wrapped   // frames run across lines: values are only counted
)

// motion decodes the values after the header into p.f.Motion. A file with
// one frame per line is checked line by line; one whose first frame spans
// several lines (and ends at a line end) is read as a plain sequence.
func (p *parser) motion() error {
	f, s := p.f, p.s
	nc, nf := f.Channels, f.Frames
	if nc == 0 {
		return p.noMotion()
	}
	want := nf * nc
	capacity := min(want, 1<<20)
	if p.hint >= 0 {
		capacity = int(min(int64(want), p.hint/2+1))
	}
	m := make([]float32, capacity)
	r := motionReader{p: p, nc: nc, nf: nf, mode: undecided, brk: -1, endLine: s.line, endCol: s.col}
	i := 0
	for {
		tok, line, col, nl, err := s.token()
		if err != nil {
			return p.wrap(err, line, col)
		}
		if tok == nil {
			break
		}
		v, err := r.value(tok, line, col, nl)
		if err != nil {
			return err
		}
		if i == len(m) { // the size was not known: grow by doubling
			grown := make([]float32, min(want, 2*len(m)+1024))
			copy(grown, m)
			m = grown
		}
		m[i] = v
		i++
	}
	if err := r.end(); err != nil {
		return err
	}
	f.Motion = m[:i:i]
	return nil
}

// noMotion checks that a hierarchy without channels is followed by
// nothing.
func (p *parser) noMotion() error {
	tok, line, col, _, err := p.next()
	if err != nil {
		return err
	}
	if tok != nil {
		return p.errorAt(line, col, "expected end of file (the hierarchy has no channels), found %s", found(tok))
	}
	return nil
}

// motionReader follows the values of the motion: which frame and
// channel comes next, and how the frames are laid out on the lines.
type motionReader struct {
	p                    *parser
	nc, nf               int // channels per frame, frames
	frame, k             int // the next value: channel k of frame (both from 0)
	mode                 int
	brk, brkLine, brkCol int // values of frame 1 before its first line break
	endLine, endCol      int // just after the last value
}

// value checks the value tok at line:col (after a line break if nl)
// against the layout and the frame count and returns it as a number.
func (r *motionReader) value(tok []byte, line, col int, nl bool) (float32, error) {
	p := r.p
	if err := r.layout(line, col, nl); err != nil {
		return 0, err
	}
	if r.frame == r.nf {
		return 0, p.errorAt(line, col, "expected end of file after frame %d (Frames: %d), found %s", r.nf, r.nf, found(tok))
	}
	v, msg := parseFloat32(tok)
	if msg == "" && !(v >= -MaxValue && v <= MaxValue) {
		msg = fmt.Sprintf("a value within ±%g", float32(MaxValue))
	}
	if msg != "" {
		return 0, p.errorAt(line, col, "expected %s (frame %d, value %d of %d), found %s", msg, r.frame+1, r.k+1, r.nc, found(tok))
	}
	r.endLine, r.endCol = line, col+len(tok)
	if r.k++; r.k == r.nc {
		r.k = 0
		r.frame++
	}
	return v, nil
}

// layout decides the layout at the first value of frame 1 — one frame
// per line, or wrapped if frame 1 spans lines and ends at a line end —
// and with one frame per line checks that each value before line:col's
// starts its frame's line exactly when it starts the frame.
func (r *motionReader) layout(line, col int, nl bool) error {
	p, frame, k := r.p, r.frame, r.k
	if r.mode == undecided {
		if frame == 0 && nl && k > 0 && r.brk < 0 {
			r.brk, r.brkLine, r.brkCol = k, r.endLine, r.endCol
		}
		if frame == 1 && k == 0 {
			switch {
			case r.brk < 0:
				r.mode = perLine
			case nl:
				r.mode = wrapped
			default:
				return p.errorAt(r.brkLine, r.brkCol, "expected %s in frame 1 (one per channel), found %d", words.Count(r.nc, "value"), r.brk)
			}
		}
	}
	if r.mode == perLine {
		if nl && k > 0 {
			return p.errorAt(r.endLine, r.endCol, "expected %s in frame %d (one per channel), found %d", words.Count(r.nc, "value"), frame+1, k)
		}
		if !nl && k == 0 {
			return p.errorAt(line, col, "expected %s in frame %d (one per channel), found %d", words.Count(r.nc, "value"), frame, r.nc+p.countLine())
		}
	}
	return nil
}

// end checks, after the last value, that the last frame is whole and
// that there were Frames frames.
func (r *motionReader) end() error {
	p := r.p
	if r.k != 0 {
		return p.errorAt(r.endLine, r.endCol, "expected %s in frame %d (one per channel), found %d", words.Count(r.nc, "value"), r.frame+1, r.k)
	}
	if r.frame < r.nf {
		return p.errorAt(p.s.line, p.s.col, "expected %s (Frames: %d), found %d", words.Count(r.nf, "frame"), r.nf, r.frame)
	}
	return nil
}

// countLine counts the current token and the ones after it on its line.
func (p *parser) countLine() int {
	n := 1
	for {
		tok, _, _, nl, err := p.s.token()
		if err != nil || tok == nil || nl {
			return n
		}
		n++
	}
}
