package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/app/flagrange"
)

// Config is what the command line sets.
type Config struct {
	Lab        string // name of the lab to open (a LabEntry's Name)
	Frames     int    // quit after this many frames; 0 runs until closed
	Screenshot string // write the last frame to this PNG file
	Width      int    // initial window size (px)
	Height     int
	MSAA       bool     // 4x multisampling (slow under software GL)
	CSV        string   // write the lab's signals, one row per update, here
	Do         []Action // scripted key actions of a headless run
	DT         float32  // s, the fixed time step
	Jitter     float32  // dt jitter fraction in [0, 1]
	Seed       uint32   // seed of the lab's random choices
	// DTGiven and JitterGiven: --dt and --jitter were on the command line
	// (they win over the settings file).
	DTGiven, JitterGiven bool
	// LabFlags are the labs' own flags given on the command line (see
	// LabFlag), by name; a flag not given is absent.
	LabFlags map[string]float64
	Files    []string // BVH files to load as the character and its clips
	Units    string   // BVH units: auto, or what bvh.ParseUnits takes (m, cm, mm, in, cmu, a factor)
	Up       string   // BVH up axis: auto, or what bvh.ParseUp takes (y, z, x, -y...)
	KeepRest bool     // keep a BVH clip's leading rest frames
	UIScale  float32  // pixels per UI unit; 0: from the window size and DPI
	// Onto is the character the captures play on (--onto: a glTF file,
	// or "default" for the embedded one), "" for their own figure.
	Onto string
	// Networks is the Motion-matching lab's learned controller's networks
	// file (--networks: a .lmm of kinelab matching train, for the
	// captures loaded), "" for the embedded set's.
	Networks string
	// SettingsFile is read at start instead of the user's settings file
	// (--settings); ResetSettings starts from the defaults instead.
	SettingsFile  string
	ResetSettings bool
}

// Action is a key action (Key.Name) to run at the start of a frame.
type Action struct {
	Frame int
	Name  string
}

// Headless reports whether this is a scripted run (--frames): it then
// renders as fast as it can with a fixed 1/60 s frame time, so results do
// not depend on the machine's speed.
func (c Config) Headless() bool { return c.Frames > 0 }

