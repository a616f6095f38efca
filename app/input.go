package app

import (
	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/ui"
)

// inputState is what the App keeps of the input between frames.
type inputState struct {
	dragging    bool       // a camera drag started outside the UI
	press       rl.Vector2 // where the left button went down (units)
	pressOverUI bool       // and whether that was over the UI
	pointer     Pointer    // what the lab is given this frame
	keysFree    bool       // keys act on the labs: no text typed, no file browser
	// scripted are the Held keys a --do script holds down (by name).
	scripted map[string]bool
	lab      Input // what the lab is given this frame (its held map reused)
}

// input is the frame's input stage, before any update or drawing: key
// actions, a click on a lab's tab, dropped files, the pointer the lab
// gets, and the mouse camera. Mouse drags that start over a panel belong
// to the UI, not the camera.
func (a *App) input() {
	a.keyActions()
	m := rl.GetMousePosition() // units: raylib's mouse scale is the UI scale
	a.tabClick(m)
	if rl.IsFileDropped() {
		files := rl.LoadDroppedFiles()
		rl.UnloadDroppedFiles()
		a.Load(files)
	}
	overUI := a.overUI(m)
	ctrl := rl.IsKeyDown(rl.KeyLeftControl) || rl.IsKeyDown(rl.KeyRightControl)
	a.pointer(m, overUI, ctrl)
	a.mouseCamera(m, overUI, ctrl)
}

// keyActions runs the pressed keys' actions, unless the user types a
// value or browses files: then keys are theirs (and Esc cancels instead
// of quitting).
func (a *App) keyActions() {
	in := &a.in
	in.keysFree = !ui.Typing() && a.chrome.browser == nil
	if !in.keysFree {
		rl.SetExitKey(rl.KeyNull)
		return
	}
	rl.SetExitKey(rl.KeyEscape)
	for _, k := range a.Keys() {
		if k.Action != nil && (rl.IsKeyPressed(k.Code) || k.Alt != 0 && rl.IsKeyPressed(k.Alt)) {
			k.Action()
		}
	}
}

// tabClick switches the lab on a click on its tab at m (units), here,
// before drawing, so the whole frame shows the new lab (raygui's toggles
// act on release, as this does).
func (a *App) tabClick(m rl.Vector2) {
	c := &a.chrome
	if !c.showUI || c.browser != nil || !rl.IsMouseButtonReleased(rl.MouseButtonLeft) {
		return
	}
	for i, r := range tabRects(ui.Width(), len(a.entries), c.statsW) {
		if rl.CheckCollisionPointRec(m, r) {
			a.switchLab(i)
		}
	}
}

// pointer makes the frame's Pointer from the mouse at m (units): its
// buttons, a click (the left button released near where it went down,
// not over the UI), and with Ctrl outside the UI the ray under it.
func (a *App) pointer(m rl.Vector2, overUI, ctrl bool) {
	in := &a.in
	if rl.IsMouseButtonPressed(rl.MouseButtonLeft) || rl.IsMouseButtonPressed(rl.MouseButtonRight) {
		in.dragging = !overUI
	}
	if rl.IsMouseButtonPressed(rl.MouseButtonLeft) {
		in.press, in.pressOverUI = m, overUI
	}
	in.pointer = Pointer{Mouse: m, Pressed: rl.IsMouseButtonPressed(rl.MouseButtonLeft),
		Held: rl.IsMouseButtonDown(rl.MouseButtonLeft), Ctrl: ctrl}
	if rl.IsMouseButtonReleased(rl.MouseButtonLeft) && !in.pressOverUI && !ctrl {
		d := rl.Vector2{X: m.X - in.press.X, Y: m.Y - in.press.Y}
		if d.X*d.X+d.Y*d.Y < 16 {
			in.pointer.Click, in.pointer.At = true, m
		}
	}
	if ctrl && !overUI {
		s := ui.Scale()
		ray := rl.GetScreenToWorldRay(rl.Vector2{X: m.X * s, Y: m.Y * s}, a.cam.Raylib())
		in.pointer.Origin = mgl32.Vec3{ray.Position.X, ray.Position.Y, ray.Position.Z}
		in.pointer.Dir = mgl32.Vec3{ray.Direction.X, ray.Direction.Y, ray.Direction.Z}
		in.pointer.Down = rl.IsMouseButtonDown(rl.MouseButtonLeft)
	}
}

