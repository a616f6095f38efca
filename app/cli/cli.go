// Package cli implements kinelab's headless subcommands, `kinelab verify`,
// `kinelab bench`, `kinelab bvh`, `kinelab export`, `kinelab retarget`,
// `kinelab golden` and `kinelab matching eval`.
// Each takes a context, its arguments (after the subcommand name) and the
// output streams, and returns the process exit code: 0 success, 1 failure
// (a tolerance exceeded, a file not read or written, stdout not written,
// or interrupted), 2 bad usage. None opens a window or needs a display.
// Every file they write goes through an export.Output: a failed write
// leaves what was there, and a command that writes files (export, golden)
// stops when its context is done (an interrupt), giving up its outputs.
package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/crowd"
	"kinelab/animsys/matching"
	"kinelab/animsys/mathx"
	"kinelab/animsys/verify"
	"kinelab/animsys/words"
	"kinelab/assets"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitFail  = 1
	ExitUsage = 2
)

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints its usage to stderr.
func newFlagSet(name, synopsis, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n%s\n\nflags:\n", synopsis, about)
		fs.PrintDefaults()
	}
	return fs
}

// checkedStdout wraps a subcommand's stdout so that a failed write (a full
// disk, a closed file, a pipe whose reader has gone) fails the command:
// what was asked for was not written. Each subcommand defers the returned
// finish, which turns the exit code into 1 and says why on stderr (a
// command exiting 1 on its own has said what went wrong already).
//
// A pipe whose reader has gone (EPIPE: `kinelab export walk --out - |
// head -c 100`) is such a failure: the data after what the reader took is
// lost, so the command does not exit 0. A command that streams its data to
// stdout is stopped at once (stopOnGone), and the message says how much
// the reader took.
func checkedStdout(name string, stdout, stderr io.Writer, code *int) (*checkedWriter, func()) {
	w := &checkedWriter{w: stdout}
	return w, func() {
		// A command stopped by stopOnGone fails with its stop's error,
		// which it leaves unsaid: what was lost is said here.
		if w.err != nil && (*code == ExitOK || w.gone && w.stop != nil) {
			fmt.Fprintf(stderr, "%s: writing the output: %v\n", name, w.err)
			*code = ExitFail
		}
	}
}

// checkedWriter keeps the first error of its writer and fails every
// write after it.
type checkedWriter struct {
	w       io.Writer
	err     error
	written int64  // bytes written before the error
	gone    bool   // the reader of a pipe has gone (EPIPE)
	stop    func() // called when it goes: stops a command streaming to stdout
}

// stopOnGone has stop called when the reader of the pipe goes.
func (c *checkedWriter) stopOnGone(stop func()) { c.stop = stop }

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.written += int64(n)
	if errors.Is(err, syscall.EPIPE) {
		c.gone = true
		if !errors.As(err, new(*lostOutput)) { // said by a checkedWriter under this one
			err = &lostOutput{c.written, err}
		}
		c.err = err
		if c.stop != nil {
			c.stop()
		}
		return n, err
	}
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// lostOutput is a write to a pipe whose reader has gone: "the reader of
// standard output closed it after 100 bytes (write /dev/stdout: broken
// pipe); the rest is lost".
type lostOutput struct {
	written int64 // bytes the reader took
	err     error // EPIPE, as the write gave it
}

func (e *lostOutput) Error() string {
	return fmt.Sprintf("the reader of standard output closed it after %s (%v); the rest is lost", words.Count(int(e.written), "byte"), e.err)
}

func (e *lostOutput) Unwrap() error { return e.err }

// parse parses args and rejects positional arguments. It returns the exit
// code to stop with, or -1 to go on.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage // the flag package has printed the error and usage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return ExitUsage
	}
	return -1
}