// ParseFlags reads the command line for an App of labs (their names are
// what --lab takes, their keys what --do runs). It returns flag.ErrHelp
// after -h, and otherwise an error that names the bad flag or value.
func ParseFlags(args []string, stderr io.Writer, labs []LabEntry) (Config, error) {
	var c Config
	if len(labs) == 0 {
		return c, errors.New("no labs to choose from")
	}
	labNames := entryNames(labs)
	fs := flag.NewFlagSet("kinelab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.Lab, "lab", labNames[0], "lab to open: "+strings.Join(labNames, ", "))
	fs.IntVar(&c.Frames, "frames", 0, fmt.Sprintf("quit after `N` frames, up to %d (0: run until the window is closed)", maxFrames))
	fs.StringVar(&c.Screenshot, "screenshot", "", "write the last frame to `FILE` (.png)")
	fs.IntVar(&c.Width, "width", 1280, "window width in pixels (320-7680)")
	fs.IntVar(&c.Height, "height", 720, "window height in pixels (240-4320)")
	msaa := fs.String("msaa", "auto", "4x multisampling: on, off, or auto (on unless --frames is set)")
	fs.StringVar(&c.CSV, "csv", "", "write the lab's plotted signals to `FILE` (CSV, one row per update, for --frames N frames; the cost lab writes its grid without); without --screenshot no window opens")
	do := fs.String("do", "", "run key actions at frames, e.g. `60:teleport,120:reset` (names in the help overlay)")
	dt := fs.Float64("dt", 1.0/60, flagrange.DT.Usage("fixed time step in `seconds`"))
	jitter := fs.Float64("jitter", 0, flagrange.Jitter.Usage("dt jitter: each step is scaled by a random factor in [1-J, 1+J], `J`"))
	seed := fs.Int64("seed", 1, "seed of the lab's random choices (0-4294967295)")
	labFlags := labFlagsOf(labs)
	labValues := defineLabFlags(fs, labFlags)
	fs.StringVar(&c.Units, "units", "auto", "units of BVH files: auto (from the figure's height), m, cm, mm, in, cmu, or metres per unit (e.g. 0.0254)")
	fs.StringVar(&c.Up, "up", "auto", "up axis of BVH files: auto (the way the figure stands), y or z (x, -y, -z too)")
	fs.StringVar(&c.Onto, "onto", "", "play the captures (the files given, else the embedded clips) retargeted onto the glTF character in `CHARACTER.glb` (\"default\": the embedded one)")
	fs.StringVar(&c.Networks, "networks", "", "the Motion-matching lab's learned controller's networks, `FILE.lmm` (kinelab matching train on the captures given; default: the embedded set's)")
	fs.BoolVar(&c.KeepRest, "keep-rest", false, "keep a BVH clip's leading rest-pose frames (by default they are dropped)")
	uiScale := fs.Float64("ui-scale", 0, flagrange.UIScale.Usage("size of the UI: `S` pixels per unit"))
	fs.StringVar(&c.SettingsFile, "settings", "", "start from the settings in `FILE` (as saved on exit) instead of your own")
	fs.BoolVar(&c.ResetSettings, "reset-settings", false, "start from the default settings (yours are overwritten on exit)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: kinelab [flags] [FILE.bvh|FOLDER ...|FILE.gltf|FILE.glb]\n       kinelab --onto CHARACTER.glb [FILE.bvh|FOLDER ...]\n       kinelab verify [--json] [--file FILE.bvh|FILE.gltf|FILE.glb|FOLDER]\n       kinelab export FILE.bvh|FILE.gltf|FILE.glb|CLIP ... [--onto CHARACTER.glb] [--format csv|npz] [--out DIR|FILE|-]\n       kinelab retarget SOURCE ... --onto CHARACTER.glb --out OUT.glb\n       kinelab bvh info FILE | bvh export OUT.bvh\n       kinelab info FILE.bvh|FILE.gltf|FILE.glb\n       kinelab golden DIR [--check]\n       kinelab bench [--characters N] [--threads K] [--json]\n       kinelab matching eval [--features F] [--path P] [--controller database|learned] [--json] [FILE.bvh|FOLDER ...]\n       kinelab matching train [--minutes M] [--out FILE.lmm] [FILE.bvh|FOLDER ...]\n(each with -h for its flags)\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	var err error
	if c.Files, err = fileArgs(fs.Args()); err != nil {
		return c, err
	}
	if err := c.checkFlags(labNames); err != nil {
		return c, err
	}
	if err := checkStep(*dt, *jitter); err != nil {
		return c, err
	}
	// The labs' random choices run on a 32-bit state.
	if *seed < 0 || *seed > math.MaxUint32 {
		return c, fmt.Errorf("--seed %d: want 0 to %d", *seed, uint32(math.MaxUint32))
	}
	if err := c.setLabFlags(fs, labFlags, labValues); err != nil {
		return c, err
	}
	if err := flagrange.UIScale.Check(*uiScale); err != nil {
		return c, err
	}
	c.UIScale = float32(*uiScale)
	c.DT, c.Jitter, c.Seed = float32(*dt), float32(*jitter), uint32(*seed)
	c.DTGiven, c.JitterGiven = flagGiven(fs, "dt"), flagGiven(fs, "jitter")
	if c.CSV != "" && c.Frames == 0 && c.Screenshot != "" {
		return c, fmt.Errorf("--csv %q with --screenshot needs --frames N (a headless run)", c.CSV)
	}
	if *do != "" {
		acts, err := parseActions(*do, c, labs)
		if err != nil {
			return c, err
		}
		c.Do = acts
	}
	if c.MSAA, err = parseMSAA(*msaa, c.Headless()); err != nil {
		return c, err
	}
	return c, nil
}

// defineLabFlags defines the labs' flags on fs and returns where each
// value goes. A flag with choices takes one of their names and stores its
// index from 1, so its range becomes 1 to the number of choices; any
// other takes a number.
func defineLabFlags(fs *flag.FlagSet, labFlags []LabFlag) []*float64 {
	labValues := make([]*float64, len(labFlags))
	for i, f := range labFlags {
		if len(f.Choices) > 0 {
			v, names := new(float64), strings.Join(f.Choices, ", ")
			labValues[i], labFlags[i].Min, labFlags[i].Max = v, 1, float64(len(f.Choices))
			fs.Func(f.Name, fmt.Sprintf("%s: %s", f.Usage, names), func(s string) error {
				k := slices.Index(f.Choices, s)
				if k < 0 {
					return fmt.Errorf("want one of %s", names)
				}
				*v = float64(k + 1)
				return nil
			})
			continue
		}
		labValues[i] = fs.Float64(f.Name, 0, fmt.Sprintf("%s (%g to %g; 0: the lab's default)", f.Usage, f.Min, f.Max))
	}
	return labValues
}

// fileArgs returns the arguments after the flags, which must be BVH
// files, folders or glTF files; on an error, those before the bad one.
func fileArgs(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		if st, err := os.Stat(a); !character.IsBVH(a) && !character.IsGLTF(a) && (err != nil || !st.IsDir()) {
			return files, fmt.Errorf("unexpected argument %q: give flags (--name) before BVH files (*.bvh, or a file starting HIERARCHY), folders of them, or a glTF file (*.gltf, *.glb); see kinelab -h", a)
		}
		files = append(files, a)
	}
	return files, nil
}

// maxFrames bounds --frames: ten million frames are 46 hours of a
// scripted run's 1/60 s frames (and gigabytes of --csv rows); more is a
// typo, not a run anyone waits for.
const maxFrames = 10_000_000

// checkFlags rejects the BVH options, lab, frame count, window size and
// screenshot name that are unknown or out of range, in that order, and an
// output (--csv, --screenshot) that is an input (a file to load, a file
// in a folder to load, --settings).
func (c *Config) checkFlags(labNames []string) error {
	if c.Units != "auto" {
		if _, err := bvh.ParseUnits(c.Units); err != nil {
			return fmt.Errorf("--units: %w", err)
		}
	}
	if c.Up != "auto" {
		if _, err := bvh.ParseUp(c.Up); err != nil {
			return fmt.Errorf("--up: %w", err)
		}
	}
	if !slices.Contains(labNames, c.Lab) {
		return fmt.Errorf("--lab %q: no such lab; choose one of %s", c.Lab, strings.Join(labNames, ", "))
	}
	if c.Frames < 0 || c.Frames > maxFrames {
		return fmt.Errorf("--frames %d: want 0 or more, at most %d (0 runs until the window closes)", c.Frames, maxFrames)
	}
	if c.Width < 320 || c.Width > 7680 || c.Height < 240 || c.Height > 4320 {
		return fmt.Errorf("--width %d --height %d: want 320-7680 x 240-4320", c.Width, c.Height)
	}
	if c.Screenshot != "" && !strings.HasSuffix(strings.ToLower(c.Screenshot), ".png") {
		return fmt.Errorf("--screenshot %q: the file name must end in .png", c.Screenshot)
	}
	inputs := c.Files
	if c.Onto != "" {
		inputs = append(slices.Clip(inputs), c.Onto)
	}
	if c.SettingsFile != "" {
		inputs = append(slices.Clip(inputs), c.SettingsFile)
	}
	for _, out := range []struct{ flag, path string }{{"--csv", c.CSV}, {"--screenshot", c.Screenshot}} {
		if in := inputNamed(out.path, inputs); in != "" {
			return fmt.Errorf("%s %q is the input %s: it would be overwritten; name another file", out.flag, out.path, in)
		}
	}
	return nil
}

// inputNamed is the input out names (the same file, through links), one
// of inputs or a file in an input folder; "" for none (or no out).
func inputNamed(out string, inputs []string) string {
	if out == "" {
		return ""
	}
	ost, err := os.Stat(out)
	if err != nil { // not there yet: no input
		return ""
	}
	for _, in := range inputs {
		st, err := os.Stat(in)
		if err != nil {
			continue
		}
		if os.SameFile(ost, st) {
			return in
		}
		if !st.IsDir() {
			continue
		}
		entries, _ := os.ReadDir(in)
		for _, e := range entries {
			if est, err := os.Stat(filepath.Join(in, e.Name())); err == nil && os.SameFile(ost, est) {
				return filepath.Join(in, e.Name())
			}
		}
	}
	return ""
}

// checkStep rejects a time step dt and a jitter out of their ranges
// (flagrange.DT, flagrange.Jitter).
func checkStep(dt, jitter float64) error {
	if err := flagrange.DT.Check(dt); err != nil {
		return err
	}
	return flagrange.Jitter.Check(jitter)
}

// setLabFlags checks the labs' flag values against their ranges (0 is
// the lab's default) and puts those given on the command line in
// c.LabFlags.
func (c *Config) setLabFlags(fs *flag.FlagSet, labFlags []LabFlag, labValues []*float64) error {
	for i, f := range labFlags {
		v := *labValues[i]
		if v != 0 && !(v >= f.Min && v <= f.Max) {
			return fmt.Errorf("--%s %v: want %g to %g, or 0 for the lab's default", f.Name, v, f.Min, f.Max)
		}
		if flagGiven(fs, f.Name) {
			if c.LabFlags == nil {
				c.LabFlags = map[string]float64{}
			}
			c.LabFlags[f.Name] = v
		}
	}
	return nil
}

// flagGiven reports whether flag name was on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(g *flag.Flag) { given = given || g.Name == name })
	return given
}

