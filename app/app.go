// Package app is kinelab's lab framework: the window and render loop, and
// everything the labs share — the playback clock, orbit camera, panels,
// help overlay, messages, the clip timeline, the file browser, settings
// that last, screenshots, CSV export, scripted headless runs, the
// character (loaded with package character, its body built when it is
// set), joint picking, and the input labs are handed. A lab is a [Lab]
// (lab.go, the whole contract), embedding [Base] for the hooks it does
// not need.
// The labs live in packages of their own under app/labs; the framework
// never imports them: main passes the list (labs.All) to [ParseFlags] and
// [Run].
//
// A frame (Frame, loop.go) reads input (input.go), applies what the last
// frame's panels asked for, runs the labs' updates, uploads, and only then
// draws (chrome.go: tabs, panels, messages, timeline, help, browser).
// Data flows one way: input and UI state -> animsys (through a lab's
// Update) -> render.
package app

import (
	"fmt"
	"slices"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys/bvh"
	"kinelab/render"
	"kinelab/ui"
)

// App is one running kinelab window (or one headless run).
type App struct {
	cfg     Config
	entries []LabEntry // the labs, in tab order
	labs    []Lab      // made on first use, in entries' order
	cur     int
	keys    []Key // the framework's own, for input and the help overlay
	clock   Clock
	cam     OrbitCamera
	ground  *render.Ground
	frames  int

	chrome   chrome        // panels, messages, help, file browser
	in       inputState    // the mouse: drags, presses, the labs' pointer
	mocap    mocapState    // the loaded character and how its files were read
	bodies   bodyStore     // skinned bodies of the characters set
	settings settingsState // the framework's settings, the labs' from the file, their defaults
	pending  []func()      // what the last frame's panels asked for, applied before the next update
	out      outputs       // --csv, screenshots
}

// New makes the App for cfg with labs (in tab order), without a window:
// Open makes one. The lab cfg.Lab is current (the first if no lab has
// that name); each lab is made when first used.
func New(cfg Config, labs []LabEntry) *App {
	a := &App{cfg: cfg, entries: labs, clock: NewClock(), cam: DefaultCamera()}
	a.chrome = newChrome()
	a.mocap.opts = bvh.ReadOptions{Units: cfg.Units, Up: cfg.Up, KeepRest: cfg.KeepRest}
	a.settings.set.UIScale = cfg.UIScale
	if cfg.DT > 0 {
		a.clock.FixedDt = cfg.DT
	}
	a.clock.Jitter = cfg.Jitter
	for i, n := range entryNames(labs) {
		a.labs = append(a.labs, nil)
		if n == cfg.Lab {
			a.cur = i
		}
	}
	a.keys = a.frameworkKeys()
	return a
}

// Lab returns the current lab, making it on first use (configured from
// the command line, and given the loaded character if it animates one).
func (a *App) Lab() Lab {
	if a.labs[a.cur] == nil {
		l := a.entries[a.cur].New()
		a.keepDefaults(a.cur, l)
		a.applyStored(a.cur, l)
		l.Configure(a.cfg)
		if a.mocap.character != nil {
			l.SetCharacter(a.mocap.character)
		}
		a.labs[a.cur] = l
	}
	return a.labs[a.cur]
}

// SwitchLab makes the lab called name current, as its number key does, and
// reports whether there is one.
func (a *App) SwitchLab(name string) bool {
	for i, e := range a.entries {
		if e.Name == name {
			a.switchLab(i)
			return true
		}
	}
	return false
}

// switchLab makes lab i current (the number keys, Tab, a click on a tab:
// all from the input stage, so the frame draws the new lab throughout).
func (a *App) switchLab(i int) {
	if i < 0 || i >= len(a.labs) || i == a.cur {
		return
	}
	a.cur = i
	a.ResetCamera()
	if rl.IsWindowReady() { // a headless run has no window
		rl.SetWindowTitle(a.title())
	}
}

// ResetCamera gives the current lab its own camera, or the default one
// (as far back as a loaded character's size asks), aimed at the lab's
// focus (the C key).
func (a *App) ResetCamera() {
	a.cam = a.Lab().Camera()
	a.cam.Target = a.Lab().Focus()
}