// Verify runs `kinelab verify [--json] [--intervals N] [--file FILE
// [--units U]]`: every velocity operation of animsys, comparing propagated
// velocities with a fine central finite difference in every frame interval
// (up to N per clip), over the bench-spec clips (verify.BenchSeeds) and the
// embedded default clips — or over a BVH file's clip or a glTF file's
// animations (--file; --bvh is its older name). It prints per
// operation and velocity the max and mean error (m/s, rad/s, 1/s), the
// tolerance and the worst sample (clip, time, frame, joint), then the data
// jumps it left out, and returns 1 if any tolerance is exceeded or the
// file does not load. --file FOLDER verifies every BVH and glTF file in
// it (not its subfolders), each on its own, a line each (verifyFolder)
// and a summary, and returns 1 if any fails.
func Verify(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	stdout, finish := checkedStdout("kinelab verify", stdout, stderr, &code)
	defer finish()
	fs := newFlagSet("kinelab verify", "kinelab verify [--json] [--intervals N] [--file FILE.bvh|FILE.gltf|FILE.glb|FOLDER [--units U] [--up y|z] [--keep-rest]]",
		"Checks every velocity-propagating operation against a central finite difference\n"+
			"(h = 1 ms) in every frame interval of the bench-spec and embedded clips, or of a\n"+
			"BVH or glTF file's clips, leaving out (and naming) frames where the data itself jumps;\n"+
			"exits 1 if any tolerance is exceeded. A folder: each BVH and glTF file in it (not its\n"+
			"subfolders, which the summary names), a line each, then a summary.", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	intervals := fs.Int("intervals", verify.MaxIntervals, fmt.Sprintf("check at most `N` frame intervals per clip, spread evenly (1-%d; by default fewer for a skeleton of more than %d joints, so that joints x intervals stay within %d)", maxIntervals, verify.MaxJointIntervals/verify.MaxIntervals, verify.MaxJointIntervals))
	file := fs.String("file", "", "verify over this `FILE`'s clips instead: a BVH file, or a glTF file (.gltf, .glb) and every animation in it; or each BVH and glTF file of a folder (not its subfolders)")
	fs.StringVar(file, "bvh", "", "the same as --file (older name)")
	units := fs.String("units", "auto", "units of the BVH file: auto, m, cm, mm, in, cmu or metres per unit")
	up := fs.String("up", "auto", "up axis of the BVH file: auto, y or z")
	keep := fs.Bool("keep-rest", false, "keep the BVH file's leading rest frames (dropped by default, as in the app)")
	if code := parse(fs, args, stderr); code >= 0 {
		return code
	}
	if *intervals < 1 || *intervals > maxIntervals {
		fmt.Fprintf(stderr, "kinelab verify: --intervals must be at least 1 and at most %d, got %d\n", maxIntervals, *intervals)
		return ExitUsage
	}
	if !flagSet(fs, "intervals") {
		*intervals = 0 // each file's own: verify.Intervals of its joints
	}
	if *file != "" {
		opt := bvh.ReadOptions{Units: *units, Up: *up, KeepRest: *keep}
		if st, err := os.Stat(*file); err == nil && st.IsDir() {
			return verifyFolder(ctx, *file, opt, *asJSON, *intervals, stdout, stderr)
		}
		rep, err := verifyFile(*file, opt, *intervals, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "kinelab verify: %v\n", err)
			return ExitFail
		}
		return writeVerify(rep, *asJSON, stdout, stderr)
	}
	skel := animsys.BenchSkeleton()
	clips := verify.BenchClips()
	for _, c := range assets.Clips() {
		clips = append(clips, &c)
	}
	return verifyClips(stdout, stderr, *asJSON, cmp.Or(*intervals, verify.Intervals(skel.Len())), &skel, verify.BenchRoles(), clips)
}

