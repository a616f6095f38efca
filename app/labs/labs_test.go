package labs

import (
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"kinelab/app"
)

// TestParseFlags reads command lines with the real list of labs: --lab
// takes their names, --do their keys' names.
func TestParseFlags(t *testing.T) {
	good := []struct {
		args []string
		want app.Config
	}{
		{nil, app.Config{Lab: "velocities", Width: 1280, Height: 720, MSAA: true, DT: 1.0 / 60, Seed: 1, Units: "auto", Up: "auto"}},
		{[]string{"--frames", "10", "--screenshot", "a.png"}, app.Config{Lab: "velocities", Frames: 10, Screenshot: "a.png", Width: 1280, Height: 720, DT: 1.0 / 60, Seed: 1, Units: "auto", Up: "auto"}},
		{[]string{"--width=800", "--height=600", "--msaa=off", "--dt", "0.5", "--jitter", "0.25", "--seed", "7"}, app.Config{Lab: "velocities", Width: 800, Height: 600, DT: 0.5, Jitter: 0.25, Seed: 7, DTGiven: true, JitterGiven: true, Units: "auto", Up: "auto"}},
	}
	for _, g := range good {
		got, err := app.ParseFlags(g.args, io.Discard, All())
		if err != nil || !reflect.DeepEqual(got, g.want) {
			t.Errorf("ParseFlags(%q) = %+v, %v; want %+v", g.args, got, err, g.want)
		}
	}
	bad := []struct {
		args []string
		msg  string
	}{
		{[]string{"--lab", "nope"}, "no such lab"},
		{[]string{"--frames", "-1"}, "want 0 or more"},
		{[]string{"--frames", "ten"}, "invalid value"},
		{[]string{"--width", "10"}, "want 320"},
		{[]string{"--screenshot", "a.jpg"}, ".png"},
		{[]string{"--msaa", "maybe"}, "on, off or auto"},
		{[]string{"--bogus"}, "not defined"},
		{[]string{"stray"}, "unexpected argument"},
		{[]string{"--dt", "0"}, "want 0.0001 to 1 s"},
		{[]string{"--units", "ft"}, "want m, cm, mm, in, cmu or metres per unit"},
		{[]string{"--units", "-2"}, "want m, cm, mm, in, cmu or metres per unit"},
		{[]string{"--up", "w"}, "want y, z or x"},
		{[]string{"walk.bvh", "--frames", "3"}, "flags (--name) before BVH files"},
		{[]string{"--jitter", "2"}, "want 0 to 1"},
		{[]string{"--csv", "a.csv", "--screenshot", "a.png"}, "needs --frames"},
		{[]string{"--do", "x:teleport"}, "FRAME:NAME"},
		{[]string{"--do", "10:fly"}, "no action \"fly\""},
		{[]string{"--ui-scale", "9"}, "or 0.5 to 4"},
		{[]string{"--ui-scale", "0.1"}, "or 0.5 to 4"},
	}
	for _, b := range bad {
		_, err := app.ParseFlags(b.args, io.Discard, All())
		if err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("ParseFlags(%q) error %v; want one containing %q", b.args, err, b.msg)
		}
	}
	c, err := app.ParseFlags([]string{"--frames", "9", "--do", "3:teleport, 5:pause"}, io.Discard, All())
	if err != nil || !reflect.DeepEqual(c.Do, []app.Action{{Frame: 3, Name: "teleport"}, {Frame: 5, Name: "pause"}}) {
		t.Errorf("--do parsed as %+v, %v", c.Do, err)
	}
	c, err = app.ParseFlags([]string{"--units", "cm", "a.bvh", "B.BVH"}, io.Discard, All())
	if err != nil || !reflect.DeepEqual(c.Files, []string{"a.bvh", "B.BVH"}) || c.Units != "cm" {
		t.Errorf("BVH files parsed as %q units %q, %v", c.Files, c.Units, err)
	}
	c, err = app.ParseFlags([]string{"robot.glb", "Scene.GLTF"}, io.Discard, All())
	if err != nil || !reflect.DeepEqual(c.Files, []string{"robot.glb", "Scene.GLTF"}) {
		t.Errorf("glTF files parsed as %q, %v", c.Files, err)
	}
	c, err = app.ParseFlags([]string{"--units", "cmu", "--up", "z", "--keep-rest"}, io.Discard, All())
	if err != nil || c.Units != "cmu" || c.Up != "z" || !c.KeepRest {
		t.Errorf("--units cmu --up z --keep-rest parsed as %q %q %v, %v", c.Units, c.Up, c.KeepRest, err)
	}
	if c, err = app.ParseFlags([]string{"--units", "0.0564"}, io.Discard, All()); err != nil || c.Units != "0.0564" {
		t.Errorf("--units 0.0564 parsed as %q, %v", c.Units, err)
	}
	c, err = app.ParseFlags([]string{"--ui-scale", "1.5", "--settings", "s.json", "--reset-settings"}, io.Discard, All())
	if err != nil || c.UIScale != 1.5 || c.SettingsFile != "s.json" || !c.ResetSettings {
		t.Errorf("--ui-scale 1.5 --settings s.json --reset-settings parsed as %v %q %v, %v", c.UIScale, c.SettingsFile, c.ResetSettings, err)
	}
	if _, err := app.ParseFlags([]string{"-h"}, io.Discard, All()); !app.IsHelp(err) {
		t.Errorf("-h gave %v, want flag.ErrHelp", err)
	}
}

