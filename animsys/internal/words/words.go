// Package words writes counts in user-facing messages: "1 clip", "2 clips"
// (never "1 clips").
package words

import (
	"strconv"
	"strings"
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
