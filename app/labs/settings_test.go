package labs

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"kinelab/animsys"
	"kinelab/app"
	"kinelab/app/labs/springs"
	"kinelab/app/labs/velocities"
)

// Settings round-trip through a file: the framework's and each lab's, a
// lab not made in a run keeps what the file said, and a reset puts one
// setting back to its default. No test reads or writes the user's own
// settings: KINELAB_CONFIG_DIR points at a temporary folder.
func TestSettingsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(app.ConfigDirEnv, dir)
	if p, err := app.UserSettingsPath(); err != nil || filepath.Dir(p) != dir {
		t.Fatalf("UserSettingsPath = %q, %v; want one in %s", p, err, dir)
	}
	path := filepath.Join(dir, "shared.json")

	a := app.New(app.Config{Lab: "velocities"}, All())
	v := a.Lab().(*velocities.Lab)
	v.S.Quantity, v.S.LineScale, v.S.Play, v.S.ClipSpeed = 2, 0.5, animsys.PlayPingPong, 1.5
	a.SwitchLab("springs")
	sp := a.Lab().(*springs.Lab)
	sp.S.Period, sp.S.Show[2] = 3, false
	a.Clock().TimeScale = 0.5
	if err := a.SaveSettings(path); err != nil {
		t.Fatal(err)
	}

	// A second run reads them; it makes only the velocities lab and saves.
	b := app.New(app.Config{Lab: "velocities"}, All())
	if err := b.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	bv := b.Lab().(*velocities.Lab)
	if bv.S != v.S {
		t.Errorf("velocities settings read back as %+v, saved %+v", bv.S, v.S)
	}
	if b.Clock().TimeScale != 0.5 {
		t.Errorf("time scale read back as %v", b.Clock().TimeScale)
	}
	// --dt and --jitter on the command line win over the file's.
	cfg, err := app.ParseFlags([]string{"--dt", "0.01", "--jitter", "0.2"}, io.Discard, All())
	if err != nil {
		t.Fatal(err)
	}
	g := app.New(cfg, All())
	if err := g.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	if ck := g.Clock(); ck.FixedDt != 0.01 || ck.Jitter != 0.2 || !ck.Fixed || ck.TimeScale != 0.5 {
		t.Errorf("with --dt 0.01 --jitter 0.2 the clock reads dt %v jitter %v fixed %v, time scale %v (the file's)", ck.FixedDt, ck.Jitter, ck.Fixed, ck.TimeScale)
	}
	path2 := filepath.Join(dir, "again.json")
	if err := b.SaveSettings(path2); err != nil {
		t.Fatal(err)
	}
	c := app.New(app.Config{Lab: "springs"}, All())
	if err := c.LoadSettings(path2, false); err != nil {
		t.Fatal(err)
	}
	if cs := c.Lab().(*springs.Lab); cs.S != sp.S {
		t.Errorf("springs settings, not made in the second run, read back as %+v, saved %+v", cs.S, sp.S)
	}

	// Reset to the default, one setting at a time.
	if !b.ResetSetting(&bv.S.LineScale) || bv.S.LineScale != velocities.DefaultSettings().LineScale {
		t.Errorf("reset LineScale: got %v, want %v", bv.S.LineScale, velocities.DefaultSettings().LineScale)
	}
	if bv.S.Quantity != 2 {
		t.Errorf("resetting LineScale changed Quantity to %d", bv.S.Quantity)
	}
	if !b.ResetSetting(&b.Clock().TimeScale) || b.Clock().TimeScale != 1 {
		t.Errorf("reset time scale: got %v", b.Clock().TimeScale)
	}
	x := float32(0)
	if b.ResetSetting(&x) {
		t.Error("reset a value that is no setting")
	}

	// A hand-edited file with values out of range is brought back in.
	bad := `{"labs": {"velocities": {"Quantity": 99, "Joint": 5000, "LineScale": -4, "Play": 7}}}`
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	d := app.New(app.Config{Lab: "velocities"}, All())
	if err := d.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	dv := d.Lab().(*velocities.Lab)
	if dv.S.Quantity > 5 || dv.S.Joint > 100 || dv.S.LineScale < 0.01 || dv.S.Play > animsys.PlayPingPong {
		t.Errorf("out-of-range settings kept: %+v", dv.S)
	}
	if err := d.LoadSettings(filepath.Join(dir, "missing.json"), true); err != nil {
		t.Errorf("a missing file with missingOK: %v", err)
	}
	if err := d.LoadSettings(filepath.Join(dir, "missing.json"), false); err == nil {
		t.Error("a missing --settings file is no error")
	}
}

