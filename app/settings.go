package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"kinelab/animsys/bvh"
)

// Settings that last: the framework's (clock, UI scale, BVH load options,
// joint labels) and every lab's Settings struct are written to a JSON file
// when the window closes and read when kinelab starts. Scripted runs
// (--frames) neither read nor write it, so their output does not depend on
// what a user last did; --settings FILE reads a given file instead.

// SettingsLab is a lab whose settings last between runs: Settings returns
// a pointer to its settings struct (JSON-encodable values). The framework
// also resets its fields to the lab's defaults (a section's reset button,
// right-click on a slider), taking the defaults from a copy made when the
// lab is created.
type SettingsLab interface {
	Settings() any
}

// AppSettings are the framework's settings that last.
type AppSettings struct {
	UIScale     float32 `json:"ui_scale"` // 0: from the window size and DPI
	LabelJoints bool    `json:"label_joints"`
}

// clockSettings is the part of the clock that lasts.
type clockSettings struct {
	Fixed     bool    `json:"fixed"`
	FixedDt   float32 `json:"fixed_dt"`
	TimeScale float32 `json:"time_scale"`
	Jitter    float32 `json:"jitter"`
}

type settingsFile struct {
	App   AppSettings                `json:"app"`
	Clock clockSettings              `json:"clock"`
	Load  Options                    `json:"bvh"`
	Labs  map[string]json.RawMessage `json:"labs"`
}

// settingsState is the settings the App holds: the framework's, the
// labs' as read from the file (for labs not made yet), and each made
// lab's defaults (for the reset buttons).
type settingsState struct {
	set      AppSettings
	stored   map[string]json.RawMessage
	defaults map[int]reflect.Value
}

// ConfigDirEnv names the environment variable that, when set, is the
// folder of the settings file instead of the user's config folder (tests
// point it at a temporary folder).
const ConfigDirEnv = "KINELAB_CONFIG_DIR"