// parseMSAA reads --msaa: on, off, or auto (on unless headless).
func parseMSAA(s string, headless bool) (bool, error) {
	switch s {
	case "on":
		return true, nil
	case "off":
		return false, nil
	case "auto":
		return !headless, nil
	}
	return false, fmt.Errorf("--msaa %q: want on, off or auto", s)
}

// labFlagsOf gathers the labs' own flags, once each: a flag two labs
// declare has both usages, joined.
func labFlagsOf(labs []LabEntry) []LabFlag {
	var out []LabFlag
	for _, e := range labs {
		for _, f := range e.Flags {
			i := slices.IndexFunc(out, func(g LabFlag) bool { return g.Name == f.Name })
			if i < 0 {
				out = append(out, f)
				continue
			}
			out[i].Usage += "; " + f.Usage
			out[i].Min, out[i].Max = max(out[i].Min, f.Min), min(out[i].Max, f.Max)
		}
	}
	return out
}

// LabFlag returns the value of the lab flag called name given on the
// command line, and whether it was given (and is not 0, the lab's
// default).
func (c Config) LabFlag(name string) (float64, bool) {
	v, ok := c.LabFlags[name]
	return v, ok && v != 0
}

// IsHelp reports whether err is the -h request (exit 0, not an error).
func IsHelp(err error) bool { return errors.Is(err, flag.ErrHelp) }

// parseActions reads --do: comma-separated FRAME:NAME pairs, NAME one of the
// key actions of the app or of lab c.Lab.
func parseActions(spec string, c Config, labs []LabEntry) ([]Action, error) {
	known := map[string]bool{}
	a := New(c, labs)
	for _, k := range a.Keys() {
		known[k.Name] = true
	}
	var out []Action
	for _, item := range strings.Split(spec, ",") {
		f, name, ok := strings.Cut(strings.TrimSpace(item), ":")
		n, err := strconv.Atoi(f)
		if !ok || err != nil || n < 0 {
			return nil, fmt.Errorf("--do %q: want FRAME:NAME pairs separated by commas, e.g. 60:teleport", item)
		}
		if !known[name] {
			names := make([]string, 0, len(known))
			for k := range known {
				names = append(names, k)
			}
			slices.Sort(names)
			return nil, fmt.Errorf("--do %q: no action %q in lab %s; choose one of %s", item, name, c.Lab, strings.Join(names, ", "))
		}
		out = append(out, Action{Frame: n, Name: name})
	}
	return out, nil
}
