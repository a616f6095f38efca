package bvh

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/humanoid"
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
	Height      float32
	Units       Units
	UnitsReason string
	// Skip is the number of leading frames that are a rest pose (all
	// rotations zero, or a pose far from the next frames', like the
	// T-pose row of the CMU conversions), 0 if none.
	Skip       int
	SkipReason string
	// Figure reads the skeleton as a human (indices into File.Joints)
	// when FigureErr is nil.
	Figure    humanoid.Figure
	FigureErr error
}

// measuredFrames is the most frames Detect runs forward kinematics on.
const measuredFrames = 48

// Detect reads the up axis, the standing height, the units and the rest
// frames of f. The figure is measured in posed frames spread over the
// clip, not in the OFFSETs' rest pose, which for many exporters is no
// standing figure at all.
func Detect(f *File) Detection {
	var d Detection
	d.Skip, d.SkipReason = restFrames(f)
	frames := f.sampleFrames(d.Skip, measuredFrames)
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
		d.UpReason = fmt.Sprintf("the figure's head is above its feet along %s (median over %d frames, %.0f° off the axis)", best, len(frames), off)
		d.Height = humanoid.Height(frames, best.Vec())
	} else {
		d.Up = UpY
		d.UpReason = "BVH's +Y: the skeleton does not read as a human figure (" + d.FigureErr.Error() + ")"
		hs := make([]float32, len(frames))
		for i, fr := range frames {
			hs[i] = extent(fr)
		}
		d.Height = medianOf(hs)
	}
	d.Units, d.UnitsReason = chooseUnits(d.Height, cmuNames(names), d.FigureErr == nil)
	return d
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

// sampleFrames returns the global joint positions (file units) of up to k
// frames spread evenly from frame first to the last, or of the rest pose
// when the file has no frames.
func (f *File) sampleFrames(first, k int) [][]mgl32.Vec3 {
	n := len(f.Joints)
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	parents := make([]int, n)
	for i := range f.Joints {
		local.Pos[i], parents[i] = f.Joints[i].Offset, f.Joints[i].Parent
	}
	if f.Frames == 0 {
		animsys.FKStatic(&global, &local, parents)
		return [][]mgl32.Vec3{append([]mgl32.Vec3(nil), global.Pos...)}
	}
	first = min(max(first, 0), f.Frames-1)
	span := f.Frames - first
	k = min(k, span)
	out := make([][]mgl32.Vec3, 0, k)
	for i := 0; i < k; i++ {
		fr := first
		if k > 1 {
			fr += i * (span - 1) / (k - 1)
		}
		f.pose(local.Pos, local.Rot, fr, 1)
		animsys.FKStatic(&global, &local, parents)
		out = append(out, append([]mgl32.Vec3(nil), global.Pos...))
	}
	return out
}

// Rest-frame thresholds: a first frame is a rest pose when some joint
// turns more than restJump degrees into frame 1 and more than restRatio
// times as far as any joint turns in one frame over the next restLook
// intervals.
const (
	restJump  = 15.0
	restRatio = 5.0
	restLook  = 10
)

// restFrames finds leading frames that are no part of the motion: frames
// with every rotation channel exactly zero (a rest or bind pose written as
// a frame; also the start of a pose ramping in from zero), then a frame
// that jumps far further into the next than the motion ever moves in a
// frame (the T-pose row of the CMU conversions). It returns how many, and
// why.
func restFrames(f *File) (int, string) {
	if f.Frames < 3 {
		return 0, ""
	}
	skip, why := 0, ""
	for skip < f.Frames-2 && f.zeroRotations(skip) {
		skip++
	}
	if skip > 0 {
		why = fmt.Sprintf("frame%s 0-%d: every rotation is zero (a rest pose, not motion)", plural(skip), skip-1)
	}
	if f.Frames-skip < restLook+2 {
		return skip, why
	}
	n := len(f.Joints)
	q := [2][]mgl32.Quat{make([]mgl32.Quat, n), make([]mgl32.Quat, n)}
	pos := make([]mgl32.Vec3, n)
	f.pose(pos, q[0], skip, 1)
	f.pose(pos, q[1], skip+1, 1)
	first, joint := maxTurn(q[0], q[1])
	var later float64
	for i := 1; i <= restLook; i++ {
		f.pose(pos, q[(i+1)%2], skip+i+1, 1)
		a, _ := maxTurn(q[i%2], q[(i+1)%2])
		later = math.Max(later, a)
	}
	if first > restJump && first > restRatio*later {
		if why != "" {
			why += "; "
		}
		why += fmt.Sprintf("frame %d: %s turns %.0f° into frame %d, while no joint turns more than %.1f° a frame over the next %d (a rest pose, not motion)",
			skip, f.Joints[joint].Name, first, skip+1, later, restLook)
		skip++
	}
	return skip, why
}

func plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}

// zeroRotations reports whether every rotation channel of frame fr is 0
// (and there is at least one).
func (f *File) zeroRotations(fr int) bool {
	row, any := f.Row(fr), false
	for i := range f.Joints {
		j := &f.Joints[i]
		for k, ch := range j.Channels {
			if ch.IsRotation() {
				any = true
				if row[j.First+k] != 0 {
					return false
				}
			}
		}
	}
	return any
}

// maxTurn is the largest angle (degrees) any joint turns from a to b, and
// that joint.
func maxTurn(a, b []mgl32.Quat) (float64, int) {
	best, at := 0.0, 0
	for j := range a {
		d := float64(a[j].Dot(b[j]))
		ang := 2 * math.Acos(math.Min(1, math.Abs(d))) * 180 / math.Pi
		if ang > best {
			best, at = ang, j
		}
	}
	return best, at
}

func medianOf(xs []float32) float32 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float32(nil), xs...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	return s[len(s)/2]
}

// Choice is what a user asks of a file's reading: units and up axis
// ("" or "auto" to detect; else what ParseUnits and ParseUp take), and
// whether to keep the leading rest frames Detect finds.
type Choice struct {
	Units, Up string
	KeepRest  bool
}

// ImportFor is how to read f: d's detection with c's choices applied, the
// units it reads in, and a note on each choice ("units cm (detected):
// ...", "up Z (chosen; detected Y)", "dropped the rest frame 0: ...").
// The app, `kinelab verify --bvh` and `kinelab export` all read a file
// through it. The error names the flag of a choice that does not parse.
func ImportFor(f *File, d Detection, c Choice) (Import, Units, []string, error) {
	units := d.Units
	imp := Import{Scale: units.Scale(), Up: d.Up, Skip: d.Skip}
	notes := []string{fmt.Sprintf("units %s (detected): %s", d.Units, d.UnitsReason)}
	if c.Units != "" && c.Units != "auto" {
		u, err := ParseUnits(c.Units)
		if err != nil {
			return imp, units, nil, fmt.Errorf("--units: %v", err)
		}
		units, imp.Scale = u, u.Scale()
		notes[0] = fmt.Sprintf("units %s (chosen; detected %s: %s)", u, d.Units, d.UnitsReason)
	}
	notes = append(notes, fmt.Sprintf("up %s (detected): %s", d.Up, d.UpReason))
	if c.Up != "" && c.Up != "auto" {
		u, err := ParseUp(c.Up)
		if err != nil {
			return imp, units, nil, fmt.Errorf("--up: %v", err)
		}
		imp.Up = u
		notes[1] = fmt.Sprintf("up %s (chosen; detected %s)", u, d.Up)
	}
	switch {
	case d.Skip > 0 && c.KeepRest:
		imp.Skip = 0
		notes = append(notes, "kept (as asked) the rest "+d.SkipReason)
	case d.Skip > 0:
		notes = append(notes, "dropped the rest "+d.SkipReason)
	}
	imp.Skip = min(imp.Skip, max(f.Frames-1, 0)) // as ClipWith: at least one frame stays
	return imp, units, notes, nil
}
