package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"kinelab/animsys/words"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/export"
	"kinelab/assets"
)

const bvhSynopsis = "kinelab bvh info FILE.bvh [--units U] [--up y|z]\n" +
	"       kinelab bvh export OUT.bvh [--clip NAME] [--units cm|m|in]"

// BVH runs `kinelab bvh info` and `kinelab bvh export`; args follow "bvh".
//
// `info FILE` prints the joints with their channels in file order, the
// frames, frame time, and what kinelab reads from the file (bvh.Detect),
// each with its reason: the up axis (or --up's), the units (or --units')
// and the standing height in metres, and the leading frames it drops. `export OUT.bvh` writes the embedded clips of the
// default character (kinelab/assets: idle, walk, run, lean left, lean
// right), one file each since a BVH file holds one clip: OUT-idle.bvh,
// OUT-walk.bvh, ... beside OUT; with --clip NAME only that clip, to OUT
// itself. They are written in centimetres unless --units says otherwise.
// The additive clips are not exported: they are offsets from the rest
// pose, which a BVH reader would show as a collapsed body.
//
// Exit codes: 0 success, 1 a file that cannot be read, parsed or written
// (the message gives file:line:col for a malformed file), 2 bad usage.
// Flags may come before or after the file name.
func BVH(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	stdout, finish := checkedStdout("kinelab bvh", stdout, stderr, &code)
	defer finish()
	if len(args) == 0 {
		fmt.Fprintf(stderr, "usage: %s\n", bvhSynopsis)
		return ExitUsage
	}
	switch args[0] {
	case "info":
		return bvhInfoAs("kinelab bvh info", args[1:], stdout, stderr)
	case "export":
		return bvhExport(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprintf(stdout, "usage: %s\n", bvhSynopsis)
		return ExitOK
	}
	fmt.Fprintf(stderr, "kinelab bvh: unknown command %q\nusage: %s\n", args[0], bvhSynopsis)
	return ExitUsage
}

// parseBVHArgs parses flags placed anywhere among the arguments and
// returns the others. It returns ExitOK (help), ExitUsage, or -1 to go on.
func parseBVHArgs(fs *flag.FlagSet, args []string, want int, stderr io.Writer) ([]string, int) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, ExitOK
			}
			return nil, ExitUsage // the flag package has printed the error and usage
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != want {
		fmt.Fprintf(stderr, "%s: want %s, got %s\n", fs.Name(), words.Count(want, "file name"), words.Count(len(pos), "argument"))
		fs.Usage()
		return nil, ExitUsage
	}
	return pos, -1
}

// unitsFlag parses --units; an empty value means "not given".
func unitsFlag(fs *flag.FlagSet, s string, stderr io.Writer) (bvh.Units, bool, int) {
	if s == "" {
		return bvh.Metres, false, -1
	}
	u, err := bvh.ParseUnits(s)
	if err != nil {
		fmt.Fprintf(stderr, "%s: --units: %v\n", fs.Name(), err)
		return u, false, ExitUsage
	}
	return u, true, -1
}

// bvhInfoAs runs `bvh info` as the command name (what its messages start
// with: `kinelab info` runs it for a BVH file too).
func bvhInfoAs(name string, args []string, stdout, stderr io.Writer) (code int) {
	stdout, finish := checkedStdout(name, stdout, stderr, &code)
	defer finish()
	fs := newFlagSet(name, name+" FILE.bvh [--units U] [--up y|z]",
		"Prints a BVH file's joints and channels, frames, frame time, and the up axis,\n"+
			"units, height and rest frames kinelab reads in it, each with its reason.", stderr)
	unitsArg := fs.String("units", "", "the file's units: m, cm, mm, in, cmu or metres per unit (default: detected)")
	upArg := fs.String("up", "", "the file's up axis: y or z (x, -y, -z too; default: detected)")
	pos, code := parseBVHArgs(fs, args, 1, stderr)
	if code >= 0 {
		return code
	}
	units, given, code := unitsFlag(fs, *unitsArg, stderr)
	if code >= 0 {
		return code
	}
	var up *bvh.Up
	if *upArg != "" {
		u, err := bvh.ParseUp(*upArg)
		if err != nil {
			fmt.Fprintf(stderr, "%s: --up: %v\n", fs.Name(), err)
			return ExitUsage
		}
		up = &u
	}
	f, err := bvh.ReadFile(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitFail
	}
	var chosen *bvh.Units
	if given {
		chosen = &units
	}
	d := writeBVHInfo(stdout, f, chosen, up)
	// A file the app refuses fails here too.
	if err := character.TooFewFrames(f, d.Skip); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitFail
	}
	return ExitOK
}

