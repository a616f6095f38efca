// Package mocap finds the real BVH files kinelab is tested against: the
// folder ../shared/mocap beside the repository (or $KINELAB_MOCAP). The
// files are public captures from many exporters (see its SOURCES.md); they
// are never copied into the repository, so tests that read them skip, with
// a message saying so, where the folder is absent.
package mocap

import (
	"os"
	"path/filepath"
	"sort"
)

// Dir returns the mocap folder, or "" when there is none: $KINELAB_MOCAP
// if set, else shared/mocap in a parent folder of the working directory
// (tests run in their package's folder, inside the repository).
func Dir() string { return sharedDir("mocap", "KINELAB_MOCAP") }

// GLTFDir returns the folder of test glTF characters, ../shared/gltf (or
// $KINELAB_GLTF), found as Dir finds the mocap folder, or "".
func GLTFDir() string { return sharedDir("gltf", "KINELAB_GLTF") }

// GLTFFiles returns the .gltf and .glb files of the glTF folder in name
// order.
func GLTFFiles() []string {
	d := GLTFDir()
	if d == "" {
		return nil
	}
	a, _ := filepath.Glob(filepath.Join(d, "*.gltf"))
	b, _ := filepath.Glob(filepath.Join(d, "*.glb"))
	paths := append(a, b...)
	sort.Strings(paths)
	return paths
}

// NeedGLTF returns the glTF files, or skips the test t with a message
// that names what is missing.
func NeedGLTF(t TB) []string {
	t.Helper()
	fs := GLTFFiles()
	if len(fs) == 0 {
		t.Skip("SKIPPED: no glTF characters: ../shared/gltf (or $KINELAB_GLTF) is absent; these checks need them")
	}
	return fs
}

// sharedDir is $env if set, else shared/name in a parent folder of the
// working directory, or "".
func sharedDir(name, env string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; {
		c := filepath.Join(d, "shared", name)
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// LocomotionDir returns the folder of locomotion captures the
// motion-matching lab is tested on, ../shared/locomotion (or
// $KINELAB_LOCOMOTION), found as Dir finds the mocap folder, or "".
func LocomotionDir() string { return sharedDir("locomotion", "KINELAB_LOCOMOTION") }

// NeedLocomotion returns the .bvh files of the locomotion folder in name
// order, or skips the test t with a message that names what is missing.
func NeedLocomotion(t TB) []string {
	t.Helper()
	var paths []string
	if d := LocomotionDir(); d != "" {
		paths, _ = filepath.Glob(filepath.Join(d, "*.bvh"))
		sort.Strings(paths)
	}
	if len(paths) == 0 {
		t.Skip("SKIPPED: no locomotion captures: ../shared/locomotion (or $KINELAB_LOCOMOTION) is absent; these checks need them")
	}
	return paths
}

// Files returns the .bvh files of the mocap folder in name order.
func Files() []string {
	d := Dir()
	if d == "" {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(d, "*.bvh"))
	sort.Strings(paths)
	return paths
}

// TB is the part of testing.TB that Need calls; taking it instead keeps
// this non-test package from importing "testing".
type TB interface {
	Helper()
	Skip(args ...any)
}

// Need returns the mocap files, or skips the test t (a testing.TB) with a
// message that names what is missing.
func Need(t TB) []string {
	t.Helper()
	fs := Files()
	if len(fs) == 0 {
		t.Skip("SKIPPED: no real BVH files: ../shared/mocap (or $KINELAB_MOCAP) is absent; these checks need them")
	}
	return fs
}

// NeedCase returns the path of the capture name kept in ../shared/cases
// (or $KINELAB_CASES) as a file showing a known defect, or in the mocap
// folder once the defect is fixed and the file moved there; it skips the
// test t with a message when neither holds it.
func NeedCase(t TB, name string) string {
	t.Helper()
	for _, d := range []string{sharedDir("cases", "KINELAB_CASES"), Dir()} {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	t.Skip("SKIPPED: " + name + " is in neither ../shared/cases (or $KINELAB_CASES) nor the mocap folder; this check needs it")
	return ""
}

// Base is a file's name without folder and extension, for test names.
func Base(path string) string {
	b := filepath.Base(path)
	return b[:len(b)-len(filepath.Ext(b))]
}
