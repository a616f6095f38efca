package gltf

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// padJSON is GLB data glb with pad appended to its JSON chunk (a multiple
// of 4 bytes, as the spec aligns chunks) and the lengths fixed.
func padJSON(t *testing.T, glb []byte, pad []byte) []byte {
	t.Helper()
	if len(pad)%4 != 0 || string(glb[:4]) != "glTF" {
		t.Fatal("padJSON: pad 4-byte multiples of GLB data")
	}
	n := binary.LittleEndian.Uint32(glb[12:])
	out := bytes.Clone(glb[:20+n])
	out = append(out, pad...)
	out = append(out, glb[20+n:]...)
	binary.LittleEndian.PutUint32(out[8:], uint32(len(out)))
	binary.LittleEndian.PutUint32(out[12:], n+uint32(len(pad)))
	return out
}

// TestGLBJSONPadded reads GLB files whose JSON chunk ends in 4 KB of
// spaces, or of mixed JSON whitespace (valid JSON, which the spec pads
// with spaces): each reads as the file without the padding does (it was
// refused as "Invalid GLB BIN header"). A chunk padded with NULs, or
// holding a second document, is refused, saying what follows the
// document.
func TestGLBJSONPadded(t *testing.T) {
	glb, _ := seeds(t)
	want, err := Read(bytes.NewReader(glb), "seed.glb", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, pad := range []string{strings.Repeat(" ", 4096), strings.Repeat(" \t\r\n", 1024), "    "} {
		path := filepath.Join(dir, fmt.Sprintf("pad%d.glb", len(pad)))
		if err := os.WriteFile(path, padJSON(t, glb, []byte(pad)), 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := Open(path)
		if err != nil {
			t.Errorf("a JSON chunk padded with %d bytes of whitespace: %v", len(pad), err)
			continue
		}
		if got, wantS := summary(a), summary(want); got != wantS {
			t.Errorf("padded with %d bytes: read %s; want %s as unpadded", len(pad), got, wantS)
		}
	}
	for _, c := range []struct{ pad, msg string }{
		{strings.Repeat("\x00", 64), `the GLB JSON chunk has 64 bytes after its JSON document ("\x00\x00\x00\x00\x00\x00\x00\x00"...), where only spaces may pad it`},
		{"  {}", `the GLB JSON chunk has 2 bytes after its JSON document ("{}"...)`},
	} {
		_, err := Read(bytes.NewReader(padJSON(t, glb, []byte(c.pad))), "bad.glb", "")
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "bad.glb: ") {
			t.Errorf("a JSON chunk padded with %q: %v; want bad.glb: %s", c.pad, err, c.msg)
		}
	}
}

// summary is what an asset holds, in words: joints, rest offsets,
// animations with their channels and durations.
func summary(a *Asset) string {
	s := fmt.Sprint(a.Skel.Names, a.Skel.Parents, a.Skel.Offsets)
	for _, an := range a.Anims {
		s += fmt.Sprintf("; %s %d channels %.4f s", an.Name, len(an.Channels), an.Duration)
	}
	return s
}
