// Package character builds the characters kinelab's labs animate, with no
// UI: the embedded default (Default) and one read from BVH files (Load). A
// character is a skeleton whose joint 0 is a ground-level root carrying
// the root motion ("Entity"), its clips, an additive clip, the figure the
// skeleton reads as (humanoid.Figure: its hips, head, legs, arms and the
// joints that are no part of the body), a bind pose to skin a body to, and
// the targets of the procedural stages — two-bone IK paths and a look-at
// path — fitted to the figure's reach and facing, so they are in reach on
// any capture. The app, `kinelab verify --bvh` and `kinelab export` read
// files through it (Open), so all three read a file alike.
package character

import (
	"math"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"

	"kinelab/animsys/words"
)

// Character is what the labs animate.
type Character struct {
	Name     string
	Skel     animsys.Skeleton
	Clips    []animsys.Clip
	Start    int // the clip labs open on: walk for the default, else the first file's
	Additive animsys.Clip
	// Figure reads the skeleton as a body; never nil. Figure.Human says
	// whether it reads as a human, Figure.Ground which joints are no
	// part of the body (joint 0 among them).
	Figure *humanoid.Figure
	// Roles of joints in the procedural stages: the hips (the camera's
	// focus), the head (-1 without one), the two-bone IK chains (Root -1
	// without one).
	Hips, Head int
	Leg, Arm   animsys.TwoBoneJoints
	// Legs are both legs' two-bone chains, left then right, with their
	// hinges (Root -1 for a leg the figure lacks or whose thigh, knee and
	// ankle are no parent chain): what a foot lock bends.
	Legs [2]animsys.TwoBoneJoints
	// Facing is the character's forward direction in its root's frame,
	// HeadFwd the head's forward axis in the head's own frame (unit).
	Facing, HeadFwd mgl32.Vec3
	// HipsHeight is how high (m) the hips stand above the root at the
	// start of clip Start.
	HipsHeight float32
	// Height is how tall (m) the character stands over clip Start: the
	// extent of its joints along y, or of its own mesh in the bind when
	// taller, in most frames (framingShare). The app frames the camera by
	// it.
	Height float32
	// Size is how large the character is (in Unit): the largest side of
	// the box around its body joints (and its own mesh), in most frames
	// of clip Start (framingShare). The views frame, zoom and draw by it
	// (a 71-unit animal is seen whole, a 0.5 m doll close).
	Size float32
	// Middle is the middle of that box from the hips (its median over
	// the frames), along the ground (y 0), in the root's frame: where a
	// camera looks to see the whole figure when its hips are not in its
	// middle (an animal's pelvis at its back end).
	Middle mgl32.Vec3
	// Unit names the length unit of positions: "m", or "units" for a
	// file whose figure is no body in metres (a glTF animal 71 units
	// long: glTF says metres, its author did not). Velocities are in
	// Unit per second.
	Unit string
	// LegPath and ArmPath are the paths the IK targets follow, LookPath
	// the look-at goal's: within reach of the chains and in front of the
	// figure.
	LegPath, ArmPath Path
	LookPath         LookPath
	// Mesh is the character's own skinned mesh (a glTF character's), in
	// its skeleton's bind; nil when the labs generate a body for the
	// figure (a BVH skeleton).
	Mesh *body.Mesh
	// Notes say what loading detected and chose (units, up axis, rest
	// frames dropped), for the panel and stderr.
	Notes []string
	// Files are the files the clips were read from, in the clips' order
	// (a glTF character's one file); none for a character built in code.
	Files []string
	// Skipped are the files Load left out, their skeleton not the
	// character's: one error each, in the order given, naming the file
	// and why ("file: skipped: its skeleton differs from ..."). Not
	// failures: the files that failed to read are in Load's error.
	Skipped []error
	// Repeated names each file Load met more than once (given twice, or
	// through a link, or in a folder given too), which loads once:
	// "walk.bvh given twice; loaded once". A notice, as Skipped.
	Repeated []string
	// Source, when the clips are another character's retargeted onto
	// this one (package retarget), is that character, its clips as they
	// were captured; nil otherwise.
	Source *Character
	// root is the file joint the Entity's root motion follows (the hips),
	// -1 when the file's own root is the Entity.
	root int
}

