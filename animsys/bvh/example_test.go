package bvh_test

import (
	"bytes"
	"fmt"
	"strings"

	"kinelab/animsys/bvh"
	"kinelab/assets"
)

// Parse a file, guess its units and convert it to a skeleton and a clip
// in metres.
func ExampleParse() {
	const src = `HIERARCHY
ROOT mixamorig:Hips
{
	OFFSET 0 95 0
	CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
	JOINT mixamorig:Spine
	{
		OFFSET 0 10 0
		CHANNELS 3 Zrotation Xrotation Yrotation
		End Site
		{
			OFFSET 0 70 0
		}
	}
	JOINT mixamorig:LeftUpLeg
	{
		OFFSET 10 0 0
		CHANNELS 3 Zrotation Xrotation Yrotation
		End Site
		{
			OFFSET 0 -90 0
		}
	}
}
MOTION
Frames: 2
Frame Time: 0.0333333
0 95 0 0 0 0 0 0 0 0 0 0
5 96 0 0 0 0 0 0 90 0 -30 0
`
	f, err := bvh.Parse(strings.NewReader(src), "hips.bvh")
	if err != nil {
		fmt.Println(err)
		return
	}
	units := bvh.DetectUnits(f)
	sk, clip := f.Skeleton(units.Scale()), f.Clip(units.Scale(), "")
	fmt.Printf("%d joints, %d frames of %q, units %v\n", sk.Len(), clip.Frames, clip.Name, units)
	fmt.Println(sk.Names)
	fmt.Printf("root at %.2f m in frame 2\n", clip.PosAt(1, 0))
	// Output:
	// 5 joints, 2 frames of "hips", units cm
	// [mixamorig:Hips mixamorig:Spine mixamorig:Spine_End mixamorig:LeftUpLeg mixamorig:LeftUpLeg_End]
	// root at [0.05 0.96 0.00] m in frame 2
}

// Errors say where and what was expected.
func ExampleParseError() {
	_, err := bvh.Parse(strings.NewReader("HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 1\n}\n"), "hips.bvh")
	fmt.Println(err)
	// Output:
	// hips.bvh:5:1: expected 3 numbers after OFFSET (a number), found "}"
}

// Write the default character's walk in centimetres.
func ExampleWrite() {
	sk, walk := assets.Humanoid(), assets.Clips()[1]
	var out bytes.Buffer
	if err := bvh.Write(&out, &sk, &walk, bvh.Centimetres.Scale()); err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(out.String(), "\n")
	fmt.Println(strings.Join(lines[:9], "\n"))
	// Output:
	// HIERARCHY
	// ROOT Entity
	// {
	// 	OFFSET 0 0 0
	// 	CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
	// 	JOINT Hips
	// 	{
	// 		OFFSET 0 95 0
	// 		CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
}
