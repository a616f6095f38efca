// Package app is kinelab's lab framework: the window and render loop, and
// everything the labs share — the playback clock, orbit camera, panels,
// help overlay, messages, the clip timeline, the file browser, settings
// that last, screenshots, CSV export, scripted headless runs, BVH
// characters, joint picking and the pointer. A lab is a [Lab], with
// optional interfaces ([Configurer], [CSVExporter], [CharacterSetter],
// [Pointable], [Timeliner], [SettingsLab], ...) for what it takes part in. The labs live in packages of their own under
// app/labs; the framework never imports them: main passes the list
// (labs.All) to [ParseFlags] and [Run]. Data flows one way: input and UI
// state -> animsys (through a lab's Update) -> render.
package app

import (
	"cmp"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/render"
	"kinelab/ui"
)

// App is one running kinelab window.
type App struct {
	cfg     Config
	entries []LabEntry // the labs, in tab order
	labs    []Lab      // created on first use, in entries' order
	cur     int
	clock   Clock
	cam     OrbitCamera
	ground  *render.Ground

	playPanel, labPanel ui.Panel
	msgPanel            ui.Panel
	showUI, showHelp    bool
	messages            []Message // notices and errors until dismissed
	frames              int
	keys                []Key // global keys, for input and the help overlay
	dragging            bool  // a camera drag started outside the UI
	screenshotAtEnd     bool  // F12 was pressed: save this frame
	captureErr          error // the --screenshot write failed
	pointer             Pointer
	dtOpen              bool // the playback panel's time-step section is open
	csv                 *CSVFile
	character           *Character  // loaded from BVH files, nil for the default
	loadFailed          bool        // a headless run's BVH files did not all load
	files               []string    // the BVH files the character was loaded from
	loadOpts            LoadOptions // how they were read (the Mocap section changes it)
	mocapOpen           bool        // the playback panel's Mocap section is open
	bodies              map[bodyKey]BodyDrawer
	bodyErrs            map[bodyKey]string // why a skeleton has no body
	viewOpen            bool               // the playback panel's View section is open
	set                 AppSettings
	stored              map[string]json.RawMessage // labs' settings read from the file
	defaults            map[int]reflect.Value      // each made lab's default settings
	browser             *fileBrowser               // the open file browser, or nil
	lastView            View                       // the last frame's, for clicks
	press               rl.Vector2                 // where the left button went down (units)
	pressOverUI         bool
}

// Run opens the window with labs (in tab order) and runs the render loop
// until the window closes or cfg.Frames frames have been drawn. It returns
// the process exit code.
func Run(cfg Config, labs []LabEntry) int {
	if cfg.drawsNothing() {
		return runHeadless(cfg, labs)
	}
	a := New(cfg, labs)
	if err := a.Open(); err != nil {
		fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
		return 1
	}
	defer a.Close()
	if err := a.startSettings(); err != nil {
		fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
		if cfg.SettingsFile != "" {
			return 1
		}
	}
	if !cfg.Headless() {
		defer a.saveUserSettings()
	}
	if len(cfg.Files) > 0 && !a.Load(cfg.Files) && cfg.Headless() {
		a.loadFailed = true
	}
	if cfg.CSV != "" {
		out, err := CreateCSV(cfg.CSV, a.Lab())
		if err != nil {
			fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
			return 1
		}
		a.csv = out
	}
	for !rl.WindowShouldClose() {
		last := cfg.Frames > 0 && a.frames == cfg.Frames-1
		var onDrawn func()
		if last && cfg.Screenshot != "" {
			onDrawn = func() { a.captureErr = a.writeScreenshot(cfg.Screenshot) }
		}
		a.Frame(onDrawn)
		if last {
			break
		}
	}
	if a.csv != nil {
		if err := a.csv.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
			return 1
		}
	}
	if (cfg.Screenshot != "" && a.captureErr != nil) || a.loadFailed {
		return 1
	}
	return 0
}

