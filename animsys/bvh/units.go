package bvh

import (
	"fmt"
	"strings"
)

// Units is the length unit of a BVH file's offsets and positions.
type Units int

// The units DetectUnits tells apart. The zero value is Metres.
const (
	Metres Units = iota
	Centimetres
	Inches
)

// Scale is the size of one unit in metres: the scale to pass to
// File.Skeleton, File.Clip and Write.
func (u Units) Scale() float32 {
	switch u {
	case Centimetres:
		return 0.01
	case Inches:
		return 0.0254
	}
	return 1
}

// String is the unit's symbol: "m", "cm" or "in".
func (u Units) String() string {
	switch u {
	case Centimetres:
		return "cm"
	case Inches:
		return "in"
	}
	return "m"
}

// ParseUnits reads a unit as a user types it: "m", "cm" or "in", or the
// words metres/meters, centimetres/centimeters, inches (any case).
func ParseUnits(s string) (Units, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "m", "metre", "metres", "meter", "meters":
		return Metres, nil
	case "cm", "centimetre", "centimetres", "centimeter", "centimeters":
		return Centimetres, nil
	case "in", "inch", "inches":
		return Inches, nil
	}
	return Metres, fmt.Errorf("unknown units %q: want m, cm or in", s)
}

// Height thresholds of DetectUnits, in file units: the geometric means of
// a 1.7 m figure's size in neighbouring units (1.7 m, 67 in, 170 cm),
// rounded.
const (
	MetresBelow = 10  // a skeleton smaller than this is in metres
	InchesBelow = 105 // ... else smaller than this is in inches, else centimetres
)

// DetectUnits guesses a file's units from its skeleton's size
// (File.Height), taking it for a human-sized figure: below MetresBelow
// units tall it is in metres, below InchesBelow in inches, and otherwise in
// centimetres. A figure far from human size (a hand, a horse) can be
// misread; callers should let the user override the guess.
func DetectUnits(f *File) Units {
	h := f.Height()
	switch {
	case h < MetresBelow:
		return Metres
	case h < InchesBelow:
		return Inches
	}
	return Centimetres
}