// A file with bad values (NaN as Python writes it among them) and keys
// from a newer version: each bad value is reported in Messages and
// skipped, the other settings of its section or lab are read, and a save
// keeps every key this build does not know.
func TestSettingsBadFieldsAndUnknownKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	file := `{
  "future": {"x": [1, 2]},
  "app": {"ui_scale": "big", "label_joints": true, "app_future": 1},
  "clock": {"time_scale": 0.5, "fixed_dt": 1e400, "jitter": -Infinity},
  "labs": {
    "velocities": {"LineScale": "abc", "Quantity": 2, "Cubic": false, "Joint": 3.5, "NewThing": "kept NaN \"Infinity\""},
    "springs": {"Period": NaN, "Amplitude": 1.5, "Ratio": "-Infinity"},
    "futurelab": {"a": 1}
  }
}`
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Config{Lab: "velocities"}, All())
	if err := a.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	v := a.Lab().(*velocities.Lab)
	def := velocities.DefaultSettings()
	if v.S.Quantity != 2 || v.S.Cubic || v.S.LineScale != def.LineScale || v.S.Joint != def.Joint {
		t.Errorf("velocities read as Quantity %d, Cubic %v, LineScale %v, Joint %d; want 2, false and the defaults %v, %d",
			v.S.Quantity, v.S.Cubic, v.S.LineScale, v.S.Joint, def.LineScale, def.Joint)
	}
	if a.Clock().TimeScale != 0.5 || a.Clock().FixedDt != 1.0/60 {
		t.Errorf("clock read as time scale %v, dt %v", a.Clock().TimeScale, a.Clock().FixedDt)
	}
	var msgs []string
	for _, m := range a.Messages() {
		if m.Error {
			msgs = append(msgs, m.Text)
		}
	}
	for _, want := range []string{
		path + `: app.ui_scale: want a number (float32), got "big"; kept 0`,
		path + `: clock.fixed_dt: want a number (float32), got 1e400`,
		path + `: clock.jitter: want a number (float32), got "-Infinity"`,
		path + `: labs.velocities.line_scale: want a number (float32), got "abc"; kept 0.15`,
		path + `: labs.velocities.joint: want a whole number (int32), got 3.5; kept -1`,
	} {
		if !slices.ContainsFunc(msgs, func(m string) bool { return strings.HasPrefix(m, want) }) {
			t.Errorf("no message %q in %q", want, msgs)
		}
	}
	if len(msgs) != 5 {
		t.Errorf("%d error messages, want 5 (springs is not made): %q", len(msgs), msgs)
	}

	v.S.Quantity = 3
	if err := a.SaveSettings(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		Future json.RawMessage
		App    map[string]json.RawMessage
		Clock  map[string]json.RawMessage
		Labs   map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatalf("saved file: %v\n%s", err, b)
	}
	vs := saved.Labs["velocities"]
	for what, ok := range map[string]bool{
		"the unknown top-level key":       compact(saved.Future) == `{"x":[1,2]}`,
		"the unknown key in app":          string(saved.App["app_future"]) == "1",
		"app's good value":                string(saved.App["label_joints"]) == "true",
		"the unknown lab":                 string(saved.Labs["futurelab"]["a"]) == "1",
		"the lab's unknown key":           string(vs["NewThing"]) == `"kept NaN \"Infinity\""`,
		"the lab's setting as changed":    string(vs["quantity"]) == "3",
		"the lab's bad value as read now": string(vs["line_scale"]) == "0.15",
		"the unmade lab as read":          string(saved.Labs["springs"]["Period"]) == `"NaN"` && string(saved.Labs["springs"]["Amplitude"]) == "1.5",
	} {
		if !ok {
			t.Errorf("save lost %s:\n%s", what, b)
		}
	}
	if !bytes.HasPrefix(b, []byte("{\n  \"app\": {\n    \"ui_scale\"")) {
		t.Errorf("saved file does not start with the app's settings in order:\n%s", b)
	}

	// The lab not made in the first run reads its good value, reports the bad one.
	c := app.New(app.Config{Lab: "springs"}, All())
	if err := c.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	if s := c.Lab().(*springs.Lab); s.S.Amplitude != 1.5 || s.S.Period != springs.DefaultSettings().Period {
		t.Errorf("springs read as Amplitude %v, Period %v", s.S.Amplitude, s.S.Period)
	}
	if m := c.Messages(); len(m) != 2 || !strings.Contains(m[0].Text, `labs.springs.period: want a number (float32), got "NaN"`) {
		t.Errorf("messages %+v", m)
	}
}