// Every lab is listed under the name it gives itself, once, and every
// folder under app/labs is a listed lab or a shared package.
func TestAllLabs(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range All() {
		l := e.New()
		if l.Name() != e.Name || seen[e.Name] {
			t.Errorf("lab %q is listed as %q (or twice)", l.Name(), e.Name)
		}
		seen[e.Name] = true
		l.Unload() // no window was opened: this stops the crowd's workers
	}
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && !seen[d.Name()] {
			t.Errorf("app/labs/%s is not in All()", d.Name())
		}
	}
}

// In every lab, the global keys and the lab's have distinct --do names and
// key codes: a --do name runs one action, a key does one thing.
func TestLabKeysAreDistinct(t *testing.T) {
	for _, e := range All() {
		name := e.Name
		a := app.New(app.Config{Lab: name}, All())
		seen := map[string]bool{}
		for _, k := range a.Keys() {
			if k.Name == "" || seen[k.Name] {
				t.Errorf("lab %s: key %q has an empty or repeated --do name %q", name, k.Label, k.Name)
			}
			seen[k.Name] = true
		}
		codes := map[int32]string{}
		for _, k := range a.Keys() {
			if other, ok := codes[k.Code]; ok {
				t.Errorf("lab %s: key %s is bound to both %q and %q", name, k.Label, other, k.Name)
			}
			codes[k.Code] = k.Name
		}
		a.Lab().Unload()
	}
}

// imports lists the packages the Go files in dir import (tests included).
func imports(t *testing.T, dir string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out[p] = append(out[p], f)
		}
	}
	return out
}

// No lab imports another lab (or this list), and the framework, the test
// helpers and the subcommands import no lab: a lab's folder can change
// without touching anything else. What labs share is the framework's.
func TestLabsAreIndependent(t *testing.T) {
	const labsPkg = "kinelab/app/labs"
	isLab := func(p string) bool { return p == labsPkg || strings.HasPrefix(p, labsPkg+"/") }
	for _, e := range All() {
		for p, files := range imports(t, e.Name) {
			if isLab(p) && p != labsPkg+"/"+e.Name {
				t.Errorf("lab %s imports %s (%v)", e.Name, p, files)
			}
		}
	}
	for _, dir := range []string{"..", "../../internal/apptest", "../cli"} {
		for p, files := range imports(t, dir) {
			if p == labsPkg || strings.HasPrefix(p, labsPkg+"/") {
				t.Errorf("%s imports %s (%v): the framework must not know the labs", filepath.Clean(filepath.Join("app/labs", dir)), p, files)
			}
		}
	}
}

// A lab flag with choices takes their names (--path zigzag is the
// matching lab's third input, passed as 3) and refuses others; a folder
// is a file argument (its .bvh files load), a plain word is not.
func TestChoiceFlagsAndFolders(t *testing.T) {
	cfg, err := app.ParseFlags([]string{"--lab", "matching", "--path", "zigzag", t.TempDir()}, io.Discard, All())
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := cfg.LabFlag("path"); !ok || v != 3 {
		t.Errorf("--path zigzag gave %v, %v; want 3", v, ok)
	}
	if len(cfg.Files) != 1 {
		t.Errorf("a folder argument gave files %v", cfg.Files)
	}
	if _, err := app.ParseFlags([]string{"--path", "spiral"}, io.Discard, All()); err == nil {
		t.Error("--path spiral was accepted")
	}
	if _, err := app.ParseFlags([]string{"notafile"}, io.Discard, All()); err == nil {
		t.Error("a word that is neither a .bvh file nor a folder was accepted")
	}
}

// An output that is an input is refused before anything runs, naming
// the input: --csv a file to load (by its name, through a symbolic link,
// or inside a folder to load) or the --settings file; the input is left
// as it was. A new path, or one beside the inputs, is taken.
func TestOutputIsNotAnInput(t *testing.T) {
	dir := t.TempDir()
	walk := filepath.Join(dir, "walk.bvh")
	settings := filepath.Join(dir, "settings.json")
	link := filepath.Join(t.TempDir(), "link.bvh")
	for _, f := range []string{walk, settings} {
		if err := os.WriteFile(f, []byte("kept"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(walk, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--frames", "2", "--csv", walk, walk},
		{"--frames", "2", "--csv", link, walk},
		{"--frames", "2", "--csv", walk, dir},
		{"--frames", "2", "--csv", settings, "--settings", settings},
	} {
		_, err := app.ParseFlags(args, io.Discard, All())
		if err == nil || !strings.Contains(err.Error(), "it would be overwritten") {
			t.Errorf("%q: %v, want the output refused as an input", args, err)
		}
	}
	if _, err := app.ParseFlags([]string{"--frames", "2", "--csv", filepath.Join(dir, "out.csv"), dir}, io.Discard, All()); err != nil {
		t.Errorf("a new output beside the inputs: %v", err)
	}
	for _, f := range []string{walk, settings} {
		if b, err := os.ReadFile(f); err != nil || string(b) != "kept" {
			t.Errorf("%s changed: %q, %v", f, b, err)
		}
	}
}