// Contents names what the character holds, by its clips and the files
// they came from: "50 clips from locomotion/" (the folder of every file),
// "1 clip from walk.bvh" (one file), "12 clips from 3 files" (files from
// several folders); "5 clips of default" for a character built in code.
func (c *Character) Contents() string {
	clips := words.Count(len(c.Clips), "clip")
	switch len(c.Files) {
	case 0:
		return clips + " of " + c.Name
	case 1:
		return clips + " from " + filepath.Base(c.Files[0])
	}
	dir := filepath.Dir(c.Files[0])
	for _, f := range c.Files[1:] {
		if filepath.Dir(f) != dir {
			return clips + " from " + words.Count(len(c.Files), "file")
		}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // "." and ".." by their names
	}
	name := filepath.Base(dir)
	if !strings.HasSuffix(name, "/") {
		name += "/"
	}
	return clips + " from " + name
}

// NotHuman says, for a character whose figure does not read as a human,
// "not read as a human figure: " and why (its shape's facts:
// humanoid.Figure.NotHuman); "" for a human. It is among the Notes; the
// labs name it on screen and turn off what needs a human (look-at, IK,
// matching on its clips).
func (c *Character) NotHuman() string {
	if c.Figure == nil || c.Figure.Human {
		return ""
	}
	return c.Figure.Reading()
}

// Path is an ellipse a target follows, Center + U cos(Rate t) + V sin(Rate
// t) (m) at Rate rad/s, in the frame of joint Joint, which carries it (-1:
// the character's root). A path carried by the joint above a chain keeps
// its distance from the chain's root however the figure turns or jumps.
type Path struct {
	Joint        int
	Center, U, V mgl32.Vec3
	Rate         float32
}

// At is the point (m) and velocity (m/s) on the path at time t (s), in
// the carrying joint's frame.
func (p Path) At(t float32) (pos, vel mgl32.Vec3) {
	w := float64(p.Rate)
	s, c := float32(math.Sin(w*float64(t))), float32(math.Cos(w*float64(t)))
	pos = p.Center.Add(p.U.Mul(c)).Add(p.V.Mul(s))
	vel = p.U.Mul(-p.Rate * s).Add(p.V.Mul(p.Rate * c))
	return pos, vel
}

// Target is the path's point at time t (s) in the world, with its
// velocity: carried by frame, the carrying joint's global kineform (or
// the root's) with its velocities (kform_mul).
func (p Path) Target(frame animsys.Kform, t float32) animsys.Kform {
	pos, vel := p.At(t)
	return animsys.KformMul(frame, animsys.KformFromPosVel(pos, vel))
}

// LookPath is a figure of eight the look-at goal wanders over, in the
// frame of joint Joint (-1: the root): Ahead, plus Side swinging Swing to
// each side at 0.7 rad/s, plus Up bobbing Bob at 1.3 rad/s (m). The goal
// is smoothed by a spring, so only its position is given.
type LookPath struct {
	Joint           int
	Ahead, Side, Up mgl32.Vec3
	Swing, Bob      float32
}

// At is the goal (m) at time t (s), in the carrying joint's frame.
func (p LookPath) At(t float32) mgl32.Vec3 {
	hs, _ := math.Sincos(float64(0.7 * t))
	vs, _ := math.Sincos(float64(1.3 * t))
	return p.Ahead.Add(p.Side.Mul(p.Swing * float32(hs))).Add(p.Up.Mul(p.Bob * float32(vs)))
}

// Assemble completes a character built in code (the embedded default,
// assets.Character): given its Name, Skel, Clips, Start, Additive and the
// joints its builder knows (Hips, Head, Leg, Arm) with its Facing and
// HeadFwd, it reads the figure, its hinges and standing height, and fits
// the look-at and IK paths, as Load does for a file. It returns c.
func Assemble(c *Character) *Character {
	c.root = -1
	fig := c.read()
	c.Figure = &fig
	c.hinges()
	c.standing()
	c.fitPaths()
	return c
}

// figureFrames is how many frames of clip Start read and extent measure.
const figureFrames = 48

// read reads the skeleton as a figure on up to figureFrames frames of clip
// Start.
func (c *Character) read() humanoid.Figure {
	frames, _ := humanoid.ClipFrames(&c.Skel, &c.Clips[c.Start], figureFrames)
	return c.readFrames(frames)
}

// readFrames reads the skeleton as a figure on frames (global positions).
func (c *Character) readFrames(frames [][]mgl32.Vec3) humanoid.Figure {
	fig, err := humanoid.Read(c.Skel.Parents, c.Skel.Names, frames)
	if err != nil { // the clips fit the skeleton: Load checks them
		panic("character " + c.Name + ": " + err.Error())
	}
	return fig
}

