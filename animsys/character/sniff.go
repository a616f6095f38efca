package character

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"

	"kinelab/animsys/internal/regular"
)

// IsBVH says whether path names a BVH file: by its extension (.bvh), or,
// for a file with no known extension (a capture saved as "walk" or
// "walk.txt"), by its content: a BVH file starts with HIERARCHY.
func IsBVH(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".bvh":
		return true
	case ".gltf", ".glb":
		return false
	}
	return sniff(path) == "bvh"
}

// sniff is "bvh", "gltf" (GLB magic, or JSON) or "" for what the first
// bytes of the regular file at path say; "" for anything else and for a
// path that is no regular file (a FIFO is not opened: it would block).
func sniff(path string) string {
	f, err := regular.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var b [512]byte
	n, _ := io.ReadFull(f, b[:])
	head := b[:n]
	if bytes.HasPrefix(head, []byte("glTF")) {
		return "gltf"
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")) // a UTF-8 BOM
	head = bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(head) >= 9 && strings.EqualFold(string(head[:9]), "HIERARCHY"):
		return "bvh"
	case bytes.HasPrefix(head, []byte("{")):
		return "gltf"
	}
	return ""
}
