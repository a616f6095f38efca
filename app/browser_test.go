package app

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The file browser lists folders, and the files the app loads: BVH and
// glTF (.gltf, .glb), whatever their case; not other files nor hidden
// ones.
func TestBrowserLists(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"walk.bvh", "RUN.BVH", "robot.glb", "scene.gltf", "scene.bin", "notes.txt", ".hidden.bvh"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "takes"), 0o755); err != nil {
		t.Fatal(err)
	}
	var b fileBrowser
	b.cd(dir)
	if want := []string{"RUN.BVH", "robot.glb", "scene.gltf", "walk.bvh"}; !slices.Equal(b.files, want) || !slices.Equal(b.dirs, []string{"takes"}) || b.err != "" {
		t.Errorf("files %q, folders %q, error %q; want files %q and the folder takes", b.files, b.dirs, b.err, want)
	}
}