// flagSet reports whether flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// verifyFile verifies the clips of the character file path reads as
// (character.Load with opt; a glTF file's every animation), with the
// procedural cases on its head and leg, at most intervals frame
// intervals a clip (0: verify.Intervals of its joints, said on stderr
// when fewer than verify.MaxIntervals). What loading detected goes to stderr. The error says
// why the file could not be verified: it does not load, or a clip is
// too short.
func verifyFile(path string, opt bvh.ReadOptions, intervals int, stderr io.Writer) (verify.Report, error) {
	ch, err := character.Load([]string{path}, opt)
	if err != nil {
		return verify.Report{}, character.FileErrors(err)[0]
	}
	for _, n := range ch.Notes {
		fmt.Fprintf(stderr, "kinelab verify: %s: %s\n", path, n)
	}
	var clips []*animsys.Clip
	for i := range ch.Clips {
		if c := &ch.Clips[i]; c.Frames < 5 {
			return verify.Report{}, fmt.Errorf("%s: clip %q has %d frames to verify; the central differences need at least 5", path, c.Name, c.Frames)
		}
		clips = append(clips, &ch.Clips[i])
	}
	if err := ch.Skel.Validate(); err != nil {
		return verify.Report{}, fmt.Errorf("%s: %w", path, err)
	}
	if intervals == 0 {
		intervals = verify.Intervals(ch.Skel.Len())
		if intervals < verify.MaxIntervals {
			fmt.Fprintf(stderr, "kinelab verify: %s: %d joints: at most %d frame intervals a clip checked, spread evenly (%d joint-intervals; --intervals N for more)\n",
				path, ch.Skel.Len(), intervals, verify.MaxJointIntervals)
		}
	}
	roles := verify.Roles{Head: ch.Head, Leg: ch.Leg}
	rep := verify.RunIntervals(&ch.Skel, verify.Cases(&ch.Skel, roles), clips, intervals)
	rep.InUnit(ch.Unit) // as the labs show it
	return rep, nil
}

// folderResult is one file's line of `verify --file FOLDER`.
type folderResult struct {
	File   string         `json:"file"`
	Pass   bool           `json:"pass"`
	Error  string         `json:"error,omitempty"` // why it could not be verified
	Report *verify.Report `json:"report,omitempty"`
}

// verifyFolder runs verifyFile on every BVH and glTF file in dir (.bvh,
// .gltf, .glb; in name order, a file met twice once), printing a line for
// each, PASS or FAIL with its worst check (or why it could not be
// verified), then a summary that counts them and says what was not read:
// subfolders (by name: verify each with --file) and other files; with
// asJSON, each file's report and those. It exits 1 if any file fails or
// the folder holds none; it checks ctx between files.
func verifyFolder(ctx context.Context, dir string, opt bvh.ReadOptions, asJSON bool, intervals int, stdout, stderr io.Writer) int {
	l, err := listFolder(dir)
	if err != nil {
		fmt.Fprintf(stderr, "kinelab verify: %v\n", err)
		return ExitFail
	}
	files, twice := character.Unique(l.files)
	for _, n := range twice {
		fmt.Fprintf(stderr, "kinelab verify: %s\n", n)
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "kinelab verify: %s: a folder with no BVH or glTF file (.bvh, .gltf, .glb)%s\n", dir, l.notRead())
		return ExitFail
	}
	var results []folderResult
	failed := 0
	for _, f := range files {
		if ctx.Err() != nil {
			return ExitFail
		}
		r := folderResult{File: f}
		rep, err := verifyFile(f, opt, intervals, stderr)
		if err != nil {
			r.Error = err.Error()
		} else {
			r.Pass, r.Report = rep.Pass, &rep
		}
		if !r.Pass {
			failed++
		}
		results = append(results, r)
		if !asJSON {
			fmt.Fprintln(stdout, folderLine(r))
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(struct {
			Files      []folderResult `json:"files"`
			Pass       bool           `json:"pass"`
			Subfolders []string       `json:"subfolders_not_read"`
			Other      int            `json:"other_files_not_read"`
		}{results, failed == 0, l.subfolders, l.other}) // a write error fails the command through checkedStdout
	} else {
		bvhs := 0
		for _, f := range files {
			if !character.IsGLTF(f) {
				bvhs++
			}
		}
		fmt.Fprintf(stdout, "%s: %s verified (%d BVH, %d glTF), %d pass, %d fail%s\n", dir, words.Count(len(results), "file"),
			bvhs, len(files)-bvhs, len(results)-failed, failed, l.notRead())
	}
	if failed > 0 {
		return ExitFail
	}
	return ExitOK
}

// folderListing is what a folder holds for verify: the character files
// it reads (BVH and glTF, by extension, in name order), and what it does
// not: subfolders (by name) and other files (a glTF file's .bin and
// textures among them).
type folderListing struct {
	files      []string
	subfolders []string
	other      int
}

