package cli

import (
	"context"
	"fmt"
	"io"
	"kinelab/animsys/words"
	"os"
	"strings"
	"text/tabwriter"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/animsys/gltf"
)

// Info runs `kinelab info FILE`: what kinelab reads from a character
// file. A .bvh file is `kinelab bvh info`'s report; a .gltf or .glb file
// lists the skeleton (each joint with its parent and rest offset), the
// skin's bind check (how far the rest pose times the inverse bind
// matrices is from the identity), the mesh and its texture, and every
// animation with its duration and each channel's interpolation, then
// what the reader noted (folded nodes, ignored channels). Exit codes: 0,
// 1 for a file that cannot be read, 2 for bad usage.
func Info(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "usage: kinelab info FILE.bvh|FILE.gltf|FILE.glb [bvh info's flags]")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			return ExitOK
		}
		return ExitUsage
	}
	// By extension, else by content (an extensionless capture).
	switch {
	case character.IsBVH(args[0]):
		return bvhInfoAs("kinelab info", args, stdout, stderr)
	case character.IsGLTF(args[0]):
	default:
		if _, err := os.Stat(args[0]); err != nil {
			fmt.Fprintf(stderr, "kinelab info: %v; expected a BVH or glTF file\n", err)
			return ExitUsage
		}
		fmt.Fprintf(stderr, "kinelab info: %s: not a BVH file (.bvh, or starting HIERARCHY) nor a glTF file (.gltf, .glb, or glTF JSON or GLB data)\n", args[0])
		return ExitUsage
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "kinelab info: unexpected argument %q (a glTF file takes no flags)\n", args[1])
		return ExitUsage
	}
	stdout, finish := checkedStdout("kinelab info", stdout, stderr, &code)
	defer finish()
	a, err := gltf.Open(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "kinelab info: %v\n", err)
		return ExitFail
	}
	writeGLTFInfo(stdout, args[0], a)
	return ExitOK
}

// writeGLTFInfo writes what kinelab reads from the glTF file at path,
// read as a: the joints and how the app reads the figure, the skin, the
// mesh, the animations and the reader's notes.
func writeGLTFInfo(w io.Writer, path string, a *gltf.Asset) {
	sk := &a.Skel
	// Lengths in the unit the labs show them in: the file's own for a
	// figure that is no body in metres (character.Character.Unit).
	unit, unitNote, reading := "m", "", ""
	if ch, err := character.FromGLTF(a); err == nil {
		if ch.Unit != "m" {
			unit = ch.Unit
			unitNote = fmt.Sprintf("lengths in the file's own units, labelled %q: its figure is %.3g long, no body in metres", unit, ch.Size)
		}
		// The app's reading, on the clip it opens on.
		reading = ch.Figure.Reading() + " (on " + ch.Clips[ch.Start].Name + ")"
	}
	fmt.Fprintf(w, "%s: glTF, %d joints (an Entity root added), %d animations\n", path, sk.Len(), len(a.Anims))
	if unitNote != "" {
		fmt.Fprintln(w, "units:", unitNote)
	}
	if reading != "" {
		fmt.Fprintln(w, "figure:", reading)
	}
	writeJoints(w, sk, unit)
	if a.Joint != nil {
		fmt.Fprintf(w, "skin: %d joints; rest pose x inverse bind is the identity to %.2g\n", len(a.Joint), a.BindError())
	} else {
		fmt.Fprintln(w, "skin: none (every node read as a joint)")
	}
	if m := a.Mesh; m != nil {
		tex := "no texture"
		if m.Image != nil {
			tex = fmt.Sprintf("a %s texture of %d bytes", m.ImageMime, len(m.Image))
		}
		fmt.Fprintf(w, "mesh: %d vertices, %d triangles, %s\n", len(m.Pos), len(m.Indices)/3, tex)
	} else {
		fmt.Fprintln(w, "mesh: none")
	}
	for _, an := range a.Anims {
		fmt.Fprintln(w, animationLine(an))
	}
	for _, n := range a.Notes {
		fmt.Fprintln(w, "note:", n)
	}
}

// writeJoints writes sk's joints as a table: each with its name, its
// parent and its rest offset (in unit).
func writeJoints(w io.Writer, sk *animsys.Skeleton, unit string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "joint\tname\tparent\trest offset (%s)\n", unit)
	for j := 0; j < sk.Len(); j++ {
		parent := "-"
		if p := sk.Parents[j]; p >= 0 {
			parent = sk.Names[p]
		}
		o := sk.Offsets[j]
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.4f %.4f %.4f\n", j, sk.Names[j], parent, o[0], o[1], o[2])
	}
	tw.Flush()
}

// animationLine says an animation's name, duration and channels, counted
// by interpolation: `animation "walk": 1.000 s, 3 channels (3 LINEAR)`.
func animationLine(an *gltf.Anim) string {
	kinds := map[string]int{}
	for _, c := range an.Channels {
		kinds[c.Interp.String()]++
	}
	var parts []string
	for _, k := range []string{"STEP", "LINEAR", "CUBICSPLINE"} {
		if n := kinds[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	return fmt.Sprintf("animation %q: %.3f s, %s (%s)", an.Name, an.Duration, words.Count(len(an.Channels), "channel"), strings.Join(parts, ", "))
}
