package app

import (
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/ui"
)

// A Lab is one screen of kinelab: one idea with its own state, update,
// panel and drawing. The framework (App) owns everything labs share — the
// clock, camera, ground, panels, help overlay, screenshots and headless
// runs — so a lab holds only its own idea. This file is the whole
// contract: every hook the App calls, with Base giving the default of each
// hook a lab does not need.
//
// When a lab is made: Configure (the command line), SetCharacter (the
// loaded character, if any), then Settings are read from the settings file
// and CheckSettings puts them in range. Per frame the App runs, in order:
// the input stage (key actions, clicks on the tabs, dropped files, then
// Input with the pointer, held keys and gamepad), the actions the last
// frame's panels asked for (Panel.Ask), Update(dt) for each tick (with its
// CSVRows), Upload, then the drawing: Draw3D inside the camera, Draw2D in
// screen space, Panel for the widgets and the timeline. Update must not
// draw; Draw3D, Draw2D and Panel must not change the simulation: a panel
// edits settings that act from the next Update and asks (Panel.Ask) for
// what the next frame does before it.
type Lab interface {
	// Name is the short id used by --lab and the tabs (e.g. "velocities").
	Name() string
	// Title names the lab and what it is showing, for the window title.
	Title() string
	// Focus is the point (m) the camera follows.
	Focus() mgl32.Vec3
	// Camera is the lab's camera when it opens and when the camera is
	// reset (default: DefaultCamera).
	Camera() OrbitCamera
	// Keys lists the lab's own key actions (shown in the help overlay and
	// run by --do); a Held key acts while down, through Input.Held.
	Keys() []Key

	// Configure reads the command line when the lab is made (--seed for
	// its random choices, its LabFlags).
	Configure(c Config)
	// SetCharacter gives a lab that animates the character the one loaded
	// (assets.Character until files are loaded, from the command line, a
	// drop or the file browser); others ignore it.
	SetCharacter(ch *character.Character)
	// Settings returns a pointer to the lab's settings struct, written to
	// the settings file on exit and read at start (JSON-encodable values),
	// or nil if it has none. The framework resets its fields to the values
	// it had when the lab was made (a section's reset button, right-click
	// on a slider).
	Settings() any
	// CheckSettings puts read settings back in their ranges (a file edited
	// by hand, or by an older version): choices within their options,
	// sliders within their ends (the lab's ui.Ranges).
	CheckSettings()

	// Input takes the frame's input before the updates: the pointer (a
	// click, Ctrl+drag), held keys, the gamepad and the camera's view on
	// the ground.
	Input(in *Input)
	// Update advances the lab by dt seconds of simulated time: paused, or
	// between ticks of a slow tick rate, it is called with dt = 0 and
	// moves nothing. It must stay finite for any dt >= 0.
	Update(dt float32)
	// Upload makes GPU resources from the lab's state (meshes for a new
	// character), after the updates and before drawing, with the window
	// open, so Draw3D only draws; Unload frees them (and stops what the
	// lab started) when the window closes or a headless run ends.
	Upload()
	Unload()

	// Draw3D draws the lab's world inside BeginMode3D.
	Draw3D(v *View)
	// Draw2D draws screen-space overlays (labels, plots) after the 3D pass.
	Draw2D(v *View)
	// Panel lays out the lab's widgets.
	Panel(p *Panel)
	// UIRects are the lab's own screen areas that take the mouse (plots to
	// draw in, heat maps to click) on a w x h screen (units), so drags
	// there do not orbit the camera.
	UIRects(w, h int32) []rl.Rectangle
	// Timeline is what a lab playing a clip shows on the framework's
	// timeline (clip time and frame, a scrub bar, play mode, clip speed);
	// false for none. EditTimeline gives back the user's changes.
	Timeline() (Timeline, bool)
	EditTimeline(e TimelineEdit)

	// CSVHeader names every column --csv writes, with its unit (e.g.
	// "t_s"); nil for a lab with no signals to export. CSVRows appends
	// the rows the last update adds: one row for a lab that plots signals
	// over time, or, for a lab whose data is a table (the Transition-cost
	// lab's grid), the whole table on the first update and nothing after
	// (its LabEntry gives CSVFrames).
	CSVHeader() []string
	CSVRows(rows [][]string) [][]string
}

// Base gives every hook of Lab but Name, Title and Update its default: a
// lab embeds it and writes only the hooks its idea needs.
type Base struct{}

func (Base) Focus() mgl32.Vec3                  { return mgl32.Vec3{0, 1, 0} }
func (Base) Camera() OrbitCamera                { return DefaultCamera() }
func (Base) Keys() []Key                        { return nil }
func (Base) Configure(Config)                   {}
func (Base) SetCharacter(*character.Character)  {}
func (Base) Settings() any                      { return nil }
func (Base) CheckSettings()                     {}
func (Base) Input(*Input)                       {}
func (Base) Upload()                            {}
func (Base) Unload()                            {}
func (Base) Draw3D(*View)                       {}
func (Base) Draw2D(*View)                       {}
func (Base) Panel(*Panel)                       {}
func (Base) UIRects(w, h int32) []rl.Rectangle  { return nil }
func (Base) Timeline() (Timeline, bool)         { return Timeline{}, false }
func (Base) EditTimeline(TimelineEdit)          {}
func (Base) CSVHeader() []string                { return nil }
func (Base) CSVRows(rows [][]string) [][]string { return rows }