// listFolder lists dir for verify (folderListing). Subfolders are not
// read: a folder of captures is one level, as the app loads it.
func listFolder(dir string) (folderListing, error) {
	var l folderListing
	entries, err := os.ReadDir(dir)
	if err != nil {
		return l, err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch ext := strings.ToLower(filepath.Ext(e.Name())); {
		case e.IsDir():
			l.subfolders = append(l.subfolders, e.Name())
		case ext == ".bvh" || ext == ".gltf" || ext == ".glb":
			l.files = append(l.files, p)
		default:
			l.other++
		}
	}
	return l, nil
}

// notRead says what of the folder was not read: "; subfolders not read
// (verify each with --file): a, b; 3 other files not read".
func (l folderListing) notRead() string {
	var s string
	if n := len(l.subfolders); n > 0 {
		names := l.subfolders[:min(n, 4)]
		list := strings.Join(names, ", ")
		if n > 4 {
			list += fmt.Sprintf(" and %d more", n-4)
		}
		s += fmt.Sprintf("; %s not read (verify each with --file): %s", words.Count(n, "subfolder"), list)
	}
	if l.other > 0 {
		s += fmt.Sprintf("; %s not read", words.Count(l.other, "other file"))
	}
	return s
}

// folderLine is a file's line of the folder's report: "PASS file: worst
// 0.58 of its tolerance, FK world linear m/s at ...", "FAIL file: 2 checks
// exceed their tolerance, worst 1.7 times ...", or "FAIL file: " and why
// it could not be verified.
func folderLine(r folderResult) string {
	name := filepath.Base(r.File)
	if r.Report == nil {
		return "FAIL " + name + ": " + r.Error
	}
	verdict, what := "PASS", "every checked velocity within its tolerance"
	if n := r.Report.Failed(); n > 0 {
		verdict, what = "FAIL", words.Count(n, "check")+" past its tolerance"
	}
	if w, ok := r.Report.Worst(); ok {
		what += fmt.Sprintf("; worst %.2fx its tolerance: %s %s %s %s at %s", w.Worst, w.Op, w.Space, w.Quantity, w.Unit, w.At)
	}
	if n := len(r.Report.Excluded); n > 0 {
		what += fmt.Sprintf("; %s left out", words.Count(n, "data jump"))
	}
	return verdict + " " + name + ": " + what
}

// maxIntervals bounds verify --intervals: a million intervals of a clip
// is hours of checking (the default checks 2,000); more is a typo.
const maxIntervals = 1_000_000

// VerifyClips is Verify over the given clips of skeleton skel (all clips
// must match it), the procedural cases on roles' joints, for callers with
// clips of their own (embedded or loaded).
func VerifyClips(args []string, stdout, stderr io.Writer, skel *animsys.Skeleton, roles verify.Roles, clips []*animsys.Clip) (code int) {
	stdout, finish := checkedStdout("kinelab verify", stdout, stderr, &code)
	defer finish()
	fs := newFlagSet("kinelab verify", "kinelab verify [--json]",
		"Checks every velocity-propagating operation against a central finite difference\n"+
			"(h = 1 ms) over the clips; exits 1 if any tolerance is exceeded.", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if code := parse(fs, args, stderr); code >= 0 {
		return code
	}
	return verifyClips(stdout, stderr, *asJSON, verify.MaxIntervals, skel, roles, clips)
}

// verifyClips runs verify's cases, with the procedural ones on roles'
// joints, over clips of skel.
func verifyClips(stdout, stderr io.Writer, asJSON bool, intervals int, skel *animsys.Skeleton, roles verify.Roles, clips []*animsys.Clip) int {
	if err := skel.Validate(); err != nil {
		fmt.Fprintf(stderr, "kinelab verify: %v\n", err)
		return ExitFail
	}
	if len(clips) == 0 {
		fmt.Fprintln(stderr, "kinelab verify: no clips to verify")
		return ExitFail
	}
	for _, c := range clips {
		if c.Joints != skel.Len() || c.Frames < 5 {
			fmt.Fprintf(stderr, "kinelab verify: clip %q has %d joints and %d frames; want %d joints, at least 5 frames\n",
				c.Name, c.Joints, c.Frames, skel.Len())
			return ExitFail
		}
	}
	rep := verify.RunIntervals(skel, verify.Cases(skel, roles), clips, intervals)
	return writeVerify(rep, asJSON, stdout, stderr)
}

// writeVerify prints a report and returns the exit code it calls for.
func writeVerify(rep verify.Report, asJSON bool, stdout, stderr io.Writer) int {
	var err error
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = verify.WriteText(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "kinelab verify: %v\n", err)
		return ExitFail
	}
	if !rep.Pass {
		return ExitFail
	}
	return ExitOK
}

