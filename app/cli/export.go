package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/export"
	"kinelab/animsys/retarget"
	"kinelab/app/flagrange"
	"kinelab/assets"
)

const exportSynopsis = "kinelab export FILE.bvh|FILE.gltf|FILE.glb|CLIP ... [--onto CHARACTER.glb] [--format csv|npz] [--out DIR|FILE|-] [--fps F]\n" +
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
func Export(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cw, finish := checkedStdout("kinelab export", stdout, stderr, &code)
	stdout = cw
	defer finish()
	var fl exportFlags
	fs := fl.define(stderr)
	inputs, code := parseAnywhere(fs, args)
	if code >= 0 {
		return code
	}
	if len(inputs) == 0 {
		fs.Usage()
		return ExitUsage
	}
	// A file given twice (or through a link) is exported once.
	inputs, twice := character.Unique(inputs)
	for _, n := range twice {
		fmt.Fprintf(stderr, "kinelab export: %s\n", n)
	}
	if err := fl.check(inputs); err != nil {
		return exportFailed(stderr, err)
	}
	// Resolve every input before writing anything.
	clips := assets.Clips()
	jobs, err := fl.jobs(inputs, clips)
	if err != nil {
		return exportFailed(stderr, err)
	}
	for _, n := range fl.notes {
		fmt.Fprintf(stderr, "kinelab export: %s\n", n)
	}
	if err := fl.prepare(jobs); err != nil {
		return exportFailed(stderr, err)
	}
	info := stdout
	if fl.toStdout {
		info = stderr
		cw.stopOnGone(cancel) // the reader has gone: stop at once (finish says so)
	}
	// Each output is written whole to its temporary file, and all are put
	// in place only when every one is: an input that fails midway (a
	// file that does not parse, an interrupt) replaces no output.
	done, err := fl.writeAll(ctx, jobs, clips, stdout, stderr)
	defer func() {
		for _, w := range done {
			if w.out != nil {
				w.out.Abort() // nothing after Commit
			}
		}
	}()
	if err != nil {
		return exportFailed(stderr, err)
	}
	if err := fl.commitAll(ctx, done, info); err != nil {
		return exportFailed(stderr, err)
	}
	return ExitOK
}

// define makes export's flag set, bound to fl.
func (fl *exportFlags) define(stderr io.Writer) *flag.FlagSet {
	fs := newFlagSet("kinelab export", exportSynopsis,
		"Writes the exact propagated velocities of BVH files, glTF files' animations or embedded clips,\n"+
			"every joint and frame, as CSV (one row per frame and joint, units in the header) or NumPy\n"+
			".npz (float32 arrays [frames, joints, 3 or 4]). Embedded clips: "+strings.Join(bvhClipNames(assets.Clips()), ", ")+".", stderr)
	fs.StringVar(&fl.format, "format", "", "output format, csv or npz (default: from --out's extension, else csv)")
	fs.StringVar(&fl.out, "out", ".", "output folder; with one input, the output file (.csv or .npz), or - for CSV on stdout")
	fs.Float64Var(&fl.fps, "fps", 0, flagrange.ExportFPS.Usage("output frame rate"))
	fs.StringVar(&fl.sample, "sample", "cubic", "sampling between frames, cubic or linear (op_sample_linear)")
	fs.BoolVar(&fl.fd, "fd", false, "add the finite difference of the exported poses beside each velocity (central)")
	fs.StringVar(&fl.units, "units", "auto", "units of BVH files: auto (from the figure's height), m, cm, mm, in, cmu, or metres per unit")
	fs.StringVar(&fl.up, "up", "auto", "up axis of BVH files: auto (the way the figure stands), y or z (x, -y, -z too)")
	fs.BoolVar(&fl.keepRest, "keep-rest", false, "keep a BVH file's leading rest-pose frames (by default they are dropped, as the app does)")
	fs.StringVar(&fl.outUnits, "out-units", "m", "length unit of the output: m, or file (the BVH file's own unit; m for embedded clips)")
	fs.StringVar(&fl.onto, "onto", "", "export each input's clips retargeted onto the character in `CHARACTER.glb` (\"default\": the embedded one): its joints, its units, their exact velocities")
	return fs
}

