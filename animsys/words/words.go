// Package words writes counts in the messages the library and the app
// give a user: "1 clip", "2 clips" (never "1 clips"), and the one
// spelling of a name that is not UTF-8 (UTF8). It is public so the app,
// its command line and the library share one rule.
package words

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Count is n and noun, with an s (es after s, x, ch, sh) unless n is 1; regular
// nouns only ("vertex" needs its own words).
func Count(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	switch {
	case n == 1:
	case strings.HasSuffix(noun, "s") || strings.HasSuffix(noun, "x") ||
		strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "sh"):
		s += "es" // searches
	default:
		s += "s"
	}
	return s
}

// UTF8 is s with each byte that is no part of valid UTF-8 replaced by
// U+FFFD (�), one for each byte, and valid UTF-8 (a U+FFFD included)
// kept: the rule of Go's range over a string and of encoding/json, so a
// joint name not in UTF-8 reads the same from a BVH file as from a glTF
// file (whose JSON decoder applies it), and is written the same in every
// output (CSV, npz, BVH, the labs). ok reports whether s was valid.
func UTF8(s string) (clean string, ok bool) {
	if utf8.ValidString(s) {
		return s, true
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String(), false
}
