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
// runs — so a lab holds only its own idea.
//
// Per frame the App runs, in order: input (key actions, clicks on the
// tabs, dropped files, the pointer), the intents of the last frame's
// panels, Update(dt) for each tick, Upload (an Uploader's GPU resources),
// then the drawing: Draw3D inside the camera, Draw2D in screen space, and
// Panel for the widgets. Update must not draw; Draw3D and Draw2D must not
// change state; Panel is the input stage: its widgets edit settings that
// act from the next Update, and its buttons ask for what the next Update
// does (a pending teleport, a clip to play), never do it while drawing.
type Lab interface {
	// Name is the short id used by --lab and the tabs (e.g. "velocities").
	Name() string
	// Title names the lab and what it is showing, for the window title.
	Title() string
	// Update advances the lab by dt seconds. dt is 0 on a frame without a
	// tick (paused, or between ticks of a slow tick rate): the lab then
	// takes what its panel asked for and moves nothing. It must stay
	// finite for any dt >= 0.
	Update(dt float32)
	// Draw3D draws the lab's world inside BeginMode3D.
	Draw3D(v *View)
	// Draw2D draws screen-space overlays (labels, plots) after the 3D pass.
	Draw2D(v *View)
	// Panel lays out the lab's widgets.
	Panel(p *ui.Panel)
	// Keys lists the lab's own keyboard actions (shown in the help overlay).
	Keys() []Key
	// Focus is the point (m) the camera follows.
	Focus() mgl32.Vec3
}

// Key is a keyboard action: the raylib key code, its label in the help
// overlay, the name --do scripts use, its help text, and what it does.
type Key struct {
	Code   int32
	Label  string
	Name   string
	Help   string
	Action func()
}

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
	scale       float32 // pixels per unit
	// BodyFor returns the skinned body of a skeleton, made when the
	// character was set (the App never builds one while drawing); nil if
	// it has none.
	BodyFor func(sk *animsys.Skeleton) BodyDrawer
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
// (Configurer). Labs may share a flag: its usage lines are joined.
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

// Configurer is a lab that reads the command line when it is made (--seed
// for its random choices, and any lab-specific use of --dt or --jitter).
type Configurer interface {
	Configure(c Config)
}

// CharacterSetter is a lab that animates a character (character.Default
// until files are loaded): loading BVH files (on the command line, dropped
// on the window, or through the file browser) replaces it.
type CharacterSetter interface {
	SetCharacter(ch *character.Character)
}

// UIRecter is a lab with screen areas of its own that take the mouse
// (plots to draw in, heat maps to click), given the screen size (px), so
// drags there do not orbit the camera.
type UIRecter interface {
	UIRects(w, h int32) []rl.Rectangle
}

// Uploader is a lab with GPU resources to make from its state (meshes
// built for a new character): the App calls Upload after the frame's
// updates and before drawing, with the window open, so Draw3D only draws.
type Uploader interface {
	Upload()
}

// Unloader is a lab that frees the GPU resources it made when the window
// closes.
type Unloader interface {
	Unload()
}

// CameraChooser is a lab that chooses its camera when it opens and when the
// camera is reset.
type CameraChooser interface {
	Camera() OrbitCamera
}