func compact(b []byte) string {
	var out bytes.Buffer
	json.Compact(&out, b)
	return out.String()
}

// A lab's setting out of its slider's range is named, with the end it
// takes, by its path in the file (what the README shows), and set there.
func TestSettingsOutOfRangeNamedInLab(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(`{"labs": {"springs": {"Amplitude": 1e9}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Config{Lab: "springs"}, All())
	if err := a.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	s := a.Lab().(*springs.Lab)
	hi := s.S.Amplitude
	s.S.Amplitude = hi * 2
	s.CheckSettings()
	if s.S.Amplitude != hi {
		t.Fatalf("amplitude read as %v, which CheckSettings moves to %v: not the slider's end", hi, s.S.Amplitude)
	}
	top, _ := json.Marshal(hi)
	want := path + ": labs.springs.amplitude = 1000000000 is above its maximum " + string(top) + "; using " + string(top)
	if m := a.Messages(); len(m) != 1 || m[0].Text != want || !m[0].Error {
		t.Errorf("messages %+v\nwant %q", m, want)
	}
}

// Every key the settings file is written with is in one style, lower case
// with underscores ("ui_scale" sat beside "KeepRest" and "LineScale"),
// for every lab made; keys an earlier version wrote by the Go names are
// still read, and saved in the new style, the old keys gone.
func TestSettingsKeysOneStyle(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(app.ConfigDirEnv, dir)
	path := filepath.Join(dir, "old.json")
	old := `{"bvh": {"Units": "cm", "KeepRest": true}, "labs": {"velocities": {"LineScale": 0.5, "Quantity": 2}}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Config{Lab: "velocities"}, All())
	if err := a.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	if v := a.Lab().(*velocities.Lab); v.S.LineScale != 0.5 || v.S.Quantity != 2 {
		t.Errorf("old keys read as LineScale %v, Quantity %d; want 0.5, 2", v.S.LineScale, v.S.Quantity)
	}
	for _, e := range All() {
		a.SwitchLab(e.Name) // every lab made, its settings saved
	}
	out := filepath.Join(dir, "new.json")
	if err := a.SaveSettings(out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	oneStyle := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	var walk func(at string, v any)
	walk = func(at string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		for k, x := range m {
			if !oneStyle.MatchString(k) {
				t.Errorf("%s: key %q is not lower case with underscores", at, k)
			}
			walk(at+"."+k, x)
		}
	}
	walk("settings", top)
	bv := top["bvh"].(map[string]any)
	vs := top["labs"].(map[string]any)["velocities"].(map[string]any)
	if bv["keep_rest"] != true || bv["units"] != "cm" || vs["line_scale"] != 0.5 {
		t.Errorf("saved bvh %v, velocities line_scale %v; want keep_rest true, units cm, 0.5", bv, vs["line_scale"])
	}
}
