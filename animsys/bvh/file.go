package bvh

import (
	"fmt"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/words"
)

// File is a parsed BVH file: its joint hierarchy and its motion, in the
// file's own units (lengths) and degrees (angles).
type File struct {
	Name   string  // the name given to Parse, used in messages
	Joints []Joint // in file order: parents before children, End Sites included
	Frames int     // number of frames (the `Frames:` line)
	// FramesLine is the line of `Frames:` (1-based; 0 for a File not
	// parsed from text), for messages about the frames.
	FramesLine int
	FrameTime  float32 // seconds per frame (the `Frame Time:` line)
	// Rate is the frames a second the file's Frame Time says, from its
	// decimal as written (1/FrameTime, the float32, is off in the 7th
	// digit: 59.99999... for 0.016666666667); 0 for a File not parsed.
	Rate     float64
	Channels int       // values per frame, the sum of the joints' channels
	Motion   []float32 // Frames x Channels values, frame-major: frame f starts at f*Channels
	// NotUTF8 lists the joints whose names in the file are not UTF-8:
	// their Names have each such byte replaced by U+FFFD (words.UTF8), the
	// one spelling every output writes.
	NotUTF8 []int
}

// NamesNote says which joint names were not UTF-8 and how they are
// spelled ("2 joint names not in UTF-8, each bad byte read (and written in
// every output) as U+FFFD �: Left�Arm, Right��Arm"); "" when all were.
func (f *File) NamesNote() string {
	if len(f.NotUTF8) == 0 {
		return ""
	}
	var names []string
	for _, j := range f.NotUTF8[:min(len(f.NotUTF8), 4)] {
		names = append(names, f.Joints[j].Name)
	}
	if len(f.NotUTF8) > 4 {
		names = append(names, fmt.Sprintf("%d more", len(f.NotUTF8)-4))
	}
	return fmt.Sprintf("%s not in UTF-8, each bad byte read (and written in every output) as U+FFFD \uFFFD: %s",
		words.Count(len(f.NotUTF8), "joint name"), strings.Join(names, ", "))
}

// Limits of what a file may hold, checked as it is parsed: a frame time
// (s) from 10,000 frames a second to one every 10 s, and values (file
// units, degrees) within ±1e7 — beyond them a file is damage, not motion,
// and its poses would overflow float32 arithmetic.
const (
	MinFrameTime = 1e-4
	MaxFrameTime = 10.0
	MaxValue     = 1e7
)

// Joint is one ROOT, JOINT or End Site of a File.
type Joint struct {
	Name     string     // as written (an End Site is named "<parent>_End", see the package doc)
	Parent   int        // index in File.Joints, -1 for a ROOT
	Offset   mgl32.Vec3 // OFFSET from the parent, file units
	Channels []Channel  // in the order the file lists them
	First    int        // index of the joint's first channel in a frame's values
	EndSite  bool       // an End Site: a leaf with an offset and no channels
}

// Channel is one animated value of a joint: a translation along, or a
// rotation (degrees) about, one axis of its parent's frame.
type Channel uint8

// The six BVH channels.
const (
	Xposition Channel = iota
	Yposition
	Zposition
	Xrotation
	Yrotation
	Zrotation
)

var channelNames = [...]string{"Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"}

// String is the channel's name as BVH writes it.
func (c Channel) String() string {
	if int(c) < len(channelNames) {
		return channelNames[c]
	}
	return fmt.Sprintf("Channel(%d)", c)
}

// IsRotation reports whether c is a rotation (degrees) rather than a
// position (file units).
func (c Channel) IsRotation() bool { return c >= Xrotation }

// Axis is 0, 1 or 2 for x, y or z.
func (c Channel) Axis() int { return int(c) % 3 }

// channelByName returns the channel named b, case-insensitively.
func channelByName(b []byte) (Channel, bool) {
	for i, n := range channelNames {
		if strings.EqualFold(string(b), n) {
			return Channel(i), true
		}
	}
	return 0, false
}

// Order returns the joint's channels as BVH writes them, e.g.
// "Xposition Yposition Zposition Zrotation Xrotation Yrotation".
func (j *Joint) Order() string {
	names := make([]string, len(j.Channels))
	for i, c := range j.Channels {
		names[i] = c.String()
	}
	return strings.Join(names, " ")
}

// Row returns the values of frame f (Channels of them), aliasing Motion.
func (f *File) Row(frame int) []float32 {
	return f.Motion[frame*f.Channels : (frame+1)*f.Channels]
}

// Value returns channel k of joint j in frame f.
func (f *File) Value(frame, j, k int) float32 {
	return f.Motion[frame*f.Channels+f.Joints[j].First+k]
}

// Roots returns the number of ROOT joints.
func (f *File) Roots() int {
	n := 0
	for i := range f.Joints {
		if f.Joints[i].Parent < 0 {
			n++
		}
	}
	return n
}

// EndSites returns the number of End Sites.
func (f *File) EndSites() int {
	n := 0
	for i := range f.Joints {
		if f.Joints[i].EndSite {
			n++
		}
	}
	return n
}

// ParseError is a malformed BVH file: where (1-based line and byte column)
// and what was expected there.
type ParseError struct {
	File      string
	Line, Col int
	Msg       string
}

// Error formats the error as file:line:col: message.
func (e *ParseError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}