// UserSettingsPath is the settings file kinelab reads at start and writes
// on exit: settings.json in $KINELAB_CONFIG_DIR, else in kinelab's folder
// of the user's config directory.
func UserSettingsPath() (string, error) {
	if d := os.Getenv(ConfigDirEnv); d != "" {
		return filepath.Join(d, "settings.json"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "kinelab", "settings.json"), nil
}

// SaveSettings writes the framework's and every lab's settings to path
// (labs not made in this run keep what the file they came from said).
func (a *App) SaveSettings(path string) error {
	f := settingsFile{App: a.settings.set, Load: a.mocap.opts, Labs: map[string]json.RawMessage{},
		Clock: clockSettings{a.clock.Fixed, a.clock.FixedDt, a.clock.TimeScale, a.clock.Jitter}}
	for k, v := range a.settings.stored {
		f.Labs[k] = v
	}
	for i, l := range a.labs {
		if s, ok := l.(SettingsLab); ok {
			b, err := json.Marshal(s.Settings())
			if err != nil {
				return fmt.Errorf("settings of %s: %v", a.entries[i].Name, err)
			}
			f.Labs[a.entries[i].Name] = b
		}
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// LoadSettings reads settings saved by SaveSettings from path: the
// framework's at once, each lab's when the lab is made (labs made already
// get theirs now). A missing file is not an error when missingOK.
func (a *App) LoadSettings(path string, missingOK bool) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && missingOK {
		return nil
	}
	if err != nil {
		return err
	}
	var f settingsFile
	f.Clock = clockSettings{a.clock.Fixed, a.clock.FixedDt, a.clock.TimeScale, a.clock.Jitter}
	f.App, f.Load = a.settings.set, a.mocap.opts
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	set := &a.settings.set
	*set = f.App
	if !(set.UIScale >= minUIScale && set.UIScale <= maxUIScale) {
		set.UIScale = 0
	}
	if a.cfg.UIScale > 0 { // --ui-scale wins
		set.UIScale = a.cfg.UIScale
	}
	c := f.Clock
	a.clock.Fixed, a.clock.FixedDt, a.clock.TimeScale, a.clock.Jitter = c.Fixed, c.FixedDt, c.TimeScale, c.Jitter
	a.clockRanges().Clamp() // the panel's ranges
	// The command line's BVH options win over the file's.
	if o := a.mocap.opts; o == (Options{Units: "auto", Up: "auto"}) || o == (Options{}) {
		if validOptions(f.Load) {
			a.mocap.opts = f.Load
		}
	}
	a.settings.stored = f.Labs
	for i, l := range a.labs {
		if l != nil {
			a.applyStored(i, l)
		}
	}
	return nil
}

// applyStored sets lab i's settings from the loaded file, if it has them.
func (a *App) applyStored(i int, l Lab) {
	s, ok := l.(SettingsLab)
	raw, have := a.settings.stored[a.entries[i].Name]
	if !ok || !have {
		return
	}
	if err := json.Unmarshal(raw, s.Settings()); err != nil {
		a.sayErr(fmt.Sprintf("settings of %s not restored: %v", a.entries[i].Name, err))
	}
	if c, ok := l.(SettingsChecker); ok {
		c.CheckSettings()
	}
}

// SettingsChecker is a SettingsLab that puts read settings back in their
// ranges (a file edited by hand, or by an older version): choices within
// their options, sliders within their ends (the lab's table of sliders,
// ui.Ranges, which its panel draws).
type SettingsChecker interface {
	CheckSettings()
}

// keepDefaults copies lab i's settings as they are when it is made: its
// defaults, for the reset buttons.
func (a *App) keepDefaults(i int, l Lab) {
	s, ok := l.(SettingsLab)
	if !ok {
		return
	}
	v := reflect.ValueOf(s.Settings())
	if v.Kind() != reflect.Pointer {
		return
	}
	d := reflect.New(v.Elem().Type())
	d.Elem().Set(v.Elem())
	if a.settings.defaults == nil {
		a.settings.defaults = map[int]reflect.Value{}
	}
	a.settings.defaults[i] = d
}

// ResetSetting puts the setting at ptr back to its default: one of the
// current lab's settings, the clock's or the framework's. It reports
// whether ptr is one of them.
func (a *App) ResetSetting(ptr any) bool {
	p := reflect.ValueOf(ptr)
	if p.Kind() != reflect.Pointer || p.IsNil() {
		return false
	}
	if s, ok := a.Lab().(SettingsLab); ok {
		if d, ok := a.settings.defaults[a.cur]; ok && resetIn(reflect.ValueOf(s.Settings()).Elem(), d.Elem(), p) {
			return true
		}
	}
	clock := NewClock()
	if resetIn(reflect.ValueOf(&a.clock).Elem(), reflect.ValueOf(&clock).Elem(), p) {
		return true
	}
	var set AppSettings
	return resetIn(reflect.ValueOf(&a.settings.set).Elem(), reflect.ValueOf(&set).Elem(), p)
}

// resetIn finds the value ptr points at inside cur (a struct, walked
// through its fields and arrays) and sets it from the same place in def.
func resetIn(cur, def reflect.Value, ptr reflect.Value) bool {
	if cur.CanAddr() && cur.Addr().Type() == ptr.Type() && cur.Addr().Pointer() == ptr.Pointer() {
		if cur.CanSet() {
			cur.Set(def)
			return true
		}
		return false
	}
	switch cur.Kind() {
	case reflect.Struct:
		for i := 0; i < cur.NumField(); i++ {
			if cur.Type().Field(i).IsExported() && resetIn(cur.Field(i), def.Field(i), ptr) {
				return true
			}
		}
	case reflect.Array:
		for i := 0; i < cur.Len(); i++ {
			if resetIn(cur.Index(i), def.Index(i), ptr) {
				return true
			}
		}
	}
	return false
}

// startSettings reads the settings a run starts from: --settings FILE, or
// the user's file (neither with --reset-settings; a scripted run reads
// only a file it is given).
func (a *App) startSettings() error {
	switch {
	case a.cfg.SettingsFile != "":
		return a.LoadSettings(a.cfg.SettingsFile, false)
	case a.cfg.ResetSettings || a.cfg.Headless():
		return nil
	}
	path, err := UserSettingsPath()
	if err != nil {
		return err
	}
	return a.LoadSettings(path, true)
}

// saveUserSettings writes the settings to the user's file on exit.
func (a *App) saveUserSettings() {
	path, err := UserSettingsPath()
	if err == nil {
		err = a.SaveSettings(path)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "kinelab: settings not saved: %v\n", err)
	}
}

// validOptions reports whether o's units and up axis read.
func validOptions(o Options) bool {
	if o.Units != "auto" {
		if _, err := bvh.ParseUnits(o.Units); err != nil {
			return false
		}
	}
	if o.Up != "auto" {
		if _, err := bvh.ParseUp(o.Up); err != nil {
			return false
		}
	}
	return true
}