// prepare readies the outputs of jobs before the first is written: every
// input is noted as an input (an output linked to a later input is
// refused, not written over it), every output is checked (one that is an
// input or read-only fails the run with nothing replaced), and the
// output folder is made.
func (fl *exportFlags) prepare(jobs []exportJob) error {
	for _, j := range jobs {
		if j.path != "" {
			export.NoteInput(j.path)
		}
	}
	if fl.ontoCh != nil && fl.ontoCh != assets.Character() {
		export.NoteInput(fl.onto)
	}
	if fl.toStdout {
		return nil
	}
	for _, j := range jobs {
		if err := export.CheckTarget(fl.outPath(j)); err != nil {
			return err
		}
	}
	if fl.single {
		return nil
	}
	if err := os.MkdirAll(fl.out, 0o755); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) { // the folder on the way that failed
			err = fmt.Errorf("--out %s: cannot make the folder %s: %w", fl.out, pe.Path, pe.Err)
		}
		return err
	}
	return nil
}

// writeAll writes every job's output to its temporary file (stdout for
// "-"), in order, and returns those written, up to the first that fails.
func (fl *exportFlags) writeAll(ctx context.Context, jobs []exportJob, clips []animsys.Clip, stdout, stderr io.Writer) ([]written, error) {
	opt := export.Options{FPS: fl.fps, Linear: fl.sample == "linear", FD: fl.fd}
	ropt := bvh.ReadOptions{Units: fl.units, Up: fl.up, KeepRest: fl.keepRest}
	sk := assets.Humanoid()
	var done []written
	for _, j := range jobs {
		src, err := j.source(ctx, clips, &sk, ropt, stderr)
		if err != nil {
			return done, err
		}
		w, err := fl.write(ctx, j, src, opt, stdout)
		if err != nil {
			return done, err
		}
		done = append(done, w)
	}
	return done, nil
}

// commitAll puts the written outputs in place, each said on info: flushed
// to the disk first (seconds for a gigabyte), an interrupt acting between
// outputs and during each flush; then put in place.
func (fl *exportFlags) commitAll(ctx context.Context, done []written, info io.Writer) error {
	for _, w := range done {
		if w.out != nil {
			if err := w.out.ReadyContext(ctx); err != nil {
				return fmt.Errorf("%s: %w", w.path, err)
			}
		}
	}
	for _, w := range done {
		if w.out != nil {
			if err := w.out.Commit(); err != nil {
				return fmt.Errorf("%s: %w", w.path, err)
			}
		}
		size := ""
		if st, err := os.Stat(w.path); err == nil && !fl.toStdout {
			size = fmt.Sprintf(" (%.1f MB)", float64(st.Size())/1e6)
		}
		h := w.h
		fmt.Fprintf(info, "%s: %s, %d frames x %d joints at %.6g fps, %s, %s%s\n",
			w.path, h.Name, h.Frames, len(h.Joints), h.FPS, h.Sample, h.Units, size)
	}
	return nil
}

// written is an export written to its temporary file (out, nil for
// stdout), to be committed to path.
type written struct {
	path string
	h    export.Header
	out  pending
}

// pending is an output written whole but not yet put in place.
type pending interface {
	ReadyContext(ctx context.Context) error // flushed to the disk, but for an interrupt
	Commit() error
	Abort()
}

// exportFlags are the flags of kinelab export, and what its --out says:
// stdout ("-"), or one file (single: one input and an --out that names a
// file), or else a folder.
type exportFlags struct {
	format, out, sample, units, up, outUnits string
	onto                                     string
	ontoCh                                   *character.Character // --onto's character, read by jobs
	fps                                      float64
	fd, keepRest                             bool
	toStdout, single                         bool
	notes                                    []string // what resolving the inputs found, for stderr
}

// exportUsageError is a bad command line (exit 2), not a file that
// failed (exit 1).
type exportUsageError struct{ error }

// Unwrap is the error saying what is wrong, and through it what that
// wraps (%w).
func (e exportUsageError) Unwrap() error { return e.error }

// exportUsage is an exportUsageError saying what is wrong, formatted as
// fmt.Errorf formats it.
func exportUsage(format string, a ...any) error {
	return exportUsageError{fmt.Errorf(format, a...)}
}