// benchReport is the JSON output of `kinelab bench`.
type benchReport struct {
	Chain  string `json:"chain"`
	Joints int    `json:"joints"`
	// Path is the build's implementation of animsys's lane types, "AVX2"
	// (GOEXPERIMENT=simd) or "portable", Lanes the joints a block.
	Path           string                 `json:"path"`
	Lanes          int                    `json:"lanes"`
	CharacterBytes int64                  `json:"character_bytes"` // a character's state (animsys.BenchCharacterBytes)
	Results        []crowd.BenchResult    `json:"results"`
	Search         []matching.SearchBench `json:"matching_search,omitempty"`
}

// searchSeconds and searchPasses are the run whose queries bench's search
// timing takes (s of the random path) and the passes it times over them.
// Tests shorten them: the brute-force passes over 60 s take seconds.
var searchSeconds, searchPasses = float32(60), 3

// Bench runs `kinelab bench [--characters N[,N...]] [--threads K[,K...]]
// [--json]`: crowds of N characters (default 1000) ticking the bench-spec
// chain, each timed as bench-spec says (3 warm-up ticks, median of 21) on
// K goroutines, by default on one and on all cores. It prints ns per
// character-tick and character-ticks per second for every (N, K).
func Bench(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	stdout, finish := checkedStdout("kinelab bench", stdout, stderr, &code)
	defer finish()
	skel := animsys.BenchSkeleton()
	var b benchFlags
	fs := b.define(skel.Len(), stderr)
	if code := parse(fs, args, stderr); code >= 0 {
		return code
	}
	if err := b.check(skel.Len()); err != nil {
		fmt.Fprintf(stderr, "kinelab bench: %v\n", err)
		return ExitUsage
	}

	lib := crowd.NewLibrary()
	rep := benchReport{Chain: "bench-spec", Joints: skel.Len(), Path: mathx.SIMD, Lanes: mathx.Lanes,
		CharacterBytes: animsys.BenchCharacterBytes(skel.Len())}
	counts := b.threadCounts()
	for _, n := range b.sizes {
		c, err := crowd.New(&skel, lib, n, 1)
		if err != nil {
			fmt.Fprintf(stderr, "kinelab bench: %v\n", err)
			return ExitFail
		}
		for _, k := range counts {
			rep.Results = append(rep.Results, crowd.Bench(c, k))
		}
		c.Close()
	}
	if b.search {
		db, err := matching.NewDatabase(matching.Mirrored(embeddedSource()), matching.DefaultWeights, matching.DefaultSettings().Halflife)
		if err != nil {
			fmt.Fprintf(stderr, "kinelab bench: %v\n", err)
			return ExitFail
		}
		for _, set := range []matching.Set{matching.Standard, matching.InertialSet, matching.Exact} {
			rep.Search = append(rep.Search, matching.BenchSearch(db, set, matching.Random, searchSeconds, searchPasses))
		}
	}

	if b.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "kinelab bench: %v\n", err)
			return ExitFail
		}
		return ExitOK
	}
	rep.print(stdout)
	return ExitOK
}

// benchFlags are bench's flags: the crowd sizes and thread counts to
// time (lists), JSON output, and whether to time the search too.
type benchFlags struct {
	sizes, threads intList
	json, search   bool
}

