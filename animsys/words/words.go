// Package words writes counts in the messages the library and the app
// give a user: "1 clip", "2 clips" (never "1 clips"). It is public so the
// app, its command line and the library share one rule.
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
