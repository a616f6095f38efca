package bvh

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"

	"kinelab/animsys/words"
)

// Up is the axis of a file along which its figure stands. BVH says +Y, but
// many exporters write +Z (Blender, 3ds Max), and a few lie on their side.
type Up int

// The six axes; UpY is BVH's own.
const (
	UpY Up = iota
	UpZ
	UpX
	UpNegY
	UpNegZ
	UpNegX
)

var upNames = [...]string{"Y", "Z", "X", "-Y", "-Z", "-X"}

// String names the axis: "Y", "Z", "X", "-Y", "-Z" or "-X".
func (u Up) String() string {
	if u >= 0 && int(u) < len(upNames) {
		return upNames[u]
	}
	return fmt.Sprintf("Up(%d)", int(u))
}

// ParseUp reads an axis as a user types it: "y", "z", "x", "-y", "+z"...
func ParseUp(s string) (Up, error) {
	t := strings.ToUpper(strings.TrimPrefix(strings.TrimSpace(s), "+"))
	for i, n := range upNames {
		if t == n {
			return Up(i), nil
		}
	}
	return UpY, fmt.Errorf("unknown up axis %q: want y, z or x (with - for the negative axis)", s)
}

// Vec is the axis as a unit vector in file coordinates.
func (u Up) Vec() mgl32.Vec3 {
	v := mgl32.Vec3{}
	v[[...]int{1, 2, 0, 1, 2, 0}[u%6]] = [...]float32{1, 1, 1, -1, -1, -1}[u%6]
	return v
}

// ToY is the rotation taking the axis to +Y: a quarter turn about X for Z
// up (file +Y becomes -Z), about Z for X up, half a turn for -Y.
func (u Up) ToY() mgl32.Quat {
	x, z := mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}
	switch u {
	case UpZ:
		return mgl32.QuatRotate(-math.Pi/2, x)
	case UpNegZ:
		return mgl32.QuatRotate(math.Pi/2, x)
	case UpX:
		return mgl32.QuatRotate(math.Pi/2, z)
	case UpNegX:
		return mgl32.QuatRotate(-math.Pi/2, z)
	case UpNegY:
		return mgl32.QuatRotate(math.Pi, x)
	}
	return mgl32.QuatIdent()
}

// Detection is what Detect reads from a file: how to stand it up, how big
// it is, and which of its first frames are not motion. Each choice comes
// with the reason, in words a user can check ("bvh info" prints them).
type Detection struct {
	Up       Up
	UpReason string
	// Height is how tall the figure stands in file units along Up: the
	// median over frames of the extent of every joint (End Sites too).
	// The units are chosen by it.
	Height      float32
	Units       Units
	UnitsReason string
	// Stature is how tall the figure is from the top of its head to its
	// soles standing straight, in file units; 0 when it does not read as
	// a human figure. StatureReason says what was measured.
	Stature       float32
	StatureReason string
	// Skip is the number of leading frames that are no part of the
	// motion: a rest pose (every rotation zero), then poses far from all
	// the motion after them (a T-pose row like the CMU conversions', a
	// ramp in from the rest pose), 0 if none. SkipReason says which and
	// why, with the distances.
	Skip       int
	SkipReason string
	lead       lead // what SkipReason says, to say it again in other units
	// Figure is the skeleton's reading (indices into File.Joints): a
	// human when FigureErr is nil; else, standing on the file's +Y, a
	// figure laid out by its trunk whose NotHuman is FigureErr's text
	// (humanoid.Read), the one reason every command and the app give.
	Figure    humanoid.Figure
	FigureErr error
}

// measuredFrames is the most frames Detect runs forward kinematics on.
const measuredFrames = 48

// Detect reads the up axis, the standing height, the units and the rest
// frames of f. The figure is measured in posed frames spread over the
// clip, not in the OFFSETs' rest pose, which for many exporters is no
// standing figure at all.
//
// Its stature, from the top of its head to its soles, is measured
// standing straight (see stature); the leading frames that are no motion
// by how far each pose lies from the motion after it (see leadIn). The
// skeleton is read as a human figure once, here: a character made of the
// file keeps the reading (package character).
func Detect(f *File) Detection {
	d, _ := DetectContext(context.Background(), f)
	return d
}

