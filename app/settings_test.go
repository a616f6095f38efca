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
	if want := map[string]any{"units": "cm", "up": "z", "keep_rest": true}; err != nil || !reflect.DeepEqual(top.BVH, want) {
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
	want := `labs.x.sync.distance: want a number (float32), got "far"; kept 0.15`
	if len(probs) != 1 || probs[0] != want {
		t.Errorf("problems %q, want [%q]", probs, want)
	}
	if probs := decodeFields("labs.x", &s, json.RawMessage(`{"Sync": 3}`)); len(probs) != 1 || probs[0] != "labs.x.sync: want an object, got 3" {
		t.Errorf("a group that is no object: %q", probs)
	}
}

// A settings file that starts with a UTF-8 byte order mark (as Windows
// editors write it) reads as the same file without it.
func TestSettingsByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ConfigDirEnv, dir)
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte("\ufeff{\"app\": {\"label_joints\": true, \"ui_scale\": 1.5}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Config{}, nil)
	if err := a.startSettings(); err != nil {
		t.Fatal(err)
	}
	if m := a.Messages(); len(m) != 0 {
		t.Errorf("messages %+v, want none", m)
	}
	if want := (AppSettings{UIScale: 1.5, LabelJoints: true}); a.settings.set != want {
		t.Errorf("read %+v, want %+v", a.settings.set, want)
	}
	if _, err := os.Stat(path + ".bad"); !os.IsNotExist(err) {
		t.Errorf("the file was moved aside (%v)", err)
	}
	// A syntax error after the mark is placed in the text the user sees.
	if _, err := readSettings("s.json", []byte("\ufeff{,}")); err == nil || !strings.HasPrefix(err.Error(), "s.json:1:2: ") {
		t.Errorf("an error after the mark: %v, want s.json:1:2", err)
	}
}

// Values out of their ranges are brought to the nearest end, and each is
// named with the end it takes, in Messages and on stderr, as the README
// says; values in range say nothing.
func TestSettingsOutOfRangeNamed(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ConfigDirEnv, dir)
	path := filepath.Join(dir, "settings.json")
	file := `{"app": {"ui_scale": 9}, "clock": {"time_scale": 9, "fixed_dt": 0.001, "jitter": 0.25}}`
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Config{}, nil)
	if err := a.startSettings(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range a.Messages() {
		got = append(got, m.Text)
	}
	max := a.clockRanges().Of(&a.clock.TimeScale).Hi
	minDt, _ := json.Marshal(1 / a.clockRanges().Of(&a.clock.FixedDt).Hi)
	want := []string{
		path + ": app.ui_scale = 9 is above its maximum 4; using 0 (from the window size)",
		path + ": clock.fixed_dt = 0.001 is below its minimum " + string(minDt) + "; using " + string(minDt),
		path + ": clock.time_scale = 9 is above its maximum 4; using 4",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages\n%q\nwant\n%q", got, want)
	}
	if a.clock.TimeScale != max || a.clock.Jitter != 0.25 || a.settings.set.UIScale != 0 {
		t.Errorf("clock %+v, UI scale %v: want the time scale at %v, the jitter kept", a.clock, a.settings.set.UIScale, max)
	}
}

// clampNamed names what a lab's CheckSettings moved, by the end it hit,
// inside groups and arrays too; a choice reset to a default is no end.
func TestClampNamed(t *testing.T) {
	type group struct{ Halflife float32 }
	type settings struct {
		X       float32 `json:"x"`
		Choice  int32
		Sync    group
		Weights [2]float32
		Name    string
	}
	s := settings{X: 9, Choice: 7, Sync: group{Halflife: -1}, Weights: [2]float32{0.5, 3}, Name: "b"}
	check := func() {
		s.X = min(max(s.X, 0), 2)
		if s.Choice != 1 {
			s.Choice = 0 // the choices are 0 and 1
		}
		s.Sync.Halflife = min(max(s.Sync.Halflife, 0.1), 1)
		for i := range s.Weights {
			s.Weights[i] = min(max(s.Weights[i], 0), 2)
		}
		if s.Name != "a" {
			s.Name = "a"
		}
	}
	got := clampNamed("matching", &s, check)
	want := []string{
		"matching.x = 9 is above its maximum 2; using 2",
		"matching.choice = 7 is not one of its choices; using 0",
		"matching.sync.halflife = -1 is below its minimum 0.1; using 0.1",
		"matching.weights[1] = 3 is above its maximum 2; using 2",
		`matching.name = "b" is not one of its choices; using "a"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n%q\nwant\n%q", got, want)
	}
	if w := (settings{X: 2, Choice: 0, Sync: group{0.1}, Weights: [2]float32{0.5, 2}, Name: "a"}); s != w {
		t.Errorf("settings %+v after the probes, want %+v", s, w)
	}
	if p := clampNamed("matching", &s, check); p != nil {
		t.Errorf("settings in range: %q", p)
	}
}

// A read-only settings file is the user's way to keep it as it is: the
// start says the settings will not be saved, and the save on exit leaves
// the file, its content and its mode, as they were.
func TestReadOnlySettingsNotReplaced(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(ConfigDirEnv, dir)
	path := filepath.Join(dir, "settings.json")
	file := `{"app": {"label_joints": true}}`
	if err := os.WriteFile(path, []byte(file), 0o444); err != nil {
		t.Fatal(err)
	}
	a := New(Config{}, nil)
	if err := a.startSettings(); err != nil {
		t.Fatal(err)
	}
	m := a.Messages()
	if len(m) != 1 || !strings.Contains(m[0].Text, path+" is read-only") || !strings.Contains(m[0].Text, "will not be saved") {
		t.Errorf("messages %+v, want one saying %s is read-only", m, path)
	}
	a.settings.set.LabelJoints = false
	if err := a.SaveSettings(path); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("saving over a read-only file: %v, want an error naming it read-only", err)
	}
	a.saveUserSettings()
	st, err := os.Stat(path)
	if b, _ := os.ReadFile(path); err != nil || string(b) != file || st.Mode().Perm() != 0o444 {
		t.Errorf("the file is now %q (%v, %v), want %q, mode 0444", b, st.Mode(), err, file)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the folder holds %d files, want the settings file alone", len(ents))
	}
}
