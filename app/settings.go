package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"kinelab/animsys/bvh"
	"kinelab/animsys/export"
)

// Settings that last: the framework's (clock, UI scale, BVH load options,
// joint labels) and every lab's Settings struct are written to a JSON file
// when the window closes and read when kinelab starts. Scripted runs
// (--frames) neither read nor write it, so their output does not depend on
// what a user last did; --settings FILE reads a given file instead.

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

// settingsState is the settings the App holds: the framework's, the file
// they were read from (as read, for what this build does not know), the
// labs' as read (for labs not made yet), and each made lab's defaults
// (for the reset buttons).
type settingsState struct {
	set      AppSettings
	from     string                     // the file read, for messages
	raw      map[string]json.RawMessage // its top-level object
	stored   map[string]json.RawMessage // its labs' objects
	defaults map[int]reflect.Value
}

// The settings file is one JSON object: the framework's sections and the
// labs' objects by lab name.
const (
	keyApp   = "app"
	keyClock = "clock"
	keyLoad  = "bvh"
	keyLabs  = "labs"
)

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
// The settings are the user's data, so what this build does not know is
// written back as it was: keys of a newer version, in any section or lab,
// and labs this build does not have, from the file at path as it is now
// and from the file this run started from. A file at path that does not
// read is moved aside (settings.json.bad) first, never written over; a
// read-only one is left as it is (an error).
func (a *App) SaveSettings(path string) error {
	if err := readOnly(path); err != nil {
		return err
	}
	top := map[string]json.RawMessage{}
	switch b, err := readSettingsFile(path); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("%w; not written over", err)
	default:
		if top, err = readSettings(path, b); err != nil {
			bad, kerr := keepAside(path)
			if kerr != nil {
				return fmt.Errorf("%w; not written over: %w", err, kerr)
			}
			fmt.Fprintf(os.Stderr, "kinelab: %v; moved it to %s\n", err, bad)
			top = map[string]json.RawMessage{}
		}
	}
	top = mergeObjects(top, a.settings.raw)

	var problems []string
	known := func(key string, v any) {
		var p []string
		top[key], p = mergeFields(key, top[key], v)
		problems = append(problems, p...)
	}
	known(keyApp, a.settings.set)
	known(keyClock, clockSettings{a.clock.Fixed, a.clock.FixedDt, a.clock.TimeScale, a.clock.Jitter})
	known(keyLoad, a.mocap.opts)
	labs := map[string]json.RawMessage{}
	_ = json.Unmarshal(top[keyLabs], &labs) // not an object: replaced
	if labs == nil {
		labs = map[string]json.RawMessage{}
	}
	for i, e := range a.entries {
		l := a.labs[i]
		if s := settingsOf(l); s != nil {
			var p []string
			labs[e.Name], p = mergeFields(keyLabs+"."+e.Name, labs[e.Name], s)
			problems = append(problems, p...)
		} else if _, read := a.settings.stored[e.Name]; l == nil && !read {
			delete(labs, e.Name) // --reset-settings: its defaults next time
		}
	}
	top[keyLabs] = writeObject(orderKeys(nil, labs), labs)
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "kinelab: %s: %s\n", path, p)
	}

	var b bytes.Buffer
	if err := json.Indent(&b, writeObject(orderKeys([]string{keyApp, keyClock, keyLoad, keyLabs}, top), top), "", "  "); err != nil {
		return err
	}
	b.WriteByte('\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := export.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(b.Bytes()); err != nil {
		return err
	}
	return f.Commit()
}