// DetectContext is Detect stopping, with ctx's error, once ctx is done (an
// interrupted command): it checks ctx between the rows of its comparison
// of the leading frames with the motion, each a few milliseconds.
func DetectContext(ctx context.Context, f *File) (Detection, error) {
	var d Detection
	var err error
	if d.lead, err = f.leadIn(ctx); err != nil {
		return d, err
	}
	d.Skip = d.lead.skip
	frames, rots, at := f.sampleFrames(d.Skip, measuredFrames)
	parents, names := make([]int, len(f.Joints)), make([]string, len(f.Joints))
	for i, j := range f.Joints {
		parents[i], names[i] = j.Parent, j.Name
	}
	d.Figure, d.FigureErr = humanoid.Classify(parents, names, frames)
	if d.FigureErr == nil {
		up := d.Figure.Up(frames)
		best, dot := UpY, float32(-2)
		for u := UpY; u <= UpNegX; u++ {
			if c := up.Dot(u.Vec()); c > dot {
				best, dot = u, c
			}
		}
		d.Up = best
		off := math.Acos(math.Max(-1, math.Min(1, float64(dot)))) * 180 / math.Pi
		d.UpReason = fmt.Sprintf("the figure's head is above its feet along %s (median over %s, %.0f° off the axis)", best, words.Count(len(frames), "frame"), off)
		d.Height = humanoid.Height(frames, best.Vec())
		d.Stature, d.StatureReason = stature(f, &d.Figure, best, frames, rots, at)
	} else {
		d.Figure, _ = humanoid.Read(parents, names, frames) // along +Y, as Classify's error
		d.Up = UpY
		d.UpReason = "BVH's +Y: the skeleton does not read as a human figure (" + d.FigureErr.Error() + ")"
		hs := make([]float32, len(frames))
		for i, fr := range frames {
			hs[i] = extent(fr)
		}
		d.Height = mathx.Median(hs)
	}
	d.Units, d.UnitsReason = chooseUnits(d.Height, cmuNames(names), d.FigureErr == nil)
	d.SkipReason = d.lead.reason(f, d.Units.Scale())
	return d, nil
}

// Shares of a figure's stature no joint marks: the ankle joints' height
// above the soles (3.9% in Drillis and Contini's segment proportions), and
// the top of the head above a head joint with nothing above it (the head
// End Sites that mark the top of the head in the real captures of
// ../shared/mocap stand 6-10% of the stature, median 7%, above the head
// joint).
const (
	statureAnkle = 0.04
	statureSkull = 0.07
)

