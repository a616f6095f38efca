package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The file browser lists folders, and the files the app loads: BVH and
// glTF (.gltf, .glb), whatever their case, and files with no extension
// whose content is one; not other files nor hidden ones.
func TestBrowserLists(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"walk.bvh", "RUN.BVH", "robot.glb", "scene.gltf", "scene.bin", "notes.txt", ".hidden.bvh"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Files with no extension, by content: a BVH capture, a glTF JSON
	// document, and neither.
	for name, content := range map[string]string{"capture": "HIERARCHY\nROOT Hips", "mesh": `{"asset":{"version":"2.0"}}`, "README": "kinelab"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "takes"), 0o755); err != nil {
		t.Fatal(err)
	}
	var b fileBrowser
	b.cd(dir)
	if want := []string{"RUN.BVH", "capture", "mesh", "robot.glb", "scene.gltf", "walk.bvh"}; !slices.Equal(b.files, want) || !slices.Equal(b.dirs, []string{"takes"}) || b.err != "" {
		t.Errorf("files %q, folders %q, error %q; want files %q and the folder takes", b.files, b.dirs, b.err, want)
	}
}

// The browser's title names every kind of file it lists (it read "Open
// BVH files" over a list of glTF files too).
func TestBrowserTitle(t *testing.T) {
	for _, ext := range browserKinds {
		if !strings.Contains(browserTitle, ext) {
			t.Errorf("the title %q does not name %s", browserTitle, ext)
		}
	}
	for _, kind := range []string{"BVH", "glTF"} {
		if !strings.Contains(browserTitle, kind) {
			t.Errorf("the title %q does not say %s", browserTitle, kind)
		}
	}
}
