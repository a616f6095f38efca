package bvh

import (
	"errors"
	"io"
)

// bufSize is the largest window the scanner reads through; no token or
// name may be longer.
const bufSize = 64 << 10

// scanner splits a BVH stream into whitespace-separated tokens, keeping the
// line and column (1-based, in bytes) of each. It reads through a fixed
// window (grown from the input's size, if it is small, up to bufSize), so
// memory does not grow with the file. Line breaks are LF, CR or
// CRLF, in any mix; '{' and '}' are tokens of their own even when glued to
// a word. Returned byte slices alias the window and are valid until the
// next call.
type scanner struct {
	r         io.Reader
	buf       []byte
	pos, end  int  // unread bytes are buf[pos:end]
	line, col int  // position of buf[pos]
	cr        bool // the last byte consumed was '\r' (a following '\n' is the same break)
	eof       bool // r has no more bytes
	err       error
}

// newScanner reads r; size is its length in bytes if known, or -1.
func newScanner(r io.Reader, size int64) *scanner {
	n := int64(bufSize)
	if size >= 0 {
		n = min(n, size+1)
	}
	s := &scanner{r: r, buf: make([]byte, max(n, 16)), line: 1, col: 1}
	// A UTF-8 byte order mark (Windows tools write one) is not content.
	for s.end < 3 && s.fill() {
	}
	if s.end >= 3 && s.buf[0] == 0xEF && s.buf[1] == 0xBB && s.buf[2] == 0xBF {
		s.pos = 3
	}
	return s
}

// fill moves the unread bytes to the front of the window and reads more
// after them. It reports whether at least one new byte arrived; it is false
// at the end of the input, on a read error (kept in s.err) and when the
// window is full at bufSize.
func (s *scanner) fill() bool {
	if s.eof {
		return false
	}
	if s.pos > 0 {
		s.end = copy(s.buf, s.buf[s.pos:s.end])
		s.pos = 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= bufSize {
			return false
		}
		grown := make([]byte, min(2*len(s.buf), bufSize))
		copy(grown, s.buf[:s.end])
		s.buf = grown
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.err = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	s.eof, s.err = true, io.ErrNoProgress
	return false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// ends marks the bytes that end a token: whitespace and braces.
var ends = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, '\v': true, '\f': true, '{': true, '}': true}

// skipSpace consumes whitespace and reports whether it crossed a line break.
func (s *scanner) skipSpace() (newline bool) {
	for {
		for s.pos < s.end {
			switch s.buf[s.pos] {
			case ' ', '\t', '\v', '\f':
				s.col++
				s.cr = false
			case '\r':
				s.line, s.col, s.cr, newline = s.line+1, 1, true, true
			case '\n':
				if !s.cr {
					s.line++
				}
				s.col, s.cr, newline = 1, false, true
			default:
				return newline
			}
			s.pos++
		}
		if !s.fill() {
			return newline
		}
	}
}

// errTooLong reports a token or name longer than the window.
var errTooLong = errors.New("token too long")

// token skips whitespace and returns the next token with the position of
// its first byte and whether a line break came before it. At the end of the
// input it returns a nil token with the position of the end.
func (s *scanner) token() (tok []byte, line, col int, newline bool, err error) {
	newline = s.skipSpace()
	line, col = s.line, s.col
	if s.pos == s.end {
		return nil, line, col, newline, s.err
	}
	if c := s.buf[s.pos]; c == '{' || c == '}' {
		s.pos++
		s.col++
		s.cr = false
		return s.buf[s.pos-1 : s.pos], line, col, newline, nil
	}
	n := 0
	for {
		for s.pos+n < s.end {
			if ends[s.buf[s.pos+n]] {
				return s.take(n), line, col, newline, nil
			}
			n++
		}
		if !s.fill() {
			if s.err != nil {
				return nil, line, col, newline, s.err
			}
			if s.end-s.pos >= bufSize {
				return nil, line, col, newline, errTooLong
			}
			return s.take(n), line, col, newline, nil
		}
	}
}

// take consumes and returns the next n bytes, none of them a line break.
func (s *scanner) take(n int) []byte {
	b := s.buf[s.pos : s.pos+n]
	s.pos += n
	s.col += n
	s.cr = false
	return b
}

// name returns the rest of the current line up to a line break or a '{',
// without leading and trailing blanks, and the column where it starts. The
// line break or '{' is left unread. Joint names run this way, so they may
// hold spaces, colons and dots.
func (s *scanner) name() (name []byte, col int, err error) {
	for s.pos < s.end || s.fill() {
		if c := s.buf[s.pos]; c != ' ' && c != '\t' && c != '\v' && c != '\f' {
			break
		}
		s.take(1)
	}
	col = s.col
	n := 0
	for {
		for s.pos+n < s.end {
			if c := s.buf[s.pos+n]; c == '\n' || c == '\r' || c == '{' {
				return trimRight(s.take(n)), col, nil
			}
			n++
		}
		if !s.fill() {
			if s.err != nil {
				return nil, col, s.err
			}
			if s.end-s.pos >= bufSize {
				return nil, col, errTooLong
			}
			return trimRight(s.take(n)), col, nil
		}
	}
}

func trimRight(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
