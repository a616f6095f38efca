package gltf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"

	"kinelab/animsys/internal/regular"
)

// GLB layout (glTF 2.0, section 4.4): a 12-byte header (magic "glTF",
// version, total length), then chunks, each a length, a type and its
// data; the first is the JSON document.
const (
	glbHeader    = 12
	glbChunkHead = 8
	glbJSON      = 0x4E4F534A // "JSON"
)

// jsonSpace are the bytes JSON allows between tokens; the spec pads the
// JSON chunk with spaces.
const jsonSpace = " \t\r\n"

// trimGLBJSON returns r as it is unless it is GLB data whose JSON chunk
// ends in whitespace after the document: then with that whitespace cut
// from the chunk and the lengths in the headers cut by as much. The
// library's decoder reads the JSON document and expects the next chunk
// where the document ended, not where the chunk does, so a chunk padded
// with more than a few spaces (valid JSON) was refused as "Invalid GLB
// BIN header". Bytes after the document that are no whitespace are an
// error saying so. Data too short to be GLB goes on as it is, for the
// decoder to report. A JSON chunk over regular.MaxGLBJSON is refused
// before it is read: memory follows the data, never a header's claim.
func trimGLBJSON(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(glbHeader + glbChunkHead)
	if err != nil || string(head[:4]) != "glTF" || binary.LittleEndian.Uint32(head[16:]) != glbJSON {
		return br, nil
	}
	head = bytes.Clone(head)
	br.Discard(len(head))
	n := int64(binary.LittleEndian.Uint32(head[12:]))
	if n > regular.MaxGLBJSON { // before a byte of it is read
		return nil, fmt.Errorf("the GLB JSON chunk says %s, over the %d MiB limit for a GLB JSON chunk", regular.Bytes(n), regular.MaxGLBJSON>>20)
	}
	chunk, err := io.ReadAll(io.LimitReader(br, n))
	if err != nil {
		return nil, err
	}
	if int64(len(chunk)) < n { // cut short: the decoder says so
		return io.MultiReader(bytes.NewReader(head), bytes.NewReader(chunk)), nil
	}
	doc := bytes.TrimRight(chunk, jsonSpace)
	if total := int64(binary.LittleEndian.Uint32(head[8:])); total < glbHeader+glbChunkHead+n {
		doc = chunk // headers that disagree: the decoder says so
	}
	if cut := len(chunk) - len(doc); cut > 0 {
		binary.LittleEndian.PutUint32(head[8:], binary.LittleEndian.Uint32(head[8:])-uint32(cut))
		binary.LittleEndian.PutUint32(head[12:], uint32(len(doc)))
	}
	if err := afterDocument(doc); err != nil {
		return nil, err
	}
	return io.MultiReader(bytes.NewReader(head), bytes.NewReader(doc), br), nil
}

// afterDocument reports bytes in a GLB JSON chunk after its JSON document
// (NULs, a second document), which no decoder reads: "the GLB JSON chunk
// has 12 bytes after its JSON document ...". A chunk that does not hold
// a document is the decoder's to report.
func afterDocument(chunk []byte) error {
	dec := json.NewDecoder(bytes.NewReader(chunk))
	var doc json.RawMessage
	if dec.Decode(&doc) != nil {
		return nil
	}
	rest := bytes.TrimLeft(chunk[dec.InputOffset():], jsonSpace)
	if len(rest) == 0 {
		return nil
	}
	return fmt.Errorf("the GLB JSON chunk has %d bytes after its JSON document (%q...), where only spaces may pad it", len(rest), rest[:min(len(rest), 8)])
}