// exportFailed says on stderr what went wrong and returns the exit code:
// ExitUsage for a bad command line, else ExitFail.
func exportFailed(stderr io.Writer, err error) int {
	// Interrupted, main says so; stopped by stdout's reader going,
	// checkedStdout's finish says what was lost.
	if errors.Is(err, context.Canceled) || errors.Is(err, syscall.EPIPE) {
		return ExitFail
	}
	fmt.Fprintf(stderr, "kinelab export: %v\n", err)
	if errors.As(err, new(exportUsageError)) {
		return ExitUsage
	}
	return ExitFail
}

// check settles the output and rejects flags with bad values, in the
// order they are checked: where the output goes, then each value.
func (fl *exportFlags) check(inputs []string) error {
	if err := fl.settleOutput(inputs); err != nil {
		return err
	}
	return fl.checkValues()
}

// settleOutput settles where the output goes and its format (from
// --out's extension when --format is not given), and rejects an --out
// that disagrees with the inputs or the format.
func (fl *exportFlags) settleOutput(inputs []string) error {
	outExt, oneFile, device, err := fl.outTarget()
	if err != nil {
		return err
	}
	fl.single = len(inputs) == 1 && oneFile
	switch {
	case fl.format == "" && fl.single && outExt == ".npz":
		fl.format = "npz"
	case fl.format == "":
		fl.format = "csv"
	case fl.format != "csv" && fl.format != "npz":
		return exportUsage("--format %q: want csv or npz", fl.format)
	}
	switch {
	case oneFile && len(inputs) > 1:
		return exportUsage("--out %q names one file, for %d inputs: give a folder", fl.out, len(inputs))
	case fl.toStdout && fl.format != "csv":
		return exportUsage("--out - writes CSV only")
	case fl.single && !fl.toStdout && !device && outExt != "."+fl.format:
		return exportUsage("--out %q does not end in .%s", fl.out, fl.format)
	}
	return nil
}

// outTarget reads what --out names: stdout ("-", toStdout), one file
// (oneFile: a name ending .csv or .npz, or an existing device or FIFO, a
// device), else a folder; outExt is its extension, in lower case. An
// existing file of another name is refused.
func (fl *exportFlags) outTarget() (outExt string, oneFile, device bool, err error) {
	fl.toStdout = fl.out == "-"
	outExt = strings.ToLower(filepath.Ext(fl.out))
	oneFile = fl.toStdout || outExt == ".csv" || outExt == ".npz" // --out names one file
	// An existing --out that is no folder: a device or FIFO (/dev/full, a
	// pipe) takes one output as it is; a file must be named .csv or .npz.
	if st, err := os.Stat(fl.out); err == nil && !st.IsDir() && !oneFile {
		if st.Mode().IsRegular() {
			return outExt, false, false, exportUsage("--out %q is a file, not a folder: name a .csv or .npz file, a folder, or - for stdout", fl.out)
		}
		oneFile, device = true, true
	}
	return outExt, oneFile, device, nil
}

// checkValues rejects --fps, --sample, --out-units, --units and --up
// values out of their range or unknown.
func (fl *exportFlags) checkValues() error {
	if err := flagrange.ExportFPS.Check(fl.fps); err != nil {
		return exportUsageError{err}
	}
	switch {
	case fl.sample != "cubic" && fl.sample != "linear":
		return exportUsage("--sample %q: want cubic or linear", fl.sample)
	case fl.outUnits != "m" && fl.outUnits != "file":
		return exportUsage("--out-units %q: want m or file", fl.outUnits)
	}
	if fl.units != "auto" {
		if _, err := bvh.ParseUnits(fl.units); err != nil {
			return exportUsage("--units: %w", err)
		}
	}
	if fl.up != "auto" {
		if _, err := bvh.ParseUp(fl.up); err != nil {
			return exportUsage("--up: %w", err)
		}
	}
	return nil
}

// exportJob is one output of kinelab export: a BVH file, an embedded
// clip or one animation of a glTF file.
type exportJob struct {
	name, path string // path: a BVH file, else clip index
	clip       int
	gltf       *character.Character // a glTF file's character, whose clip is clip
}