// stature measures the figure from the top of its head to its soles (file
// units, along up) standing straight: from the top of its head (the
// highest of the head joint and its End Sites) to its ankles in its bind
// pose (humanoid.Figure.BindPose: spine and legs straightened) made from
// the frame of frames (global positions and rotations; file frames at)
// where it stands straightest, plus the ankles' height above the soles
// (statureAnkle; no joint marks a sole, and toe End Sites sit at the tips
// of the toes, which the bind pose points down). A head with nothing above
// it (no End Site, or one of no length or pointing forward) gets
// statureSkull more. It says what it measured.
func stature(f *File, fig *humanoid.Figure, up Up, frames [][]mgl32.Vec3, rots [][]mgl32.Quat, at []int) (float32, string) {
	legs := fig.Legs
	if fig.Head < 0 || legs[humanoid.Left].End < 0 || legs[humanoid.Right].End < 0 {
		return 0, ""
	}
	toY := up.ToY()
	upright := make([][]mgl32.Vec3, len(frames))
	for i, fr := range frames {
		upright[i] = make([]mgl32.Vec3, len(fr))
		for j, p := range fr {
			upright[i][j] = toY.Rotate(p)
		}
	}
	i := fig.BindFrame(upright)
	turned := make([]mgl32.Quat, len(rots[i]))
	for j, q := range rots[i] {
		turned[j] = toY.Mul(q)
	}
	parents := make([]int, len(f.Joints))
	for j := range f.Joints {
		parents[j] = f.Joints[j].Parent
	}
	bind, _ := fig.BindPose(parents, upright[i], turned)
	head, top := fig.Head, fig.Head
	for j := head + 1; j < len(bind); j++ {
		k := j
		for k > head {
			k = parents[k]
		}
		if k == head && bind[j][1] > bind[top][1] {
			top = j
		}
	}
	ankles := min(bind[legs[0].End][1], bind[legs[1].End][1])
	headUp, topUp := bind[head][1]-ankles, bind[top][1]-ankles
	if !(headUp > 0) || math.IsInf(float64(topUp), 0) {
		return 0, ""
	}
	frame := fmt.Sprintf("frame %d", at[i])
	if at[i] < 0 {
		frame = "the rest pose"
	}
	straight := fmt.Sprintf("the soles standing straight (%s, spine and legs straightened, the ankles %.0f%% of it above the soles)", frame, 100*statureAnkle)
	if topUp-headUp < 0.03*headUp {
		return headUp / (1 - statureAnkle - statureSkull), fmt.Sprintf("the top of the head (%.0f%% of it above %s: nothing marks it) to %s",
			100*statureSkull, f.Joints[head].Name, straight)
	}
	return topUp / (1 - statureAnkle), f.Joints[top].Name + " to " + straight
}

// chooseUnits picks the unit that makes a figure height file units tall
// plausible (MinHeight-MaxHeight m), nearest NominalHeight of several;
// with CMU's joint names, CMU's unit first. Otherwise it scales the figure
// to NominalHeight.
func chooseUnits(height float32, cmu, human bool) (Units, string) {
	what := "the skeleton"
	if human {
		what = "the figure"
	}
	if !(height > 0) || math.IsInf(float64(height), 0) {
		return Metres, what + " has no size; metres"
	}
	fits := func(u Units) bool { h := height * u.PerUnit; return h >= MinHeight && h <= MaxHeight }
	if cmu && fits(CMU) {
		return CMU, fmt.Sprintf("CMU joint names (LHipJoint, RHipJoint) and %.4g units tall: %.2f m at the CMU conversions' %.4f m per unit", height, height*CMU.PerUnit, CMU.PerUnit)
	}
	best, score := Units{}, math.Inf(1)
	var tried []string
	for _, u := range []Units{Metres, Centimetres, Millimetres, Inches} {
		h := height * u.PerUnit
		tried = append(tried, fmt.Sprintf("%.3g m in %s", h, u.Long()))
		if !fits(u) {
			continue
		}
		if s := math.Abs(math.Log(float64(h / NominalHeight))); s < score {
			best, score = u, s
		}
	}
	if score < math.Inf(1) {
		return best, fmt.Sprintf("%s stands %.4g units tall: %.2f m in %s", what, height, height*best.PerUnit, best.Long())
	}
	u := Factor(NominalHeight / height)
	return u, fmt.Sprintf("%s stands %.4g units tall, which no unit makes %.1f-%.1f m (%s); scaled to %.2f m",
		what, height, float32(MinHeight), float32(MaxHeight), strings.Join(tried, ", "), float32(NominalHeight))
}

// cmuNames reports joint names of the CMU database's BVH conversions.
func cmuNames(names []string) bool {
	var l, r bool
	for _, n := range names {
		switch strings.ToLower(n) {
		case "lhipjoint":
			l = true
		case "rhipjoint":
			r = true
		}
	}
	return l && r
}

