// Package bvh reads and writes Biovision Hierarchy (BVH) motion capture
// files and converts them to and from animsys skeletons and clips.
//
//	f, err := bvh.Parse(file, "walk.bvh")     // *bvh.ParseError: walk.bvh:12:7: expected ...
//	d := bvh.Detect(f)                        // units, up axis, rest frames, with reasons
//	imp := bvh.Import{Scale: d.Units.Scale(), Up: d.Up, Skip: d.Skip}
//	sk, clip := f.SkeletonWith(imp), f.ClipWith(imp, "")
//	err = bvh.Write(out, &sk, &clip, bvh.Centimetres.Scale())
//
// # What Parse accepts
//
// Beyond the textbook layout, the variations exporters are known to write
// (each has a fixture in testdata):
//
//   - Any channel order per joint, different orders in one file, position
//     channels on any joint (a subset of axes too), six channels on every
//     joint, joints with no channels (CHANNELS 0 or no CHANNELS line).
//   - End Site blocks (also spelled EndSite, any case), several per joint.
//   - Several ROOT blocks; HIERARCHY may be left out (the file starts at ROOT).
//   - Joint names run to the end of their line (or to a '{' on it), so they
//     may hold colons ("mixamorig:Hips"), dots and spaces; an empty name
//     becomes "Joint<index>". Keywords and channel names are matched in any
//     case; '{' and '}' may share a line with other words.
//   - LF, CRLF or CR-only line breaks, mixed in one file; tabs or spaces;
//     blank lines; leading and trailing whitespace; a UTF-8 byte order mark.
//   - Numbers with a sign, no leading digit (.5) and exponents (1.5E+01).
//   - "Frames:" and "Frame Time:" with tabs or extra spaces, the colon
//     glued or spaced ("Frames:\t120", "Frame Time : 0.0083333").
//   - Frames one per line, or wrapped across lines: when the first frame
//     spans several lines and ends at a line end, values are just counted.
//
// Errors are *ParseError, "file:line:col: expected X, found Y" with the
// 1-based line and byte column of the offending token, and never a panic.
// A frame with the wrong number of values (one frame per line), a file
// with fewer frames than "Frames:" or with values after the last frame
// names the frame. Numbers must be finite float32s: nan, inf and hex are
// errors.
//
// # Conversion
//
// Lengths are multiplied by a scale, the size of one file unit in metres
// (Units.Scale). Rotations follow BVH's convention: a joint's rotation is
// the product of its rotation channels in the listed order ("Zrotation
// Xrotation Yrotation" is Rz*Rx*Ry), in degrees. Position channels replace
// their component of the joint's OFFSET; the root keeps its position
// channels, so root motion stays on the root.
//
// # What Detect reads
//
// Files do not say their units or which way is up, and many exporters
// write a first frame that is no motion. Detect reads them from posed
// frames (up to 48, spread over the clip), with the skeleton read as a
// human figure (package humanoid):
//
//   - Up: the axis from the figure's ankles to its head, +Y, +Z (Blender,
//     3ds Max) or another.
//   - Height: the figure's median extent along it, in file units.
//   - Units: the one of m, cm, mm and in that puts that height in
//     MinHeight-MaxHeight metres, nearest NominalHeight of several; CMU's
//     unit (1/0.45 inch) first for CMU joint names; else a factor that
//     scales the figure to NominalHeight.
//   - Stature: from the top of its head to its soles standing straight
//     (spine and legs straightened), beside the height its joints reach
//     while it moves.
//   - Skip: leading frames with every rotation zero, then frames whose
//     poses lie far from every pose of the motion after them (CMU's
//     T-pose row, a ramp in from the rest pose), measured over all the
//     joints so that one noisy joint decides nothing.
//
// Each comes with its reason. Import (SkeletonWith, ClipWith) applies a
// choice: it scales, turns the roots from the up axis to +Y and drops the
// leading frames.
//
// # Writing
//
// Write exports a clip: roots with six channels, other joints with three
// (ZXY, what most tools write) or six when their position moves, lengths
// in the units the caller picks. Numbers are the shortest decimals that
// read back as the same float32s, so a clip written and read back differs
// only by float32 rounding (1.2e-7 m and 1.3e-7 rad on kinelab's clips;
// the tests allow 1e-6). Scales and loop markers have no place in BVH and
// are dropped.
//
// # End Sites
//
// An End Site becomes a joint of its own: a leaf with no channels, the
// identity rotation and its OFFSET, named "<parent>_End" ("<parent>_End2",
// ... for more than one). They are the tips of the hands, feet and head
// that a skinned body needs to shape the last bones. File.Joints,
// File.Skeleton and File.Clip all include them, in file order. Write turns
// such a joint back into an End Site.
package bvh
