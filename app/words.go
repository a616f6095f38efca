package app

import (
	"strconv"
	"strings"
)

// Count is n and noun for a message or a panel, with an s (es after s, x, ch,
// sh) unless n is 1: "1 clip", "3 clips", "2 searches" (regular nouns
// only). The labs use it too.
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