// Key is a key action: the raylib key code (and another that does the
// same, e.g. an arrow beside WASD), its label in the help overlay, the
// name --do scripts use, its help text, and what it does when pressed. A
// Held key has no Action: the lab asks Input.Held whether it is down, and
// --do NAME toggles it held from that frame on.
type Key struct {
	Code   int32
	Label  string
	Name   string
	Help   string
	Action func()
	Alt    int32 // 0: none
	Held   bool
}

// Input is the frame's input for a lab, read by the framework: the
// pointer, the lab's held keys (by the keyboard or a --do script), the
// gamepad and the camera's view direction on the ground.
type Input struct {
	Pointer
	// View is the camera's view direction on the ground (x, z; not
	// normalised), for directions relative to the view.
	View    mgl32.Vec2
	Gamepad Gamepad
	held    map[string]bool
}

// Held reports whether the lab's Held key called name is down.
func (in *Input) Held(name string) bool { return in.held[name] }

// Gamepad is the first gamepad's state (all zero when none is connected):
// sticks in [-1, 1] (y down), the right trigger in [-1, 1] (-1 released).
type Gamepad struct {
	Available      bool
	LeftX, LeftY   float32
	RightX, RightY float32
	RightTrigger   float32
	A              bool // the bottom face button
}

// Panel is a lab's panel for one frame: ui.Panel's widgets, and Ask for
// what a button asks of the lab, which the frame carries out before the
// next update (so nothing changes while the frame is drawn).
type Panel struct {
	*ui.Panel
	asked *[]func()
}

// Ask records what the user asked for; the App runs it before the next
// update.
func (p *Panel) Ask(do func()) { *p.asked = append(*p.asked, do) }

// View is what drawing code needs to know about the frame: the camera and
// the screen, and the screen areas the UI covers. Sizes and positions are
// in UI units (see ui.Scale), which Draw2D draws in.
type View struct {
	Camera        rl.Camera3D
	Width, Height int32
	// Area is the screen the framework leaves to the lab: right of the
	// panels, under the tabs, above the timeline. Readouts and plots go
	// in it.
	Area rl.Rectangle
	// Plot is the rectangle a lab may use for its main plot, in the
	// bottom right of Area.
	Plot rl.Rectangle
	// Timeline is the framework's timeline (empty for a lab without one).
	Timeline rl.Rectangle
	// Mouse is the cursor; off screen in headless runs so hover readouts
	// never show in scripted screenshots.
	Mouse rl.Vector2
	// LabelJoints: the user asked for every joint's name (DrawJointLabels).
	LabelJoints bool
	// Scale is the 3D view's size against a human's (the camera's, from
	// ViewScale: 1 for a human, 39 for a 71-unit animal): labs multiply
	// their joint radii, marker sizes and offsets (m at scale 1) by it.
	Scale float32
	scale float32 // pixels per unit
	// BodyFor returns the skinned body of a skeleton, made when the
	// character was set (the App never builds one while drawing); nil if
	// it has none.
	BodyFor func(sk *animsys.Skeleton) BodyDrawer
}

// Notifier is a Lab with notices of its own for the messages (a request
// it could not meet in full and what it did instead): after the lab's
// updates each frame the App shows, and says on stderr, each text
// TakeMessages returns, once.
type Notifier interface {
	TakeMessages() []string
}

// Framer is a Lab whose focus the following camera keeps clear of the
// panels and plots: Framed returns the part of view v's screen (units)
// the focus must stay in and the half size (m) of what stands there (a
// figure's half width and height), which stays in it too. After a jump (a
// teleport) the camera slides at once as far as that needs, then eases on
// (OrbitCamera.KeepIn): the figure was left behind the plot.
type Framer interface {
	Framed(v View) (r rl.Rectangle, half mgl32.Vec2)
}

// BodyDrawer draws a skinned body in a global pose (m, rotations, scales).
type BodyDrawer interface {
	Draw(pos []mgl32.Vec3, rot []mgl32.Quat, scl []mgl32.Vec3, tint color.RGBA)
}

// Project returns the screen position (units) of world point p (m).
func (v *View) Project(p mgl32.Vec3) rl.Vector2 {
	s := v.scale
	if !(s > 0) {
		s = 1
	}
	q := rl.GetWorldToScreenEx(rl.Vector3{X: p[0], Y: p[1], Z: p[2]}, v.Camera,
		int32(float32(v.Width)*s+0.5), int32(float32(v.Height)*s+0.5))
	return rl.Vector2{X: q.X / s, Y: q.Y / s}
}

// LabEntry is one lab as the App lists it: the short name --lab, --do
// and the tabs use (the lab's Name), how to make the lab, and the
// command-line flags of its own. The App makes each lab when it is first
// shown. The labs are listed outside the framework (package
// kinelab/app/labs) and passed to ParseFlags and Run.
type LabEntry struct {
	Name  string
	New   func() Lab
	Flags []LabFlag
	// CSVFrames is how many frames a --csv run without --frames runs:
	// 0 when the lab needs --frames (one row per tick), 1 for a lab
	// whose CSV is a table written on the first update.
	CSVFrames int
}

// LabFlag is a number a lab takes from the command line (--NAME V): the
// framework parses it with its own flags, checks it is 0 (the lab's
// default) or within [Min, Max], and gives it to the lab in Config.LabFlags
// (Lab.Configure). Labs may share a flag: its usage lines are joined.
//
// A flag with Choices takes one of their names instead of a number
// (--path zigzag): the lab is given its place in Choices plus one.
type LabFlag struct {
	Name, Usage string
	Min, Max    float64
	Choices     []string
}

// entryNames lists the labs' names in tab order.
func entryNames(labs []LabEntry) []string {
	out := make([]string, len(labs))
	for i, e := range labs {
		out[i] = e.Name
	}
	return out
}
