package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
)

// The user's settings file when it does not read as JSON: it is moved to
// settings.json.bad (then .bad.1, ...) before anything is written, the
// Messages say where it broke and where it went, and the save on exit
// writes a new file beside it. A --settings file that does not read is an
// error and is left as it is.
func TestUnreadableSettingsKeptAside(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ConfigDirEnv, dir)
	path := filepath.Join(dir, "settings.json")
	for i, tc := range []struct{ file, msg string }{
		{"{\n  \"app\": {\"ui_scale\": 1.5},\n}\n", ":3:1: invalid character '}' looking for beginning of object key string"},
		{`{"a": NaN, "b": }`, ":1:17: invalid character '}' looking for beginning of value"},
		{"", ":1:1: unexpected end of JSON input"},
		{`[{"app": {}}]`, ": want a JSON object of settings, got array"},
		{"null", ": want a JSON object of settings, got null"},
	} {
		if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
			t.Fatal(err)
		}
		a := New(Config{}, nil)
		if err := a.startSettings(); err != nil {
			t.Fatalf("%q: %v", tc.file, err)
		}
		bad := path + ".bad"
		if i > 0 {
			bad += "." + string(rune('0'+i))
		}
		if b, err := os.ReadFile(bad); err != nil || string(b) != tc.file {
			t.Errorf("%q: %s holds %q, %v", tc.file, filepath.Base(bad), b, err)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%q: the file is still there (%v)", tc.file, err)
		}
		want := path + tc.msg + "; moved it to " + bad + " and started from the defaults"
		if m := a.Messages(); len(m) != 1 || !m[0].Error || m[0].Text != want {
			t.Errorf("%q: messages %+v\nwant %q", tc.file, m, want)
		}
		a.saveUserSettings()
		if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), `"ui_scale"`) {
			t.Errorf("%q: saved %q, %v", tc.file, b, err)
		}
		if b, _ := os.ReadFile(bad); string(b) != tc.file {
			t.Errorf("%q: the save changed %s to %q", tc.file, filepath.Base(bad), b)
		}
		os.Remove(path)
	}

	shared := filepath.Join(dir, "shared.json")
	os.WriteFile(shared, []byte(`{"app": {},}`), 0o644)
	a := New(Config{SettingsFile: shared}, nil)
	if err := a.startSettings(); err == nil || !strings.HasPrefix(err.Error(), shared+":1:12: invalid character '}'") {
		t.Errorf("an unreadable --settings file: %v", err)
	}
	if b, _ := os.ReadFile(shared); string(b) != `{"app": {},}` {
		t.Errorf("the --settings file was changed to %q", b)
	}

	// A save never writes over a file it cannot read (one made unreadable
	// since the start, or not read: --reset-settings).
	os.WriteFile(path, []byte("{oops"), 0o644)
	if err := New(Config{ResetSettings: true}, nil).SaveSettings(path); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path + ".bad.5"); string(b) != "{oops" {
		t.Errorf("the unreadable file was not moved aside before the save: %q, %v", b, err)
	}
}

// The options BVH files are read with are kept under "bvh" by their field
// names (bvh.ReadOptions), so a settings file saved by an earlier build
// reads, and a save writes them back as they were.
func TestSettingsKeepReadOptions(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ConfigDirEnv, dir)
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte(`{"bvh": {"Units": "cm", "Up": "z", "KeepRest": true}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Config{}, nil)
	if err := a.startSettings(); err != nil {
		t.Fatal(err)
	}
	if want := (bvh.ReadOptions{Units: "cm", Up: "z", KeepRest: true}); a.mocap.opts != want {
		t.Errorf("read %+v, want %+v", a.mocap.opts, want)
	}
	os.Remove(path)
	if err := a.SaveSettings(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	var top struct {
		BVH map[string]any `json:"bvh"`
	}
	if err == nil {
		err = json.Unmarshal(b, &top)
	}
	if want := map[string]any{"Units": "cm", "Up": "z", "KeepRest": true}; err != nil || !reflect.DeepEqual(top.BVH, want) {
		t.Errorf("saved %s, %v; want \"bvh\": %v", b, err, want)
	}
}

// A settings file that is not JSON says where it breaks, and wraps what
// encoding/json said, for errors.As.
func TestUnreadableSettingsWrapJSONError(t *testing.T) {
	_, err := readSettings("s.json", []byte("{\n  \"app\": {},\n}\n"))
	var syn *json.SyntaxError
	if err == nil || err.Error() != "s.json:3:1: invalid character '}' looking for beginning of object key string" || !errors.As(err, &syn) {
		t.Errorf("got %v (a *json.SyntaxError: %v)", err, syn != nil)
	}
}

// A group of settings inside a lab's (the Motion-matching lab's Sync) is
// read field by field like the lab's own: one bad value in it loses only
// itself, named with its path, and the group's good values are read.
func TestDecodeFieldsNested(t *testing.T) {
	type group struct {
		Halflife, Distance float32
		On                 bool
	}
	var s struct {
		Bias float32
		Sync group
	}
	s.Sync = group{Halflife: 0.1, Distance: 0.15, On: true}
	probs := decodeFields("labs.x", &s, json.RawMessage(`{"Bias": 0.2, "Sync": {"Halflife": 0.3, "Distance": "far", "On": false}}`))
	if s.Bias != 0.2 || s.Sync != (group{Halflife: 0.3, Distance: 0.15, On: false}) {
		t.Errorf("read %+v, want Bias 0.2 and Sync {0.3 0.15 false}", s)
	}
	want := `labs.x.Sync.Distance: want a number (float32), got "far"; kept 0.15`
	if len(probs) != 1 || probs[0] != want {
		t.Errorf("problems %q, want [%q]", probs, want)
	}
	if probs := decodeFields("labs.x", &s, json.RawMessage(`{"Sync": 3}`)); len(probs) != 1 || probs[0] != "labs.x.Sync: want an object, got 3" {
		t.Errorf("a group that is no object: %q", probs)
	}
}
