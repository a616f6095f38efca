package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/export"
	"kinelab/assets"
)

const exportSynopsis = "kinelab export FILE.bvh|FILE.gltf|FILE.glb|CLIP ... [--format csv|npz] [--out DIR|FILE|-] [--fps F]\n" +
	"       [--sample cubic|linear] [--fd] [--units U] [--up A] [--keep-rest] [--out-units m|file]"

// Export runs `kinelab export`: for each BVH file (read as the app reads
// it: units, up axis and rest frames detected unless --units, --up and
// --keep-rest say otherwise), each animation of a glTF file (sampled
// exactly from its curves, NAME-CLIP.csv or .npz) and each embedded clip
// named (idle, walk, run, lean-left, lean-right), every frame — or frames at --fps, sampled
// cubic or linear — and every joint, End Sites included: local and world
// position, rotation (quaternion w, x, y, z), scale, and the propagated
// linear, angular and scalar velocities, with --fd their finite
// differences beside them (package kinelab/animsys/export). Each input
// goes to DIR/NAME.csv or DIR/NAME.npz (--out DIR, default the current
// folder); with one input --out may name the file, or be "-" for CSV on
// stdout. It streams: memory holds a few frames whatever the length.
//
// Exit codes: 0 success, 1 a file that cannot be read, parsed or written,
// 2 bad usage. Flags may come before or after the inputs.
func Export(args []string, stdout, stderr io.Writer) (code int) {
	stdout, finish := checkedStdout("kinelab export", stdout, stderr, &code)
	defer finish()
	fs := newFlagSet("kinelab export", exportSynopsis,
		"Writes the exact propagated velocities of BVH files, glTF files' animations or embedded clips,\n"+
			"every joint and frame, as CSV (one row per frame and joint, units in the header) or NumPy\n"+
			".npz (float32 arrays [frames, joints, 3 or 4]). Embedded clips: "+strings.Join(bvhClipNames(assets.Clips()), ", ")+".", stderr)
	format := fs.String("format", "", "output format, csv or npz (default: from --out's extension, else csv)")
	out := fs.String("out", ".", "output folder; with one input, the output file (.csv or .npz), or - for CSV on stdout")
	fps := fs.Float64("fps", 0, "output frame rate (frames/s); 0 exports the input's own frames")
	sample := fs.String("sample", "cubic", "sampling between frames, cubic or linear (op_sample_linear)")
	fd := fs.Bool("fd", false, "add the finite difference of the exported poses beside each velocity (central)")
	units := fs.String("units", "auto", "units of BVH files: auto (from the figure's height), m, cm, mm, in, cmu, or metres per unit")
	up := fs.String("up", "auto", "up axis of BVH files: auto (the way the figure stands), y or z (x, -y, -z too)")
	keepRest := fs.Bool("keep-rest", false, "keep a BVH file's leading rest-pose frames (by default they are dropped, as the app does)")
	outUnits := fs.String("out-units", "m", "length unit of the output: m, or file (the BVH file's own unit; m for embedded clips)")
	inputs, code := parseAnywhere(fs, args)
	if code >= 0 {
		return code
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinelab export: "+format+"\n", a...)
		return ExitUsage
	}
	if len(inputs) == 0 {
		fs.Usage()
		return ExitUsage
	}
	toStdout := *out == "-"
	outExt := strings.ToLower(filepath.Ext(*out))
	single := len(inputs) == 1 && (toStdout || outExt == ".csv" || outExt == ".npz")
	switch {
	case *format == "" && single && outExt == ".npz":
		*format = "npz"
	case *format == "":
		*format = "csv"
	case *format != "csv" && *format != "npz":
		return usage("--format %q: want csv or npz", *format)
	}
	switch {
	case (toStdout || outExt == ".csv" || outExt == ".npz") && len(inputs) > 1:
		return usage("--out %q names one file, for %d inputs: give a folder", *out, len(inputs))
	case toStdout && *format != "csv":
		return usage("--out - writes CSV only")
	case single && !toStdout && outExt != "."+*format:
		return usage("--out %q does not end in .%s", *out, *format)
	case !(*fps >= 0) || *fps > 1e6:
		return usage("--fps %v: want 0 (the input's frames) or a rate up to 1e6", *fps)
	case *sample != "cubic" && *sample != "linear":
		return usage("--sample %q: want cubic or linear", *sample)
	case *outUnits != "m" && *outUnits != "file":
		return usage("--out-units %q: want m or file", *outUnits)
	}
	if *units != "auto" {
		if _, err := bvh.ParseUnits(*units); err != nil {
			return usage("--units: %v", err)
		}
	}
	if *up != "auto" {
		if _, err := bvh.ParseUp(*up); err != nil {
			return usage("--up: %v", err)
		}
	}
	// Resolve every input before writing anything.
	clips := assets.Clips()
	type job struct {
		name, path string // path: a BVH file, else clip index
		clip       int
		gltf       *character.Character // a glTF file's character, whose clip is clip
	}
	var jobs []job
	seen := map[string]string{}
	for _, in := range inputs {
		if character.IsGLTF(in) {
			// Every animation of a glTF file, each its own output.
			ch, err := character.LoadGLTF(in)
			if err != nil {
				fmt.Fprintf(stderr, "kinelab export: %v\n", err)
				return ExitFail
			}
			if single && !toStdout && len(ch.Clips) > 1 {
				return usage("%s has %d animations: give --out a folder", in, len(ch.Clips))
			}
			base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
			for i := range ch.Clips {
				j := job{name: base + "-" + bvhSlug(ch.Clips[i].Name), path: in, clip: i, gltf: ch}
				if prev, ok := seen[j.name]; ok && !single {
					return usage("%q and %q would both write %s.%s", prev, in, j.name, *format)
				}
				seen[j.name] = in
				jobs = append(jobs, j)
			}
			continue
		}
		j := job{path: in, clip: -1}
		if st, err := os.Stat(in); err == nil && !st.IsDir() || strings.EqualFold(filepath.Ext(in), ".bvh") {
			j.name = strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		} else if i := bvhFindClip(clips, in); i >= 0 {
			j.name, j.path, j.clip = bvhSlug(clips[i].Name), "", i
		} else {
			return usage("%q is no file, nor an embedded clip (%s)", in, strings.Join(bvhClipNames(clips), ", "))
		}
		if prev, ok := seen[j.name]; ok && !single {
			return usage("%q and %q would both write %s.%s", prev, in, j.name, *format)
		}
		seen[j.name] = in
		jobs = append(jobs, j)
	}
	if !single && !toStdout {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintf(stderr, "kinelab export: %v\n", err)
			return ExitFail
		}
	}
	opt := export.Options{FPS: *fps, Linear: *sample == "linear", FD: *fd}
	ropt := export.ReadOptions{Units: *units, Up: *up, KeepRest: *keepRest}
	sk := assets.Humanoid()
	info := stdout
	if toStdout {
		info = stderr
	}
	for _, j := range jobs {
		var src export.Source
		if j.gltf != nil {
			src = export.ClipSource{Clip: &j.gltf.Clips[j.clip], Skel: &j.gltf.Skel}
		} else if j.clip >= 0 {
			src = export.ClipSource{Clip: &clips[j.clip], Skel: &sk}
		} else {
			b, notes, err := export.ReadBVH(j.path, ropt)
			if err != nil {
				fmt.Fprintf(stderr, "kinelab export: %v\n", err)
				return ExitFail
			}
			for _, n := range notes {
				fmt.Fprintf(stderr, "kinelab export: %s: %s\n", j.path, n)
			}
			src = b
		}
		o := opt
		if *outUnits == "file" {
			o.Units = src.Units()
		}
		path := *out
		if !single {
			path = filepath.Join(*out, j.name+"."+*format)
		}
		h, err := exportOne(src, o, *format, path, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "kinelab export: %v\n", err)
			return ExitFail
		}
		size := ""
		if st, err := os.Stat(path); err == nil && !toStdout {
			size = fmt.Sprintf(" (%.1f MB)", float64(st.Size())/1e6)
		}
		fmt.Fprintf(info, "%s: %s, %d frames x %d joints at %.6g fps, %s, %s%s\n",
			path, h.Name, h.Frames, len(h.Joints), h.FPS, h.Sample, h.Units, size)
	}
	return ExitOK
}

// exportOne writes one export to path (or stdout for "-") and returns its
// header. A failed export leaves the output as it was (export.Output).
func exportOne(src export.Source, opt export.Options, format, path string, stdout io.Writer) (export.Header, error) {
	s, err := export.NewStream(src, opt)
	if err != nil {
		return export.Header{}, err
	}
	h := s.Header()
	if path == "-" {
		return h, s.Run(export.NewCSVWriter(stdout))
	}
	if format == "npz" {
		w := export.NewNPZWriter(path)
		defer w.Abort()
		if err := s.Run(w); err != nil {
			return h, fmt.Errorf("%s: %w", path, err)
		}
		return h, nil
	}
	f, err := export.Create(path)
	if err != nil {
		return h, err
	}
	defer f.Abort()
	if err := s.Run(export.NewCSVWriter(f)); err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// parseAnywhere parses flags placed anywhere among the arguments and
// returns the others. It returns ExitOK (help), ExitUsage, or -1 to go on.
func parseAnywhere(fs *flag.FlagSet, args []string) ([]string, int) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, ExitOK
			}
			return nil, ExitUsage
		}
		if fs.NArg() == 0 {
			return pos, -1
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