// New makes the App for cfg with labs (in tab order), without a window:
// Open makes one. The lab cfg.Lab is current (the first if no lab has
// that name); each lab is made when first used.
func New(cfg Config, labs []LabEntry) *App {
	a := &App{cfg: cfg, entries: labs, clock: NewClock(), cam: DefaultCamera(), showUI: true,
		loadOpts: LoadOptions{Units: cfg.Units, Up: cfg.Up, KeepRest: cfg.KeepRest}}
	a.set.UIScale = cfg.UIScale
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
	a.playPanel = ui.Panel{Title: "Playback"}
	a.keys = []Key{
		{rl.KeyF1, "F1", "help", "show / hide this help", func() { a.showHelp = !a.showHelp }},
		{rl.KeyH, "H", "hide-ui", "hide / show panels and plots", func() { a.showUI = !a.showUI }},
		{rl.KeySpace, "Space", "pause", "pause / play", func() { a.clock.Paused = !a.clock.Paused }},
		{rl.KeyPeriod, ".", "step", "single step (pauses)", func() { a.clock.Paused = true; a.clock.Step() }},
		{rl.KeyLeftBracket, "[", "slower", "halve the time scale", func() { a.clock.TimeScale = max(1.0/16, a.clock.TimeScale/2) }},
		{rl.KeyRightBracket, "]", "faster", "double the time scale", func() { a.clock.TimeScale = min(4, a.clock.TimeScale*2) }},
		{rl.KeyD, "D", "fixed-dt", "fixed dt / real frame dt", func() { a.clock.Fixed = !a.clock.Fixed }},
		{rl.KeyC, "C", "camera-reset", "reset the camera", a.ResetCamera},
		{rl.KeyF, "F", "follow", "camera follows the character on / off", func() { a.cam.Follow = !a.cam.Follow }},
		{rl.KeyO, "O", "open", "open BVH files (file browser)", a.OpenBrowser},
		{rl.KeyF12, "F12", "screenshot", "save a screenshot (PNG, current folder)", func() { a.screenshotAtEnd = true }},
		{rl.KeyTab, "Tab", "next-lab", "next lab", func() { a.switchLab((a.cur + 1) % len(a.labs)) }},
	}
	for i, e := range labs {
		a.keys = append(a.keys, Key{int32(rl.KeyOne) + int32(i), fmt.Sprint(i + 1), "lab-" + e.Name, "lab: " + e.Name, func() { a.switchLab(i) }})
	}
	return a
}