// sampleFrames returns the global joint positions (file units) and
// rotations of up to k frames spread evenly from frame first to the last,
// and which frames they are; or of the rest pose (frame -1) when the file
// has no frames.
func (f *File) sampleFrames(first, k int) ([][]mgl32.Vec3, [][]mgl32.Quat, []int) {
	n := len(f.Joints)
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	parents := make([]int, n)
	for i := range f.Joints {
		local.Pos[i], parents[i] = f.Joints[i].Offset, f.Joints[i].Parent
	}
	if f.Frames == 0 {
		animsys.FKStatic(&global, &local, parents)
		return [][]mgl32.Vec3{append([]mgl32.Vec3(nil), global.Pos...)}, [][]mgl32.Quat{append([]mgl32.Quat(nil), global.Rot...)}, []int{-1}
	}
	first = min(max(first, 0), f.Frames-1)
	span := f.Frames - first
	k = min(k, span)
	pos, rot, at := make([][]mgl32.Vec3, 0, k), make([][]mgl32.Quat, 0, k), make([]int, 0, k)
	for i := 0; i < k; i++ {
		fr := first
		if k > 1 {
			fr += i * (span - 1) / (k - 1)
		}
		f.pose(local.Pos, local.Rot, fr, 1)
		animsys.FKStatic(&global, &local, parents)
		pos, rot = append(pos, append([]mgl32.Vec3(nil), global.Pos...)), append(rot, append([]mgl32.Quat(nil), global.Rot...))
		at = append(at, fr)
	}
	return pos, rot, at
}

// ReadOptions say how a user asks for BVH files to be read: units and up
// axis ("" or "auto" to detect; else what ParseUnits and ParseUp take),
// and whether to keep the leading rest frames Detect finds (by default
// they are dropped). The app, its settings file (under "bvh", by these
// field names), package character and `kinelab verify` and `kinelab
// export` all take this one type.
type ReadOptions struct {
	Units, Up string
	KeepRest  bool
}

// ImportFor is how to read f: d's detection with c's options applied, the
// units it reads in, and a note on each choice ("units cm (detected):
// ...; stature 1.78 m, ...", "up Z (chosen; detected Y)", "dropped frame
// 0: ..." or "kept (as asked) frame 0: ..."), and which joint names were
// not UTF-8.
// The app, `kinelab verify --bvh` and `kinelab export` all read a file
// through it. The error names the flag of an option that does not parse.
func ImportFor(f *File, d Detection, c ReadOptions) (Import, Units, []string, error) {
	units := d.Units
	imp := Import{Scale: units.Scale(), Up: d.Up, Skip: d.Skip}
	notes := []string{fmt.Sprintf("units %s (detected): %s", d.Units, d.UnitsReason)}
	if c.Units != "" && c.Units != "auto" {
		u, err := ParseUnits(c.Units)
		if err != nil {
			return imp, units, nil, fmt.Errorf("--units: %w", err)
		}
		units, imp.Scale = u, u.Scale()
		notes[0] = fmt.Sprintf("units %s (chosen; detected %s: %s)", u, d.Units, d.UnitsReason)
	}
	if d.Stature > 0 {
		notes[0] += fmt.Sprintf("; stature %.2f m: %s", d.Stature*units.Scale(), d.StatureReason)
	}
	notes = append(notes, fmt.Sprintf("up %s (detected): %s", d.Up, d.UpReason))
	if c.Up != "" && c.Up != "auto" {
		u, err := ParseUp(c.Up)
		if err != nil {
			return imp, units, nil, fmt.Errorf("--up: %w", err)
		}
		imp.Up = u
		notes[1] = fmt.Sprintf("up %s (chosen; detected %s)", u, d.Up)
	}
	why := d.SkipReason
	if d.lead.skip == d.Skip && d.Skip > 0 { // lengths in the units read in
		why = d.lead.reason(f, units.Scale())
	}
	switch {
	case d.Skip > 0 && c.KeepRest:
		imp.Skip = 0
		notes = append(notes, "kept (as asked) "+why)
	case d.Skip > 0:
		notes = append(notes, "dropped "+why)
	}
	imp.Skip = min(imp.Skip, max(f.Frames-1, 0)) // as ClipWith: at least one frame stays
	if n := f.NamesNote(); n != "" {
		notes = append(notes, n)
	}
	return imp, units, notes, nil
}
