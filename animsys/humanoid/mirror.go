package humanoid

import (
	"strings"
	"unicode"
)

// MirrorPairs reads from joint names which joint mirrors which, for
// animsys.MirrorClip: pairs[j] is the joint whose name is j's with its side
// swapped ("LeftUpLeg" and "RightUpLeg", "mixamorig:LeftArm", "Bip01 L
// Foot", "l_hip", "Hip_L", "foot.l", "LHipJoint", "RThumb", "lThigh",
// CMU's "lhand"), j itself for a centre joint or a sided joint whose
// partner is missing. A name is read the ways SideOf reads it, first
// "left"/"right", then a one-letter word, then a first (or last) letter,
// and the first reading whose swapped name is another joint's wins, so a
// letter that is no side ("Root", "lowerback") pairs with nothing.
// pairs[pairs[j]] == j: a pairing that does not read back (names that
// repeat, two readings disagreeing) is dropped.
func MirrorPairs(names []string) []int {
	at := make(map[string]int, len(names))
	for j, nm := range names {
		if _, dup := at[nm]; dup {
			at[nm] = -1 // repeated: no partner can be told
			continue
		}
		at[nm] = j
	}
	read := make([]int, len(names)) // each joint's partner as its name reads
	for j, nm := range names {
		read[j] = j
		for _, sw := range sideSwaps(nm) {
			if k, ok := at[sw]; ok && k >= 0 && k != j && at[nm] == j {
				read[j] = k
				break
			}
		}
	}
	pairs := make([]int, len(names))
	for j, k := range read {
		pairs[j] = j
		if read[k] == j {
			pairs[j] = k
		}
	}
	return pairs
}

// sideSwaps returns the name with its side swapped, once per way of
// reading a side in it, most explicit first; a namespace ("mixamorig:")
// is kept as it is.
func sideSwaps(name string) []string {
	ns := ""
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		ns, name = name[:i+1], name[i+1:]
	}
	var out []string
	add := func(s string) {
		if s != name {
			out = append(out, ns+s)
		}
	}
	// "Left"/"right" as part of the name, when only one of them is.
	l := strings.ToLower(name)
	hasL, hasR := strings.Contains(l, "left"), strings.Contains(l, "right")
	switch {
	case hasL && !hasR:
		add(swapWord(name, l, "left", "right"))
	case hasR && !hasL:
		add(swapWord(name, l, "right", "left"))
	}
	// A one-letter word: "Bip01 L Foot", "l_hip", "Hip_L", "foot.l".
	b := []byte(name)
	changed, words, start := false, 0, 0
	for i := 0; i <= len(b); i++ {
		if i < len(b) && !isSep(b[i]) {
			continue
		}
		if i > start {
			words++
			if i-start == 1 && swapLetter(&b[start]) {
				changed = true
			}
		}
		start = i + 1
	}
	if changed && words > 1 {
		add(string(b))
	}
	// A first letter before a capital ("LHipJoint", "RThumb", "lThigh"),
	// or before anything ("lhand"), or a last letter after a small one
	// ("ThighL"): only taken when the swapped name is a joint's.
	if len(name) > 1 {
		b = []byte(name)
		if swapLetter(&b[0]) {
			add(string(b))
		}
		b = []byte(name)
		if n := len(b); unicode.IsLower(rune(b[n-2])) && (b[n-1] == 'L' || b[n-1] == 'R') && swapLetter(&b[n-1]) {
			add(string(b))
		}
	}
	return out
}

func isSep(c byte) bool { return c == ' ' || c == '_' || c == '.' || c == '-' }

// swapLetter turns a side letter to the other side in place, keeping its
// case, and reports whether it was one.
func swapLetter(c *byte) bool {
	switch *c {
	case 'L':
		*c = 'R'
	case 'R':
		*c = 'L'
	case 'l':
		*c = 'r'
	case 'r':
		*c = 'l'
	default:
		return false
	}
	return true
}

// swapWord replaces every from (lower case, found in lower, the name in
// lower case) with to, in the case the name writes it: "Left" -> "Right",
// "LEFT" -> "RIGHT", "left" -> "right".
func swapWord(name, lower, from, to string) string {
	var sb strings.Builder
	for {
		i := strings.Index(lower, from)
		if i < 0 {
			sb.WriteString(name)
			return sb.String()
		}
		sb.WriteString(name[:i])
		w := name[i : i+len(from)]
		switch {
		case w == strings.ToUpper(w):
			sb.WriteString(strings.ToUpper(to))
		case unicode.IsUpper(rune(w[0])):
			sb.WriteString(strings.ToUpper(to[:1]) + to[1:])
		default:
			sb.WriteString(to)
		}
		name, lower = name[i+len(from):], lower[i+len(from):]
	}
}