// Lab returns the current lab, making it on first use (configured from
// the command line, and given the loaded character if it animates one).
func (a *App) Lab() Lab {
	if a.labs[a.cur] == nil {
		l := a.entries[a.cur].New()
		a.keepDefaults(a.cur, l)
		a.applyStored(a.cur, l)
		if s, ok := l.(Configurer); ok {
			s.Configure(a.cfg)
		}
		if c, ok := l.(CharacterSetter); ok && a.character != nil {
			c.SetCharacter(a.character)
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

// ResetCamera gives the current lab its own camera, or the default one,
// aimed at the lab's focus (the C key).
func (a *App) ResetCamera() {
	a.cam = DefaultCamera()
	if c, ok := a.Lab().(CameraChooser); ok {
		a.cam = c.Camera()
	}
	a.cam.Target = a.Lab().Focus()
}

func (a *App) title() string { return "kinelab - " + a.Lab().Title() }

// Open creates the window and the GPU resources. Every later call on the
// App must come from the same OS thread (raylib is single-threaded).
func (a *App) Open() error {
	if os.Getenv("DISPLAY") == "" {
		return fmt.Errorf("no display: DISPLAY is not set. To run without a screen, use a virtual one:\n  xvfb-run -a -s \"-screen 0 1280x720x24\" kinelab --frames 120 --screenshot out.png")
	}
	rl.SetTraceLogLevel(rl.LogWarning)
	flags := uint32(rl.FlagWindowResizable)
	if a.cfg.MSAA {
		flags |= rl.FlagMsaa4xHint
	}
	rl.SetConfigFlags(flags)
	rl.InitWindow(int32(a.cfg.Width), int32(a.cfg.Height), a.title())
	if !rl.IsWindowReady() {
		return fmt.Errorf("could not open a window on display %q. To run without a screen, use:\n  xvfb-run -a -s \"-screen 0 1280x720x24\" kinelab --frames 120 --screenshot out.png", os.Getenv("DISPLAY"))
	}
	rl.SetExitKey(rl.KeyEscape)
	if a.cfg.Headless() {
		rl.SetTargetFPS(0)
	} else {
		rl.SetTargetFPS(60)
	}
	ui.SetStyle()
	a.applyScale()
	a.ground = render.NewGround()
	a.ResetCamera()
	return nil
}

// Close frees the labs' and the App's GPU resources and closes the window.
func (a *App) Close() {
	for _, l := range a.labs {
		if u, ok := l.(Unloader); ok {
			u.Unload()
		}
	}
	for _, b := range a.bodies {
		if m, ok := b.(interface{ Unload() }); ok && b != nil {
			m.Unload()
		}
	}
	a.ground.Unload()
	ui.Unload()
	rl.CloseWindow()
}

// frameDt is the real time of the last frame (s); headless runs pretend
// every frame took 1/60 s so their output does not depend on machine speed.
func (a *App) frameDt() float32 {
	if a.cfg.Headless() {
		return 1.0 / 60
	}
	return rl.GetFrameTime()
}

// View describes the current frame for drawing code, in UI units (see
// ui.Scale): the 2D pass is drawn zoomed by the UI scale.
func (a *App) View() View {
	w, h := ui.Width(), ui.Height()
	_, timeline := a.Lab().(Timeliner)
	lay := layoutFor(w, h, timeline)
	v := View{Camera: a.cam.Raylib(), Width: int32(w), Height: int32(h),
		Plot: lay.Plot, Area: lay.Area, Timeline: lay.Timeline, scale: ui.Scale(),
		BodyFor: a.bodyFor, Mouse: rl.Vector2{X: -1, Y: -1}, LabelJoints: a.set.LabelJoints}
	if !a.cfg.Headless() {
		v.Mouse = rl.GetMousePosition()
	}
	return v
}

// applyScale sets the UI scale: the setting (or --ui-scale), else one
// from the window's size and the monitor's DPI.
func (a *App) applyScale() {
	s := a.set.UIScale
	if !(s > 0) {
		dpi := rl.GetWindowScaleDPI()
		s = ui.AutoScale(int32(rl.GetScreenWidth()), int32(rl.GetScreenHeight()), max(dpi.X, dpi.Y))
	}
	ui.SetScale(s)
}

// Frame runs one frame: key actions and --do steps, the lab's updates for
// the clock's steps (and their CSV rows), then the drawing. onDrawn, if not
// nil, runs when the frame is drawn but not yet shown (to read its pixels
// with ReadPixels).
func (a *App) Frame(onDrawn func()) {
	if !a.scaleDrag() {
		a.applyScale()
	}
	a.input()
	lab := a.tick()
	a.cam.Track(lab.Focus(), a.frameDt())

	v := a.View()
	a.lastView = v
	rl.BeginDrawing()
	rl.ClearBackground(render.Background)
	rl.BeginMode3D(v.Camera)
	a.ground.Draw(a.cam.Target)
	lab.Draw3D(&v)
	rl.EndMode3D()
	rl.BeginMode2D(rl.Camera2D{Zoom: ui.Scale()})
	modal := a.browser != nil
	a.playPanel.Modal, a.msgPanel.Modal, a.labPanel.Modal = modal, modal, modal
	if modal {
		gui.Lock()
	}
	if a.showUI {
		lab.Draw2D(&v)
		a.drawUI(lab, &v)
	}
	if a.showHelp {
		a.drawHelp(lab, &v)
	}
	if modal {
		gui.Unlock()
		a.drawBrowser(&v)
	}
	rl.EndMode2D()
	if onDrawn != nil {
		onDrawn()
	}
	if a.screenshotAtEnd {
		a.screenshotAtEnd = false
		a.writeScreenshot(fmt.Sprintf("kinelab-%s.png", time.Now().Format("20060102-150405.000")))
	}
	rl.EndDrawing()
	a.frames++
}

// input runs key actions and the mouse camera. Mouse drags that start over
// a panel belong to the UI, not the camera.
func (a *App) input() {
	// While the user types a value, or browses files, keys are theirs (and
	// Esc cancels instead of quitting).
	if ui.Typing() || a.browser != nil {
		rl.SetExitKey(rl.KeyNull)
	} else {
		rl.SetExitKey(rl.KeyEscape)
		for _, k := range a.Keys() {
			if rl.IsKeyPressed(k.Code) {
				k.Action()
			}
		}
	}
	if rl.IsFileDropped() {
		files := rl.LoadDroppedFiles()
		rl.UnloadDroppedFiles()
		a.Load(files)
	}
	m := rl.GetMousePosition() // units: raylib's mouse scale is the UI scale
	overUI := a.browser != nil || a.showUI && (rl.CheckCollisionPointRec(m, a.playPanel.Bounds()) ||
		rl.CheckCollisionPointRec(m, a.labPanel.Bounds()) || m.Y < tabBarH ||
		len(a.messages) > 0 && rl.CheckCollisionPointRec(m, a.msgPanel.Bounds()) ||
		rl.CheckCollisionPointRec(m, a.lastView.Timeline))
	if u, ok := a.Lab().(UIRecter); ok && a.showUI {
		for _, r := range u.UIRects(int32(ui.Width()), int32(ui.Height())) {
			overUI = overUI || rl.CheckCollisionPointRec(m, r)
		}
	}
	if rl.IsMouseButtonPressed(rl.MouseButtonLeft) || rl.IsMouseButtonPressed(rl.MouseButtonRight) {
		a.dragging = !overUI
	}
	ctrl := rl.IsKeyDown(rl.KeyLeftControl) || rl.IsKeyDown(rl.KeyRightControl)
	// A click picks: the left button released near where it went down.
	if rl.IsMouseButtonPressed(rl.MouseButtonLeft) {
		a.press, a.pressOverUI = m, overUI
	}
	a.pointer = Pointer{}
	if rl.IsMouseButtonReleased(rl.MouseButtonLeft) && !a.pressOverUI && !ctrl {
		d := rl.Vector2{X: m.X - a.press.X, Y: m.Y - a.press.Y}
		if d.X*d.X+d.Y*d.Y < 16 {
			a.pointer.Click, a.pointer.At = true, m
		}
	}
	if ctrl && !overUI {
		s := ui.Scale()
		ray := rl.GetScreenToWorldRay(rl.Vector2{X: m.X * s, Y: m.Y * s}, a.cam.Raylib())
		a.pointer = Pointer{Origin: mgl32.Vec3{ray.Position.X, ray.Position.Y, ray.Position.Z},
			Dir: mgl32.Vec3{ray.Direction.X, ray.Direction.Y, ray.Direction.Z}, Down: rl.IsMouseButtonDown(rl.MouseButtonLeft)}
	}
	if a.dragging && !ctrl {
		d := rl.GetMouseDelta()
		if rl.IsMouseButtonDown(rl.MouseButtonLeft) {
			a.cam.Orbit(d.X, d.Y)
		} else if rl.IsMouseButtonDown(rl.MouseButtonRight) {
			a.cam.Pan(d.X, d.Y)
		}
	}
	w := rl.GetMouseWheelMove()
	switch {
	case w == 0 || a.browser != nil:
	case a.showUI && rl.CheckCollisionPointRec(m, a.labPanel.Bounds()):
		a.labPanel.ScrollBy(w)
	case a.showUI && rl.CheckCollisionPointRec(m, a.playPanel.Bounds()):
		a.playPanel.ScrollBy(w)
	case a.showUI && len(a.messages) > 0 && rl.CheckCollisionPointRec(m, a.msgPanel.Bounds()):
		a.msgPanel.ScrollBy(w)
	case !overUI:
		a.cam.Zoom(w)
	}
}

// Keys lists every key action: the App's own, then the current lab's.
func (a *App) Keys() []Key { return append(a.keys[:len(a.keys):len(a.keys)], a.Lab().Keys()...) }

// Clock is the playback clock (pause, step, time scale, tick rate).
func (a *App) Clock() *Clock { return &a.clock }

// ShowUI shows or hides the panels and plots (the H key).
func (a *App) ShowUI(show bool) { a.showUI = show }

// ShowHelp shows or hides the help overlay (the F1 key).
func (a *App) ShowHelp(show bool) { a.showHelp = show }

// writeScreenshot saves the frame drawn so far as a PNG and says where.
func (a *App) writeScreenshot(path string) error {
	img, err := a.readPixels()
	if err == nil {
		err = SavePNG(path, img)
	}
	if err != nil {
		msg := fmt.Sprintf("could not save screenshot %s: %v", path, err)
		a.sayErr(msg)
		fmt.Fprintln(os.Stderr, "kinelab:", msg)
		return err
	}
	abs, _ := filepath.Abs(path)
	fmt.Println("kinelab:", a.say("screenshot saved to "+abs))
	return nil
}

// ReadPixels returns what has been drawn this frame (call it from Frame's
// onDrawn), or nil if raylib could not read the screen.
func (a *App) ReadPixels() *image.RGBA {
	img, _ := a.readPixels()
	return img
}

// readPixels copies the screen's pixels straight from raylib's image:
// raylib-go's LoadImageColors cannot return more than 16.7 million pixels
// (a 7680x4320 window has 33 million).
func (a *App) readPixels() (*image.RGBA, error) {
	rl.DrawRenderBatchActive()
	img := rl.LoadImageFromScreen()
	defer rl.UnloadImage(img)
	w, h := int(img.Width), int(img.Height)
	if img.Data == nil || w <= 0 || h <= 0 || img.Format != rl.UncompressedR8g8b8a8 {
		return nil, fmt.Errorf("raylib could not read the screen (%dx%d, format %d)", w, h, img.Format)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	copy(out.Pix, unsafe.Slice((*byte)(img.Data), 4*w*h))
	for i := 3; i < len(out.Pix); i += 4 {
		out.Pix[i] = 255
	}
	return out, nil
}

// bodyKey names a skeleton by its data, not by the Skeleton value's
// address: a lab that starts over on a new character keeps its Skeleton
// field where it was, with new joints in it.
type bodyKey struct {
	parents *int
	bind    *animsys.Pose
}

func keyOf(sk *animsys.Skeleton) bodyKey {
	k := bodyKey{bind: sk.Bind}
	if len(sk.Parents) > 0 {
		k.parents = &sk.Parents[0]
	}
	return k
}

// bodyFor returns the skinned body for sk, built and uploaded on first use;
// nil, with the reason in the Mocap section and on stderr, when it cannot
// be made.
func (a *App) bodyFor(sk *animsys.Skeleton) BodyDrawer {
	k := keyOf(sk)
	if b, ok := a.bodies[k]; ok {
		return b
	}
	if a.bodies == nil {
		a.bodies, a.bodyErrs = map[bodyKey]BodyDrawer{}, map[bodyKey]string{}
	}
	b, err := newBody(sk)
	if err != nil {
		a.bodyErrs[k] = err.Error()
		fmt.Fprintln(os.Stderr, "kinelab: no skinned body:", err)
		a.sayErr("no skinned body: " + err.Error())
	}
	a.bodies[k] = b
	return b
}

// run performs the key action called name (a --do script step).
func (a *App) run(name string) {
	for _, k := range a.Keys() {
		if k.Name == name {
			k.Action()
			return
		}
	}
}

// Load reads BVH files as the character of every lab that animates one
// (drag and drop does the same), with the Mocap section's options (the
// command line's at first). Errors go to stderr and the screen; the app
// keeps running. It reports whether every file loaded.
func (a *App) Load(files []string) bool {
	ch, errs := LoadCharacterWith(files, a.loadOpts)
	for _, err := range errs {
		fmt.Fprintln(os.Stderr, "kinelab:", err)
	}
	if ch != nil {
		a.character, a.files = ch, files
		for _, n := range ch.Notes {
			fmt.Fprintln(os.Stderr, "kinelab:", ch.Name+":", n)
		}
		for _, l := range a.labs {
			if c, ok := l.(CharacterSetter); ok {
				c.SetCharacter(ch)
			}
		}
		if rl.IsWindowReady() {
			rl.SetWindowTitle(a.title())
		}
		a.cam.Target = a.Lab().Focus()
	}
	for _, err := range errs {
		a.sayErr(err.Error())
	}
	if ch != nil {
		clips := "1 clip"
		if len(ch.Clips) != 1 {
			clips = fmt.Sprintf("%d clips", len(ch.Clips))
		}
		a.say(fmt.Sprintf("loaded %s: %d joints, %s", ch.Name, ch.Skel.Len(), clips))
		for _, n := range ch.Notes {
			a.say(ch.Name + ": " + n)
		}
	}
	return len(errs) == 0
}

// mocapSection is the playback panel's section for the loaded BVH files:
// what was detected and why, and the choices that read the files again
// (units, up axis, leading rest frames).
func (a *App) mocapSection(p *ui.Panel) {
	ch := a.character
	if ch == nil || !p.Section("Mocap", &a.mocapOpen) {
		return
	}
	p.Paragraph(ch.Name + ": " + strings.Join(a.baseNames(), ", "))
	o := a.loadOpts
	// A choice the buttons do not name (a factor from --units 0.05, -z
	// from --up) lights none of them.
	units := []string{"auto", "m", "cm", "mm", "in", "cmu"}
	u := int32(slices.Index(units, cmp.Or(strings.ToLower(o.Units), "auto")))
	p.Text("Units")
	if p.Choice([]string{"Auto", "m", "cm", "mm", "in", "CMU"}, 3, &u) {
		o.Units = units[u]
	}
	ups := []string{"auto", "y", "z"}
	up := int32(slices.Index(ups, cmp.Or(strings.ToLower(o.Up), "auto")))
	p.Text("Up axis")
	if p.Choice([]string{"Auto", "Y", "Z"}, 3, &up) {
		o.Up = ups[up]
	}
	p.Check("Keep rest frames", &o.KeepRest)
	for _, n := range ch.Notes {
		p.Paragraph(n)
	}
	if msg, ok := a.bodyErrs[keyOf(&ch.Skel)]; ok && msg != "" {
		p.Paragraph("No skinned body: " + msg)
	}
	if o != a.loadOpts {
		a.loadOpts = o
		a.Load(a.files)
	}
}

// baseNames are the loaded files' names without their folders.
func (a *App) baseNames() []string {
	out := make([]string, len(a.files))
	for i, f := range a.files {
		out[i] = filepath.Base(f)
	}
	return out
}
