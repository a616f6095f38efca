package gltf

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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

// TestGLBClaims: a JSON chunk whose header claims more than
// regular.MaxGLBJSON is refused before a byte of it is read, from a
// reader of unknown length (a 1 GiB claim over a few bytes allocates
// under a megabyte); and Open refuses a binary chunk that claims more
// than the file holds, naming the chunk.
func TestGLBClaims(t *testing.T) {
	glb, _ := seeds(t)
	huge := bytes.Clone(glb)
	binary.LittleEndian.PutUint32(huge[8:], 1<<30)
	binary.LittleEndian.PutUint32(huge[12:], 1<<30-20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(bytes.NewReader(huge), "claim.glb", "")
	runtime.ReadMemStats(&after)
	if want := "claim.glb: the GLB JSON chunk says 1.1 GB, over the 64 MiB limit for a GLB JSON chunk"; err == nil || err.Error() != want {
		t.Errorf("a 1 GiB JSON claim: %v, want %q", err, want)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing a 1 GiB JSON claim allocated %d bytes", got)
	}

	// The binary chunk's length, after the JSON chunk, past the file's.
	n := binary.LittleEndian.Uint32(glb[12:])
	if int(20+n+8) > len(glb) {
		t.Fatal("the seed GLB has no binary chunk")
	}
	bin := bytes.Clone(glb)
	binary.LittleEndian.PutUint32(bin[20+n:], 1<<30)
	path := filepath.Join(t.TempDir(), "bin.glb")
	if err := os.WriteFile(path, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s: the GLB chunk at byte %d says %d bytes, past the file's %d", path, 20+n, 1<<30, len(glb))
	if _, err := Open(path); err == nil || err.Error() != want {
		t.Errorf("a binary chunk past the file: %v, want %q", err, want)
	}
}