// writeBVHInfo prints the summary and the hierarchy of f, with the units
// and up axis given (nil: detected), and returns what was detected.
func writeBVHInfo(w io.Writer, f *bvh.File, units *bvh.Units, up *bvh.Up) bvh.Detection {
	d := bvh.Detect(f)
	u, unitsLine := d.Units, fmt.Sprintf("%s (detected: %s)", d.Units, d.UnitsReason)
	if units != nil {
		u, unitsLine = *units, fmt.Sprintf("%s (--units; detected %s: %s)", *units, d.Units, d.UnitsReason)
	}
	upLine := fmt.Sprintf("%s (detected: %s)", d.Up, d.UpReason)
	height := d.Height
	if up != nil && *up != d.Up {
		upLine = fmt.Sprintf("%s (--up; detected %s: %s)", *up, d.Up, d.UpReason)
		height = 0 // measured along the detected axis only
	}
	withChannels := 0
	for _, j := range f.Joints {
		if len(j.Channels) > 0 {
			withChannels++
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\t%s\n", f.Name)
	roots := words.Count(f.Roots(), "root")
	fmt.Fprintf(tw, "joints\t%d (%d with channels, %d End Sites, %s)\n", len(f.Joints), withChannels, f.EndSites(), roots)
	fmt.Fprintf(tw, "channels\t%d per frame\n", f.Channels)
	fmt.Fprintf(tw, "frames\t%d\n", f.Frames)
	fmt.Fprintf(tw, "frame time\t%g s (%.4g fps), duration %.4g s\n", f.FrameTime, 1/f.FrameTime, float32(max(f.Frames-1, 0))*f.FrameTime)
	fmt.Fprintf(tw, "up\t%s\n", upLine)
	fmt.Fprintf(tw, "units\t%s\n", unitsLine)
	if height > 0 {
		fmt.Fprintf(tw, "height\t%.4g m standing (%.4g %s)\n", height*u.Scale(), height, u)
	}
	if d.Stature > 0 && height > 0 {
		fmt.Fprintf(tw, "stature\t%.3g m: %s\n", d.Stature*u.Scale(), d.StatureReason)
	}
	if d.Skip > 0 {
		fmt.Fprintf(tw, "rest frames\t%d dropped (--keep-rest keeps them): %s\n", d.Skip, d.SkipReason)
	}
	fmt.Fprintf(tw, "figure\t%s\n", d.Figure.Reading()) // the app's reading, and its reason
	if n := f.NamesNote(); n != "" {
		fmt.Fprintf(tw, "names\t%s\n", n)
	}
	tw.Flush()

	fmt.Fprintln(w, "\njoints (channels in file order):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	depth := make([]int, len(f.Joints))
	for i, j := range f.Joints {
		if j.Parent >= 0 {
			depth[i] = depth[j.Parent] + 1
		}
		channels := fmt.Sprintf("%d\t%s", len(j.Channels), j.Order())
		if j.EndSite {
			channels = "-\tEnd Site"
		}
		fmt.Fprintf(tw, "  %s%s\t%s\n", strings.Repeat("  ", min(depth[i], 30)), j.Name, channels)
	}
	tw.Flush()
	return d
}

// bvhExport runs `bvh export`; interrupted (ctx done, checked before
// each clip), it writes nothing.
func bvhExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("kinelab bvh export", "kinelab bvh export OUT.bvh [--clip NAME] [--units cm|m|in]",
		"Writes the embedded clips as BVH: each to OUT-<clip>.bvh, or one (--clip) to OUT.bvh.", stderr)
	clips := assets.Clips()
	clipArg := fs.String("clip", "", "the clip to write to OUT.bvh: "+strings.Join(bvhClipNames(clips), ", ")+" (default: all)")
	unitsArg := fs.String("units", "cm", "units to write, cm, m or in")
	pos, code := parseBVHArgs(fs, args, 1, stderr)
	if code >= 0 {
		return code
	}
	units, _, code := unitsFlag(fs, *unitsArg, stderr)
	if code >= 0 {
		return code
	}
	out := pos[0]
	var paths []string
	if *clipArg != "" {
		i := bvhFindClip(clips, *clipArg)
		if i < 0 {
			fmt.Fprintf(stderr, "kinelab bvh export: no clip %q; the clips are %s\n", *clipArg, strings.Join(bvhClipNames(clips), ", "))
			return ExitUsage
		}
		clips, paths = clips[i:i+1], []string{out}
	} else {
		ext := filepath.Ext(out)
		base := strings.TrimSuffix(out, ext)
		if ext == "" {
			ext = ".bvh"
		}
		for _, c := range clips {
			paths = append(paths, base+"-"+bvhSlug(c.Name)+ext)
		}
	}
	for _, p := range paths { // all checked before any is written
		if err := export.CheckTarget(p); err != nil {
			fmt.Fprintf(stderr, "kinelab bvh export: %v\n", err)
			return ExitFail
		}
	}
	// Every file is written whole, then all put in place: a failure
	// midway replaces none.
	sk := assets.Humanoid()
	var outs []*export.Output
	defer func() {
		for _, f := range outs {
			f.Abort() // nothing after Commit
		}
	}()
	for i := range clips {
		if ctx.Err() != nil {
			return ExitFail // main says it stopped
		}
		f, err := export.Prepare(paths[i], func(w io.Writer) error { return bvh.Write(w, &sk, &clips[i], units.Scale()) })
		if err != nil {
			fmt.Fprintf(stderr, "kinelab bvh export: %v\n", err)
			return ExitFail
		}
		outs = append(outs, f)
	}
	for i, f := range outs {
		if err := f.Commit(); err != nil {
			fmt.Fprintf(stderr, "kinelab bvh export: %v\n", err)
			return ExitFail
		}
		fmt.Fprintf(stdout, "%s: %s, %d frames, %s\n", paths[i], clips[i].Name, clips[i].Frames, units)
	}
	return ExitOK
}

// bvhClipNames are the clips' names as --clip takes them.
func bvhClipNames(clips []animsys.Clip) []string {
	var names []string
	for _, c := range clips {
		names = append(names, bvhSlug(c.Name))
	}
	return names
}

// bvhFindClip returns the index of the clip called name ("lean left" or
// "lean-left", any case), or -1.
func bvhFindClip(clips []animsys.Clip, name string) int {
	for i, c := range clips {
		if bvhSlug(c.Name) == bvhSlug(name) {
			return i
		}
	}
	return -1
}

// bvhSlug is a clip name as a file name part: lower case, blanks as '-'.
func bvhSlug(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(name)), "-")
}
