// Package fuzzedit lets a fuzz target mutate a large file through a small
// input: a script of edits applied to one of a few base files. Watchdog
// bounds an input's CPU time.
//
// Go's fuzzer minimizes every input that finds new coverage, for up to a
// minute (-fuzzminimizetime), and its minimizer tries removing every
// range of bytes: its work grows with the square of the input's length.
// Fed a 40 KB file, a worker spends its every minute minimizing, and the
// fuzzer reports a handful of inputs a minute. Fed a script of a few
// bytes that edits the same file, it minimizes in a blink and runs
// thousands of inputs a second, near the files that matter (real
// figures, whole glTF assets) rather than near the empty file.
package fuzzedit

// Apply returns base with script's edits applied in turn (base itself
// when script is empty). Each edit is a header of three bytes and the
// bytes it inserts:
//
//	byte 0:     high 4 bits: how many bytes to delete (0-15)
//	            low 4 bits: how many bytes follow to insert (0-15)
//	bytes 1, 2: where, big-endian, modulo the current length + 1
//
// A script that ends inside an edit inserts what there is of it. Any
// file can be made from any base by enough edits.
func Apply(base, script []byte) []byte {
	if len(script) == 0 {
		return base
	}
	out := append([]byte(nil), base...)
	for len(script) >= 3 {
		del, ins := int(script[0]>>4), int(script[0]&15)
		at := (int(script[1])<<8 | int(script[2])) % (len(out) + 1)
		script = script[3:]
		ins = min(ins, len(script))
		del = min(del, len(out)-at)
		tail := append([]byte(nil), out[at+del:]...)
		out = append(append(out[:at], script[:ins]...), tail...)
		script = script[ins:]
	}
	return out
}

// Replace is the script of one edit that replaces the bytes at (0-65535)
// with b, for seeds.
func Replace(at int, b ...byte) []byte {
	if len(b) > 15 || at < 0 || at > 0xffff {
		panic("fuzzedit.Replace: at most 15 bytes, at 0-65535")
	}
	return append([]byte{byte(len(b)<<4 | len(b)), byte(at >> 8), byte(at)}, b...)
}
