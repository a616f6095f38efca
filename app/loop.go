package app

import (
	"context"
	"fmt"
	"os"
	"time"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/assets"
	"kinelab/render"
	"kinelab/ui"
)

// outputs are what a run writes besides the window: the --csv file and
// screenshots.
type outputs struct {
	csv             *CSVFile
	screenshotAtEnd bool  // F12 was pressed: save this frame
	captureErr      error // the --screenshot write failed
}

// Run opens the window with labs (in tab order) and runs the render loop
// until the window closes, cfg.Frames frames have been drawn or ctx is
// done (an interrupt: the window closes as with Esc, the settings are
// saved, and a --csv file is not written). It returns the process exit
// code.
func Run(ctx context.Context, cfg Config, labs []LabEntry) int {
	if cfg.drawsNothing() {
		return runHeadless(ctx, cfg, labs)
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
	if (!a.startOnto(cfg) || len(cfg.Files) > 0 && !a.Load(cfg.Files)) && cfg.Headless() {
		// A scripted run that failed writes neither --csv nor the
		// screenshot: what was there stays (exit 1).
		return 1
	}
	if cfg.CSV != "" {
		out, err := CreateCSV(cfg.CSV, a.Lab())
		if err != nil {
			fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
			return 1
		}
		a.out.csv = out
	}
	for !rl.WindowShouldClose() {
		if ctx.Err() != nil {
			if a.out.csv != nil {
				a.out.csv.Abort()
			}
			return 1
		}
		last := cfg.Frames > 0 && a.frames == cfg.Frames-1
		var onDrawn func()
		if last && cfg.Screenshot != "" {
			onDrawn = func() { a.out.captureErr = a.writeScreenshot(cfg.Screenshot) }
		}
		a.Frame(onDrawn)
		if last {
			break
		}
	}
	if a.out.csv != nil {
		if err := a.out.csv.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
			return 1
		}
	}
	if cfg.Screenshot != "" && a.out.captureErr != nil {
		return 1
	}
	return 0
}

// Open creates the window and the GPU resources, and the default
// character's body. Every later call on the App must come from the same
// OS thread (raylib is single-threaded).
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
	a.makeBody(assets.Character())
	a.ResetCamera()
	return nil
}

// Close frees the labs' and the App's GPU resources and closes the window.
func (a *App) Close() {
	for _, l := range a.labs {
		if l != nil {
			l.Unload()
		}
	}
	a.bodies.unload()
	a.ground.Unload()
	ui.Unload()
	rl.CloseWindow()
}

// frameDt is the real time of the last frame (s); headless runs pretend
// every frame took 1/60 s so their output does not depend on machine speed.
// The playback clock, the camera and the UI's clock (ui.Tick) take it.
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
	_, timeline := a.Lab().Timeline()
	lay := layoutFor(w, h, timeline)
	v := View{Camera: a.cam.Raylib(), Width: int32(w), Height: int32(h),
		Plot: lay.Plot, Area: lay.Area, Timeline: lay.Timeline, scale: ui.Scale(), Scale: a.cam.scale(),
		BodyFor: a.bodies.get, Mouse: rl.Vector2{X: -1, Y: -1}, LabelJoints: a.settings.set.LabelJoints}
	if !a.cfg.Headless() {
		v.Mouse = rl.GetMousePosition()
	}
	return v
}

// Frame runs one frame. First what changes state: input (keys, tabs,
// dropped files, the pointer), the intents of the last frame's panels,
// the --do actions and the lab's updates for the clock's steps (with their
// CSV rows), and the lab's uploads. Then the drawing, which changes
// nothing: what its panels ask for waits for the next frame. onDrawn, if
// not nil, runs when the frame is drawn but not yet shown (to read its
// pixels with ReadPixels).
func (a *App) Frame(onDrawn func()) {
	lab := a.update()
	a.pending = append(a.pending, a.draw(lab, onDrawn)...)
	a.frames++
}

// Step runs a frame as Frame does but draws nothing: the input, the
// panels' last intents, the lab's updates and uploads and the camera,
// then raylib's input events, which a drawn frame polls as it ends. For
// tests that check where things are over many frames, not how they look:
// Mesa's rasterizer takes most of a drawn frame's time.
func (a *App) Step() {
	a.update()
	rl.PollInputEvents()
	a.frames++
}