// jobs resolves the inputs into the outputs to write, in order: every
// animation of a glTF file, a BVH file, or an embedded clip of clips.
// Two outputs of one name in a folder are an error.
func (fl *exportFlags) jobs(inputs []string, clips []animsys.Clip) ([]exportJob, error) {
	var jobs []exportJob
	if fl.onto != "" {
		ch, err := assets.OpenCharacter(fl.onto)
		if err != nil {
			return nil, fmt.Errorf("--onto: %w", err)
		}
		if why := ch.NotHuman(); why != "" {
			return nil, fmt.Errorf("--onto %s: %s: no human figure to play captures on", fl.onto, why)
		}
		fl.ontoCh = ch
	}
	seen := map[string]string{}
	for _, in := range inputs {
		js, err := fl.inputJobs(in, clips)
		if err != nil {
			return nil, err
		}
		for _, j := range js {
			if prev, ok := seen[j.name]; ok && !fl.single {
				return nil, exportUsage("%q and %q would both write %s.%s", prev, in, j.name, fl.format)
			}
			seen[j.name] = in
			jobs = append(jobs, j)
		}
	}
	return jobs, nil
}

// inputJobs are the outputs of one input: each animation of a glTF file,
// else the BVH file, else the embedded clip it names.
func (fl *exportFlags) inputJobs(in string, clips []animsys.Clip) ([]exportJob, error) {
	if fl.ontoCh != nil {
		return fl.ontoJobs(in, clips)
	}
	if character.IsGLTF(in) {
		// Every animation of a glTF file, each its own output.
		ch, err := character.LoadGLTF(in)
		if err != nil {
			return nil, err
		}
		if fl.single && !fl.toStdout && len(ch.Clips) > 1 {
			return nil, exportUsage("%s has %d animations: give --out a folder", in, len(ch.Clips))
		}
		if ch.Unit == export.FileUnits.Name {
			fl.notes = append(fl.notes, fmt.Sprintf("%s: lengths in the file's own units, labelled %q: its figure is %.3g long, no body in metres", in, ch.Unit, ch.Size))
		}
		base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		var js []exportJob
		for i := range ch.Clips {
			js = append(js, exportJob{name: base + "-" + bvhSlug(ch.Clips[i].Name), path: in, clip: i, gltf: ch})
		}
		return js, nil
	}
	j := exportJob{path: in, clip: -1}
	if st, err := os.Stat(in); err == nil && !st.IsDir() || strings.EqualFold(filepath.Ext(in), ".bvh") {
		j.name = strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
	} else if i := bvhFindClip(clips, in); i >= 0 {
		j.name, j.path, j.clip = bvhSlug(clips[i].Name), "", i
	} else {
		return nil, exportUsage("%q is no file, nor an embedded clip (%s)", in, strings.Join(bvhClipNames(clips), ", "))
	}
	return []exportJob{j}, nil
}