// standing sets Height, Size and Middle (extent), and HipsHeight from
// clip Start's first pose, sampled as the labs sample it: the root at the
// origin.
func (c *Character) standing() {
	c.extent()
	if c.Unit == "" {
		c.Unit = "m"
	}
	n := c.Skel.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	start, _ := c.Clips[c.Start].Loop()
	animsys.SampleCubic(&local, &c.Clips[c.Start], start)
	local.SetKform(0, labsRoot())
	animsys.FK(&global, &local, c.Skel.Parents)
	c.HipsHeight = global.Pos[c.Hips][1] - global.Pos[0][1]
	// At a 1.8 m human's size, k = 1: the thresholds are in proportion to
	// the figure (a 0.5 m doll's hips stand 0.28 m high).
	k := c.Size / 1.8
	if !(k > 0) {
		k = 1
	}
	if c.HipsHeight < 0.3*k || (!c.Figure.Human && c.HipsHeight < c.Height/3) {
		// Hips at the floor: a figure lying down, a root named oddly, or
		// no figure read whose "hips" are low in it (a robot rig, a blob
		// on legs): half its height, as a human's.
		c.HipsHeight = 0.9 * k
		if c.Height > 0.6*k {
			c.HipsHeight = c.Height / 2
		}
	}
}

// labsRoot is the root as the labs place a character's: at the origin,
// unturned.
func labsRoot() animsys.Kform {
	root := animsys.KformIdentity()
	root.Rot = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{})
	return root
}

// framingShare is the share of clip Start's frames whose extent Height
// and Size cover (their quantile over the frames): the figure's larger
// poses fit the view, and a few frames that fling a joint away (a glitch
// in a channel) decide nothing.
const framingShare = 0.75

// extent sets Height, Size and Middle: the quantile framingShare of the
// figure's height and size (its joints' extent along y; the largest side
// of the box around its body joints, not its Ground ones; each with its
// own mesh in the bind) over up to figureFrames frames of clip Start, and
// the median of the box's middle, each posed as the labs pose it.
func (c *Character) extent() {
	clip := &c.Clips[c.Start]
	n := c.Skel.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	var mesh [2]mgl32.Vec3 // the mesh's box, where it is bound
	hasMesh := c.Mesh != nil && c.Mesh.VertexCount() > 0
	if hasMesh {
		ps := c.Mesh.Positions
		for v := range c.Mesh.VertexCount() {
			mesh = grow(mesh, mgl32.Vec3{ps[3*v], ps[3*v+1], ps[3*v+2]}, v == 0)
		}
	}
	frames := max(1, min(clip.Frames, figureFrames))
	heights, sizes := make([]float32, frames), make([]float32, frames)
	midX, midZ := make([]float32, frames), make([]float32, frames)
	for i := range frames {
		if clip.Frames > 0 {
			clip.Frame(&local, i*(clip.Frames-1)/max(1, frames-1))
		}
		local.SetKform(0, labsRoot())
		animsys.FKStatic(&global, &local, c.Skel.Parents)
		box, first := mesh, !hasMesh
		lo, hi := global.Pos[0][1], global.Pos[0][1]
		for j, p := range global.Pos {
			lo, hi = min(lo, p[1]), max(hi, p[1])
			if c.Figure == nil || j >= len(c.Figure.Ground) || !c.Figure.Ground[j] {
				box, first = grow(box, p, first), false
			}
		}
		heights[i] = hi - lo
		if hasMesh {
			heights[i] = max(heights[i], mesh[1][1]-mesh[0][1])
		}
		ext := box[1].Sub(box[0])
		sizes[i] = max(ext[0], ext[1], ext[2], heights[i])
		mid := box[0].Add(box[1]).Mul(0.5).Sub(global.Pos[c.Hips])
		midX[i], midZ[i] = mid[0], mid[2]
	}
	c.Height, c.Size = mathx.Quantile(heights, framingShare), mathx.Quantile(sizes, framingShare)
	c.Middle = mgl32.Vec3{mathx.Median(midX), 0, mathx.Median(midZ)}
}

// grow is box grown to hold p, or the box of p alone when first.
func grow(box [2]mgl32.Vec3, p mgl32.Vec3, first bool) [2]mgl32.Vec3 {
	if first {
		return [2]mgl32.Vec3{p, p}
	}
	for a := range 3 {
		box[0][a], box[1][a] = min(box[0][a], p[a]), max(box[1][a], p[a])
	}
	return box
}
