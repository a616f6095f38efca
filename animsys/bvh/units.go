package bvh

import (
	"fmt"
	"strconv"
	"strings"
)

// Units is the length unit of a BVH file's offsets and positions: its name
// and its size in metres.
type Units struct {
	Name    string  // "m", "cm", "mm", "in", "cmu", or a factor such as "0.05"
	PerUnit float32 // metres per file unit
}

// The units files are written in. CMU is the unit of the CMU motion
// capture database's conversions (cgspeed's BVH): its ASF files say
// "length 0.45" against inches, so one unit is 1/0.45 in, 0.0564 m.
var (
	Metres      = Units{"m", 1}
	Centimetres = Units{"cm", 0.01}
	Millimetres = Units{"mm", 0.001}
	Inches      = Units{"in", 0.0254}
	CMU         = Units{"cmu", 0.0254 / 0.45}
)

// Factor is a unit of f metres, named by the number.
func Factor(f float32) Units {
	return Units{strconv.FormatFloat(float64(f), 'g', 4, 32), f}
}

// Scale is the size of one unit in metres: the scale to pass to
// File.Skeleton, File.Clip and Write. The zero Units reads as metres.
func (u Units) Scale() float32 {
	if !(u.PerUnit > 0) {
		return 1
	}
	return u.PerUnit
}

// String is the unit's name: "m", "cm", "mm", "in", "cmu" or a factor.
func (u Units) String() string {
	if u.Name == "" {
		return "m"
	}
	return u.Name
}

// Long is the unit's name in words: "metres", "centimetres",
// "millimetres", "inches", "CMU units", or the factor in metres per unit.
func (u Units) Long() string {
	switch u {
	case Metres:
		return "metres"
	case Centimetres:
		return "centimetres"
	case Millimetres:
		return "millimetres"
	case Inches:
		return "inches"
	case CMU:
		return "CMU units"
	}
	return u.String() + " m per unit"
}

// ParseUnits reads a unit as a user types it: "m", "cm", "mm", "in" or
// "cmu" (or the words metres/meters, centimetres/centimeters,
// millimetres/millimeters, inches, any case), or a positive number of
// metres per file unit ("0.0254").
func ParseUnits(s string) (Units, error) {
	switch t := strings.ToLower(strings.TrimSpace(s)); t {
	case "m", "metre", "metres", "meter", "meters":
		return Metres, nil
	case "cm", "centimetre", "centimetres", "centimeter", "centimeters":
		return Centimetres, nil
	case "mm", "millimetre", "millimetres", "millimeter", "millimeters":
		return Millimetres, nil
	case "in", "inch", "inches":
		return Inches, nil
	case "cmu":
		return CMU, nil
	default:
		// A micrometre to a kilometre per unit: 1e-40 parses, as a
		// float32 too small to scale a figure to anything.
		if f, err := strconv.ParseFloat(t, 32); err == nil && f >= float64(float32(1e-6)) && f <= 1e3 {
			return Factor(float32(f)), nil
		}
	}
	return Metres, fmt.Errorf("unknown units %q: want m, cm, mm, in, cmu or metres per unit (a number from 1e-06 to 1000, e.g. 0.0254)", s)
}

// The heights DetectUnits accepts for a figure (m): a child of about five
// to a tall adult. A unit that puts the figure in this range is a
// candidate; of several, the one nearest NominalHeight wins. A figure no
// unit brings into range is scaled to NominalHeight.
const (
	MinHeight     = 0.9
	MaxHeight     = 2.3
	NominalHeight = 1.7
)

// DetectUnits guesses a file's units: Detect(f).Units.
func DetectUnits(f *File) Units { return Detect(f).Units }