// ontoJobs are the outputs of one input with --onto: each of its clips
// (a BVH file's, a glTF file's animations, the embedded clip it names)
// retargeted onto the character (package retarget), NAME-on-CHARACTER,
// with the clip's name after NAME where the input has several.
func (fl *exportFlags) ontoJobs(in string, clips []animsys.Clip) ([]exportJob, error) {
	var src *character.Character
	switch st, err := os.Stat(in); {
	case character.IsGLTF(in) || err == nil && !st.IsDir() || strings.EqualFold(filepath.Ext(in), ".bvh"):
		ch, err := character.Load([]string{in}, bvh.ReadOptions{Units: fl.units, Up: fl.up, KeepRest: fl.keepRest})
		if err != nil {
			return nil, errors.Join(character.FileErrors(err)...)
		}
		src = ch
	default:
		i := bvhFindClip(clips, in)
		if i < 0 {
			return nil, exportUsage("%q is no file, nor an embedded clip (%s)", in, strings.Join(bvhClipNames(clips), ", "))
		}
		def := *assets.Character()
		def.Clips, def.Start = def.Clips[i:i+1], 0
		src = &def
	}
	ch, m, err := retarget.Onto(fl.ontoCh, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	if fl.single && !fl.toStdout && len(ch.Clips) > 1 {
		return nil, exportUsage("%s has %d clips: give --out a folder", in, len(ch.Clips))
	}
	fl.notes = append(fl.notes, in+": "+m.Summary())
	base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
	target := strings.TrimSuffix(filepath.Base(fl.onto), filepath.Ext(fl.onto))
	var js []exportJob
	for i := range ch.Clips {
		name := base
		if len(ch.Clips) > 1 {
			name += "-" + bvhSlug(ch.Clips[i].Name)
		}
		path := in
		if len(src.Files) == 0 {
			path = "" // an embedded clip: no input file
		}
		js = append(js, exportJob{name: name + "-on-" + target, path: path, clip: i, gltf: ch})
	}
	return js, nil
}

// source opens the job's input: a glTF animation, an embedded clip of
// clips on the humanoid sk, or a BVH file read with ropt, whose notes
// go to stderr.
func (j exportJob) source(ctx context.Context, clips []animsys.Clip, sk *animsys.Skeleton, ropt bvh.ReadOptions, stderr io.Writer) (export.Source, error) {
	if j.gltf != nil {
		src := export.ClipSource{Clip: &j.gltf.Clips[j.clip], Skel: &j.gltf.Skel}
		if j.gltf.Unit == export.FileUnits.Name {
			src.Unit = export.FileUnits
		}
		return src, nil
	}
	if j.clip >= 0 {
		return export.ClipSource{Clip: &clips[j.clip], Skel: sk}, nil
	}
	b, notes, err := export.ReadBVHContext(ctx, j.path, ropt)
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		fmt.Fprintf(stderr, "kinelab export: %s: %s\n", j.path, n)
	}
	return b, nil
}

// write exports src, job j's input, to its output's temporary file
// (stdout for "-"), left for the caller to commit.
func (fl *exportFlags) write(ctx context.Context, j exportJob, src export.Source, opt export.Options, stdout io.Writer) (written, error) {
	// Lengths in a unit of unknown size stay in it (and say so), as in
	// the labs: there are no metres to convert them to.
	if u := src.Units(); fl.outUnits == "file" || u == export.FileUnits {
		opt.Units = u
	}
	path := fl.outPath(j)
	h, out, err := exportOne(ctx, src, opt, fl.format, path, stdout)
	return written{path: path, h: h, out: out}, err
}

// outPath is where job j's output goes: --out itself, or a file in it.
func (fl *exportFlags) outPath(j exportJob) string {
	if fl.single {
		return fl.out
	}
	return filepath.Join(fl.out, j.name+"."+fl.format)
}

// exportOne writes one export to path's temporary file (or stdout for
// "-"), once the disk has room for it (export.Size, CheckSpace), and
// returns its header and the output to commit (nil for stdout).
// A failed or interrupted export (ctx done) leaves the output as it was
// (export.Output).
func exportOne(ctx context.Context, src export.Source, opt export.Options, format, path string, stdout io.Writer) (export.Header, pending, error) {
	s, err := export.NewStream(src, opt)
	if err != nil {
		return export.Header{}, nil, err
	}
	h := s.Header()
	if path == "-" {
		return h, nil, s.Run(ctx, export.NewCSVWriter(stdout))
	}
	// Refused before a byte is written where the disk has not the room
	// (an export at --fps 1e6 wrote 3.8-5.4 GB without a question). The
	// outputs written before this one are on the disk already, in their
	// temporary files: the free space counts them.
	need, err := export.Size(src, opt, format == "npz")
	if err != nil {
		return h, nil, err
	}
	if err := export.CheckSpace(path, need); err != nil {
		return h, nil, err
	}
	if format == "npz" {
		w := export.NewNPZWriter(path)
		w.Hold()
		w.StopWith(ctx)
		if err := s.Run(ctx, w); err != nil {
			w.Abort()
			return h, nil, fmt.Errorf("%s: %w", path, err)
		}
		return h, w, nil
	}
	f, err := export.Create(path)
	if err != nil {
		return h, nil, err
	}
	err = s.Run(ctx, export.NewCSVWriter(f))
	if err == nil {
		err = f.ReadyContext(ctx) // closed until committed: no file held open per input
	}
	if err != nil {
		f.Abort()
		return h, nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, f, nil
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