// update is what a frame changes before it is drawn, and the lab.
func (a *App) update() Lab {
	ui.Tick(a.frameDt()) // the UI's time (double-clicks): this frame's
	if !scaleDrag() {
		a.applyScale()
	}
	a.input()
	for _, do := range a.pending {
		do()
	}
	a.pending = a.pending[:0]
	lab := a.tick()
	lab.Upload()
	a.cam.Track(lab.Focus(), a.frameDt())
	if f, ok := lab.(Framer); ok {
		v := a.View()
		r, half := f.Framed(v)
		a.cam.KeepIn(lab.Focus(), half, r, float32(v.Width), float32(v.Height))
	}
	return lab
}

// draw draws the frame of lab and returns what its panels asked for.
// The panels and the tab bar are laid out from what the last frame drew
// (each panel's height, the statistics' width), so the first frame, and
// any frame of a scripted run, that changes them is drawn again (up to
// twice) before it is shown: a --frames 1 screenshot shows the whole UI.
// The first pass took the frame's input; the others are locked (a click
// acts once) and ask for nothing. A user's later frames show a new layout
// one frame late instead, keeping their hover and press looks.
func (a *App) draw(lab Lab, onDrawn func()) (asked []func()) {
	c := &a.chrome
	rl.BeginDrawing()
	asked = a.drawScene(lab)
	for range 2 {
		if !(a.frames == 0 || a.cfg.Headless()) || c.browser != nil || !c.moved() {
			break
		}
		rl.DrawRenderBatchActive() // the first pass's last shapes, before the clear
		ui.Redraw()
		c.settling = true
		a.drawScene(lab)
		c.settling = false
	}
	if onDrawn != nil {
		onDrawn()
	}
	if a.out.screenshotAtEnd {
		a.out.screenshotAtEnd = false
		a.writeScreenshot(fmt.Sprintf("kinelab-%s.png", time.Now().Format("20060102-150405.000")))
	}
	rl.EndDrawing()
	return asked
}

// moved reports whether the frame just drawn laid out the UI from a
// layout it no longer has (see draw).
func (c *chrome) moved() bool {
	return c.statsW != c.laidStatsW || c.playPanel.Moved() || c.labPanel.Moved() ||
		(len(c.messages) > 0 && c.msgPanel.Moved())
}

// drawScene draws the whole frame of lab, from a cleared screen, and
// returns what its panels asked for.
func (a *App) drawScene(lab Lab) (asked []func()) {
	v := a.View()
	a.chrome.lastView = v
	a.chrome.laidStatsW = a.chrome.statsW
	rl.ClearBackground(render.Background)
	rl.BeginMode3D(v.Camera)
	render.SetWorldScale(v.Scale)
	a.ground.Draw(a.cam.Target, v.Scale)
	lab.Draw3D(&v)
	rl.EndMode3D()
	rl.BeginMode2D(rl.Camera2D{Zoom: ui.Scale()})
	c := &a.chrome
	modal := c.browser != nil
	locked := modal || c.settling
	c.playPanel.Modal, c.msgPanel.Modal, c.labPanel.Modal = locked, locked, locked
	if locked {
		gui.Lock()
	}
	if c.showUI {
		lab.Draw2D(&v)
		asked = a.drawUI(lab, &v)
	}
	if c.showHelp {
		a.drawHelp(lab, &v)
		ui.DropTip() // the name under the mouse is under the help
	}
	// Over everything drawn so far: the whole of a shortened name under
	// the mouse.
	ui.DrawTip()
	if locked {
		gui.Unlock()
	}
	if modal {
		asked = append(asked, a.drawBrowser(&v)...)
	}
	rl.EndMode2D()
	return asked
}

// tick runs what a frame does besides input and drawing: the --do actions
// of this frame, then the lab's updates for the clock's steps, each with
// its CSV rows (Update(0) when there is none). It returns the current lab.
func (a *App) tick() Lab {
	for _, act := range a.cfg.Do {
		if act.Frame == a.frames {
			a.run(act.Name)
		}
	}
	lab := a.Lab()
	lab.Input(a.labInput(lab))
	steps := a.clock.Advance(a.frameDt())
	if len(steps) == 0 {
		// No tick this frame (paused, or between ticks of a slow tick
		// rate): the lab still takes what its panel asked for.
		lab.Update(0)
	}
	for _, dt := range steps {
		lab.Update(dt)
		if a.out.csv != nil {
			a.out.csv.Write(lab)
		}
	}
	if n, ok := lab.(Notifier); ok {
		for _, m := range n.TakeMessages() {
			fmt.Fprintln(os.Stderr, "kinelab:", a.say(m))
		}
	}
	return lab
}

// scaleDrag keeps the scale from changing under the mouse while a button
// is held (the UI-scale slider would move away from the mouse dragging
// it); a new scale applies on release.
func scaleDrag() bool { return rl.IsMouseButtonDown(rl.MouseButtonLeft) }