// mouseCamera orbits or pans the camera with a drag that started outside
// the UI (not with Ctrl, which is the lab's), and turns the wheel into a
// panel's scroll or the camera's zoom.
func (a *App) mouseCamera(m rl.Vector2, overUI, ctrl bool) {
	c := &a.chrome
	if a.in.dragging && !ctrl {
		d := rl.GetMouseDelta()
		if rl.IsMouseButtonDown(rl.MouseButtonLeft) {
			a.cam.Orbit(d.X, d.Y)
		} else if rl.IsMouseButtonDown(rl.MouseButtonRight) {
			a.cam.Pan(d.X, d.Y)
		}
	}
	w := rl.GetMouseWheelMove()
	switch {
	case w == 0 || c.browser != nil:
	case c.showUI && rl.CheckCollisionPointRec(m, c.labPanel.Bounds()):
		c.labPanel.ScrollBy(w)
	case c.showUI && rl.CheckCollisionPointRec(m, c.playPanel.Bounds()):
		c.playPanel.ScrollBy(w)
	case c.showUI && len(c.messages) > 0 && rl.CheckCollisionPointRec(m, c.msgPanel.Bounds()):
		c.msgPanel.ScrollBy(w)
	case !overUI:
		a.cam.Zoom(w)
	}
}

// overUI reports whether point m (units) is over the UI: a panel, the tab
// bar, the messages, the timeline, the lab's own areas, or anywhere while
// the file browser is open.
func (a *App) overUI(m rl.Vector2) bool {
	c := &a.chrome
	if c.browser != nil {
		return true
	}
	if !c.showUI {
		return false
	}
	over := rl.CheckCollisionPointRec(m, c.playPanel.Bounds()) ||
		rl.CheckCollisionPointRec(m, c.labPanel.Bounds()) || m.Y < tabBarH ||
		len(c.messages) > 0 && rl.CheckCollisionPointRec(m, c.msgPanel.Bounds()) ||
		rl.CheckCollisionPointRec(m, c.lastView.Timeline)
	for _, r := range a.Lab().UIRects(int32(ui.Width()), int32(ui.Height())) {
		over = over || rl.CheckCollisionPointRec(m, r)
	}
	return over
}

// labInput is the lab's Input for this frame: the pointer, its Held keys
// (down on the keyboard while keys are free, or held by a --do script),
// the first gamepad and the camera's view direction on the ground. In a
// run without a window only the script holds keys.
func (a *App) labInput(lab Lab) *Input {
	in := &a.in.lab
	in.Pointer = a.in.pointer
	in.Pointer.view = &a.chrome.lastView
	fwd := a.cam.Target.Sub(a.cam.Eye())
	in.View = mgl32.Vec2{fwd[0], fwd[2]}
	window := rl.IsWindowReady()
	if in.held == nil {
		in.held = map[string]bool{}
	}
	clear(in.held)
	for _, k := range lab.Keys() {
		if !k.Held {
			continue
		}
		down := a.in.scripted[k.Name]
		if window && a.in.keysFree {
			down = down || rl.IsKeyDown(k.Code) || k.Alt != 0 && rl.IsKeyDown(k.Alt)
		}
		in.held[k.Name] = down
	}
	in.Gamepad = Gamepad{}
	if window && rl.IsGamepadAvailable(0) {
		in.Gamepad = Gamepad{Available: true,
			LeftX: rl.GetGamepadAxisMovement(0, rl.GamepadAxisLeftX), LeftY: rl.GetGamepadAxisMovement(0, rl.GamepadAxisLeftY),
			RightX: rl.GetGamepadAxisMovement(0, rl.GamepadAxisRightX), RightY: rl.GetGamepadAxisMovement(0, rl.GamepadAxisRightY),
			RightTrigger: rl.GetGamepadAxisMovement(0, rl.GamepadAxisRightTrigger),
			A:            rl.IsGamepadButtonDown(0, rl.GamepadButtonRightFaceDown)}
	}
	return in
}