// define makes bench's flag set, bound to b; the most characters are
// those of joints joints the memory budget holds.
func (b *benchFlags) define(joints int, stderr io.Writer) *flag.FlagSet {
	fs := newFlagSet("kinelab bench", "kinelab bench [--characters N[,N...]] [--threads K[,K...]] [--json]",
		"Times the velocity chain of docs/bench-spec.md for crowds: 3 warm-up ticks, then\n"+
			"the median of 21 ticks; prints ns per character-tick and character-ticks/s.\n"+
			"Lists sweep, e.g. --characters 1,10,100,1000,2000 --threads 1,2.", stderr)
	b.sizes, b.threads = intList{crowd.DefaultSize}, intList{0}
	fs.Var(&b.sizes, "characters", fmt.Sprintf("characters in the crowd (1-%d, the memory budget's), or a comma-separated list of sizes", crowd.MaxCharacters(joints)))
	fs.Var(&b.threads, "threads", fmt.Sprintf("goroutines to tick on (1-%d), or a list; 0 runs on 1 and on all cores", crowd.MaxThreads))
	fs.BoolVar(&b.json, "json", false, "print the results as JSON")
	fs.BoolVar(&b.search, "search", true, "also time the motion-matching search on the embedded set mirrored (3 passes over the queries of a 60 s random run)")
	return fs
}

// check rejects a size or a thread count out of its range: at least one
// character, no more than the memory budget holds of joints joints
// (refused before anything is allocated: memory grows with the count),
// and 0 to crowd.MaxThreads goroutines (more only add scheduling, and
// each holds a scratch pose: 2^31 of them ran out of memory).
func (b *benchFlags) check(joints int) error {
	for _, n := range b.sizes {
		if n < 1 {
			return fmt.Errorf("--characters must be at least 1, got %d", n)
		}
		if err := crowd.CheckBudget(joints, n); err != nil {
			return fmt.Errorf("--characters %d: %v", n, err)
		}
	}
	for _, k := range b.threads {
		if k < 0 || k > crowd.MaxThreads {
			return fmt.Errorf("--threads must be 0 (1 and all cores) or 1 to %d, got %d", crowd.MaxThreads, k)
		}
	}
	return nil
}

// threadCounts are the goroutine counts to time each crowd on: those
// given, with 0 for one and for all cores.
func (b *benchFlags) threadCounts() []int {
	var counts []int
	for _, k := range b.threads {
		if k != 0 {
			counts = append(counts, k)
			continue
		}
		counts = append(counts, 1)
		if all := runtime.GOMAXPROCS(0); all > 1 {
			counts = append(counts, all)
		}
	}
	return counts
}

// print writes the report as tables: the crowds' times, then the search's.
func (rep *benchReport) print(w io.Writer) {
	fmt.Fprintf(w, "bench-spec velocity chain, %d joints: %d warm-up ticks, median of %d\n",
		rep.Joints, crowd.WarmupTicks, crowd.TimedTicks)
	fmt.Fprintf(w, "lane types: %s, %s a block; %d bytes of state a character\n", rep.Path, words.Count(rep.Lanes, "joint"), rep.CharacterBytes)
	fmt.Fprintf(w, "%10s %8s %14s %14s %12s\n", "characters", "threads", "ns/char-tick", "char-ticks/s", "tick (ms)")
	for _, r := range rep.Results {
		fmt.Fprintf(w, "%10d %8d %14.0f %14.0f %12.3f\n", r.Characters, r.Threads, r.NsPerCharTick, r.CharTicksPerSec, r.MedianTickNs/1e6)
	}
	if len(rep.Search) > 0 {
		fmt.Fprintf(w, "\nmotion-matching search, embedded set mirrored (%d frames), one core, queries of a 60 s random run:\n", rep.Search[0].Frames)
		fmt.Fprintf(w, "%10s %8s %22s %22s\n", "features", "queries", "index us median (p99)", "brute us median (p99)")
		for _, r := range rep.Search {
			fmt.Fprintf(w, "%10s %8d %13.1f (%6.1f) %13.1f (%6.1f)\n", r.Set, r.Queries, r.Median, r.P99, r.BruteMedian, r.BruteP99)
		}
	}
}

// intList is a flag holding one integer or a comma-separated list of them.
type intList []int

func (l *intList) String() string {
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(v string) error {
	var out intList
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("%q is not an integer", f)
		}
		out = append(out, n)
	}
	*l = out
	return nil
}