// LoadSettings reads settings saved by SaveSettings from path: the
// framework's at once, each lab's when the lab is made (labs made already
// get theirs now). A missing file is not an error when missingOK. A file
// that is not a JSON object is an error (file:line:col); in one that is,
// each setting is read on its own: one whose value does not read (a
// string for a number, a number out of its type) is reported in Messages
// and on stderr and left as it was, and keys this build does not know are
// kept for SaveSettings.
func (a *App) LoadSettings(path string, missingOK bool) error {
	b, err := readSettingsFile(path)
	if errors.Is(err, fs.ErrNotExist) && missingOK {
		return nil
	}
	if err != nil {
		return err
	}
	top, err := readSettings(path, b)
	if err != nil {
		return err
	}
	a.settings.from, a.settings.raw = path, top

	set := a.settings.set
	a.settingsErrs(decodeFields(keyApp, &set, top[keyApp]))
	a.settings.set = set
	if s := set.UIScale; s != 0 && !(s >= minUIScale && s <= maxUIScale) {
		why := "is not a number"
		switch {
		case s > maxUIScale:
			why = fmt.Sprintf("is above its maximum %v", maxUIScale)
		case s < minUIScale:
			why = fmt.Sprintf("is below its minimum %v", minUIScale)
		}
		a.settingsErrs([]string{fmt.Sprintf("%s.ui_scale = %v %s; using 0 (from the window size)", keyApp, s, why)})
		a.settings.set.UIScale = 0
	}
	if a.cfg.UIScale > 0 { // --ui-scale wins
		a.settings.set.UIScale = a.cfg.UIScale
	}

	c := clockSettings{a.clock.Fixed, a.clock.FixedDt, a.clock.TimeScale, a.clock.Jitter}
	a.settingsErrs(decodeFields(keyClock, &c, top[keyClock]))
	// Within the panel's ranges, each value moved named.
	a.settingsErrs(clampNamed(keyClock, &c, func() {
		a.clock.Fixed, a.clock.FixedDt, a.clock.TimeScale, a.clock.Jitter = c.Fixed, c.FixedDt, c.TimeScale, c.Jitter
		a.clockRanges().Clamp()
		c = clockSettings{a.clock.Fixed, a.clock.FixedDt, a.clock.TimeScale, a.clock.Jitter}
	}))
	a.clock.Fixed, a.clock.FixedDt, a.clock.TimeScale, a.clock.Jitter = c.Fixed, c.FixedDt, c.TimeScale, c.Jitter
	// --dt and --jitter win, as --ui-scale does.
	if a.cfg.DTGiven {
		a.clock.Fixed, a.clock.FixedDt = true, a.cfg.DT
	}
	if a.cfg.JitterGiven {
		a.clock.Jitter = a.cfg.Jitter
	}

	// The command line's BVH options win over the file's.
	o := a.mocap.opts
	a.settingsErrs(decodeFields(keyLoad, &o, top[keyLoad]))
	if o.Units != a.mocap.opts.Units && o.Units != "auto" {
		if _, err := bvh.ParseUnits(o.Units); err != nil {
			a.settingsErrs([]string{fmt.Sprintf("%s.Units: %v; kept %q", keyLoad, err, a.mocap.opts.Units)})
			o.Units = a.mocap.opts.Units
		}
	}
	if o.Up != a.mocap.opts.Up && o.Up != "auto" {
		if _, err := bvh.ParseUp(o.Up); err != nil {
			a.settingsErrs([]string{fmt.Sprintf("%s.Up: %v; kept %q", keyLoad, err, a.mocap.opts.Up)})
			o.Up = a.mocap.opts.Up
		}
	}
	if cur := a.mocap.opts; cur == (bvh.ReadOptions{Units: "auto", Up: "auto"}) || cur == (bvh.ReadOptions{}) {
		a.mocap.opts = o
	}

	a.settings.stored = nil
	if raw, ok := top[keyLabs]; ok && json.Unmarshal(raw, &a.settings.stored) != nil {
		a.settingsErrs([]string{fmt.Sprintf("%s: want an object of labs, got %s; the labs start from their defaults", keyLabs, short(raw))})
	}
	for i, l := range a.labs {
		if l != nil {
			a.applyStored(i, l)
		}
	}
	return nil
}

// applyStored sets lab i's settings from the loaded file, if it has them,
// each field on its own, and puts them in their ranges.
func (a *App) applyStored(i int, l Lab) {
	s := settingsOf(l)
	raw, have := a.settings.stored[a.entries[i].Name]
	if s == nil || !have {
		return
	}
	at := keyLabs + "." + a.entries[i].Name
	a.settingsErrs(decodeFields(at, s, raw))
	a.settingsErrs(clampNamed(at, s, l.CheckSettings))
}

// settingsErrs reports the settings the file read could not give: in
// Messages, and on stderr (all a scripted run shows).
func (a *App) settingsErrs(problems []string) {
	for _, p := range problems {
		msg := a.settings.from + ": " + p
		a.sayErr(msg)
		fmt.Fprintln(os.Stderr, "kinelab:", msg)
	}
}

// settingsOf is lab l's settings (Lab.Settings), nil for a lab not made
// yet or one with none.
func settingsOf(l Lab) any {
	if l == nil {
		return nil
	}
	return l.Settings()
}

// keepDefaults copies lab i's settings as they are when it is made: its
// defaults, for the reset buttons.
func (a *App) keepDefaults(i int, l Lab) {
	s := settingsOf(l)
	if s == nil {
		return
	}
	v := reflect.ValueOf(s)
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
	if s := settingsOf(a.Lab()); s != nil {
		if d, ok := a.settings.defaults[a.cur]; ok && resetIn(reflect.ValueOf(s).Elem(), d.Elem(), p) {
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
	// The user's file is written on exit: one that does not read is moved
	// aside first, so it is not written over unseen.
	err = a.LoadSettings(path, true)
	var bad *unreadableError
	if !errors.As(err, &bad) {
		if ro := readOnly(path); ro != nil && err == nil {
			// Said now, while the window is open: the save on exit is
			// refused.
			msg := fmt.Sprintf("%v; changed settings will not be saved", ro)
			a.say(msg)
			fmt.Fprintln(os.Stderr, "kinelab:", msg)
		}
		return err
	}
	kept, err := keepAside(path)
	if err != nil {
		return fmt.Errorf("%w; could not move it aside: %w", bad, err)
	}
	msg := fmt.Sprintf("%v; moved it to %s and started from the defaults", bad, kept)
	a.sayErr(msg)
	fmt.Fprintln(os.Stderr, "kinelab:", msg)
	return nil
}

// readOnly is an error when the file at path is read-only: made so to keep
// it as it is, so a save leaves it alone (the save's rename would replace
// it, as the folder is writable).
func readOnly(path string) error {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s is read-only (%v): left as it is", path, st.Mode().Perm())
	}
	return nil
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

// readSettingsFile reads the settings file at path, refusing one that is
// no regular file (a FIFO nobody writes to would hang the start or the
// exit; a device reads without end).
func readSettingsFile(path string) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return os.ReadFile(path)
}