func (a *App) title() string { return "kinelab - " + a.Lab().Title() }

// Keys lists every key action: the App's own, then the current lab's.
//
// A lab's key takes its code from a framework key with the same code.
func (a *App) Keys() []Key {
	own := a.Lab().Keys()
	out := make([]Key, 0, len(a.keys)+len(own))
	for _, k := range a.keys {
		if !slices.ContainsFunc(own, func(o Key) bool { return o.Code == k.Code }) {
			out = append(out, k)
		}
	}
	return append(out, own...)
}

// run performs the key action called name (a --do script step); a Held
// key is held down from now until the script names it again.
func (a *App) run(name string) {
	for _, k := range a.Keys() {
		switch {
		case k.Name != name:
		case k.Held:
			if a.in.scripted == nil {
				a.in.scripted = map[string]bool{}
			}
			a.in.scripted[name] = !a.in.scripted[name]
			return
		default:
			k.Action()
			return
		}
	}
}

// Clock is the playback clock (pause, step, time scale, tick rate).
func (a *App) Clock() *Clock { return &a.clock }

// ShowUI shows or hides the panels and plots (the H key).
func (a *App) ShowUI(show bool) { a.chrome.showUI = show }

// ShowHelp shows or hides the help overlay (the F1 key).
func (a *App) ShowHelp(show bool) { a.chrome.showHelp = show }

// frameworkKeys are the framework's key actions, then a number key per lab.
func (a *App) frameworkKeys() []Key {
	key := func(code int32, label, name, help string, do func()) Key {
		return Key{Code: code, Label: label, Name: name, Help: help, Action: do}
	}
	keys := []Key{
		key(rl.KeyF1, "F1", "help", "show / hide this help", func() { a.chrome.showHelp = !a.chrome.showHelp }),
		key(rl.KeyH, "H", "hide-ui", "hide / show panels and plots", func() { a.chrome.showUI = !a.chrome.showUI }),
		key(rl.KeySpace, "Space", "pause", "pause / play", func() { a.clock.Paused = !a.clock.Paused }),
		key(rl.KeyPeriod, ".", "step", "single step (pauses)", func() { a.clock.Paused = true; a.clock.Step() }),
		key(rl.KeyLeftBracket, "[", "slower", "halve the time scale", func() { a.clock.TimeScale = max(1.0/16, a.clock.TimeScale/2) }),
		key(rl.KeyRightBracket, "]", "faster", "double the time scale", func() { a.clock.TimeScale = min(4, a.clock.TimeScale*2) }),
		key(rl.KeyD, "D", "fixed-dt", "fixed dt / real frame dt", func() { a.clock.Fixed = !a.clock.Fixed }),
		key(rl.KeyC, "C", "camera-reset", "reset the camera", a.ResetCamera),
		key(rl.KeyF, "F", "follow", "camera follows the character on / off", func() { a.cam.Follow = !a.cam.Follow }),
		key(rl.KeyO, "O", "open", "open BVH or glTF files (file browser)", a.OpenBrowser),
		key(rl.KeyF12, "F12", "screenshot", "save a screenshot (PNG, current folder)", func() { a.out.screenshotAtEnd = true }),
		key(rl.KeyTab, "Tab", "next-lab", "next lab", func() { a.switchLab((a.cur + 1) % len(a.labs)) }),
	}
	for i, e := range a.entries {
		keys = append(keys, key(int32(rl.KeyOne)+int32(i), fmt.Sprint(i+1), "lab-"+e.Name, "lab: "+e.Name, func() { a.switchLab(i) }))
	}
	return keys
}

// uiScale applies the UI scale: the setting (or --ui-scale), else one
// from the window's size and the monitor's DPI.
func (a *App) applyScale() {
	s := a.settings.set.UIScale
	if !(s > 0) {
		dpi := rl.GetWindowScaleDPI()
		s = ui.AutoScale(int32(rl.GetScreenWidth()), int32(rl.GetScreenHeight()), max(dpi.X, dpi.Y))
	}
	ui.SetScale(s)
}
