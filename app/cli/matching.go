package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/export"
	"kinelab/animsys/matching"
	"kinelab/app/flagrange"
	"kinelab/assets"
)

// Matching runs `kinelab matching eval ...`: the motion-matching lab's
// database driven headless by a scripted input, once per feature set and
// path, with what each run measures.
func Matching(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	if len(args) > 0 && args[0] == "train" {
		return MatchingTrain(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "eval" {
		fmt.Fprintln(stderr, "usage: kinelab matching eval|train [flags] [FILES or FOLDERS...]  (kinelab matching eval -h, train -h for the flags)")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			return ExitOK
		}
		return ExitUsage
	}
	return matchingEval(args[1:], stdout, stderr)
}

// matchingEval runs `kinelab matching eval` with args (after "eval").
func matchingEval(args []string, stdout, stderr io.Writer) (code int) {
	stdout, finish := checkedStdout("kinelab matching eval", stdout, stderr, &code)
	defer finish()
	var e evalFlags
	fs := e.define(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if err := e.check(); err != nil {
		fmt.Fprintf(stderr, "kinelab matching eval: %v\n", err)
		return ExitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinelab matching eval: "+format+"\n", a...)
		return ExitFail
	}
	src, name, err := matchingSource(fs.Args(), e.mirror, stderr)
	if err != nil {
		return fail("%v", err)
	}
	db, err := matching.NewDatabase(src, matching.DefaultWeights, e.st.Halflife)
	if err != nil {
		return fail("%s: %v", name, err)
	}
	if short := db.ShortClips(); short != "" {
		fmt.Fprintf(stderr, "kinelab matching eval: too short to search, only played: %s\n", short)
	}
	nets, err := e.learned(db)
	if err != nil {
		return fail("%v", err)
	}
	rep := evalReport{Database: name, Frames: db.Frames, Seconds: e.seconds}
	if err := e.replay(db, nets, &rep); err != nil {
		return fail("--dump: %v", err)
	}
	if e.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep) // a write error fails the command through checkedStdout
		return ExitOK
	}
	rep.print(stdout, e.st.Transition)
	return ExitOK
}

// replay runs every (path, set) of e on db (driven by nets, nil for the
// database controller) into rep, with the dump of the one run when asked:
// it is created once the inputs are read (export.Create refuses one of
// them) and put in place only when the run has written it all. The error
// is the dump's.
func (e *evalFlags) replay(db *matching.Database, nets *matching.Networks, rep *evalReport) error {
	var dw *evalDump
	var each func(*matching.TickRecord)
	if e.dump != "" {
		var err error
		if dw, err = newEvalDump(e.dump, db); err != nil {
			return err
		}
		defer dw.out.Abort()
		each = dw.tick
	}
	for _, r := range e.runs() {
		rep.Results = append(rep.Results, matching.EvalWith(db, nets, r.settings, r.path, float32(e.seconds), e.seed, each))
	}
	if dw != nil {
		return dw.commit()
	}
	return nil
}

// evalFlags are matching eval's flags, read into the matcher's settings
// where they are settings (evalSwitches), and checked once (check).
type evalFlags struct {
	features, path, transition, dump string
	controller, networks             string
	seconds, holdAfter, bend         float64
	seed64                           int64
	mirror, json                     bool
	// What check made of them: the settings of every run (but the
	// set), the sets and paths, the seed.
	st    matching.Settings
	sets  []matching.Set
	paths []matching.Path
	seed  uint32
}

// evalSwitches are eval's on/off flags that are the matcher's own
// switches, each bound to its setting (on by default, as the matcher's
// defaults have them).
var evalSwitches = []struct {
	name, usage string
	of          func(*matching.Settings) *bool
}{
	{"idle", "stand in the idle state when asked to stand (the stance nearest the feet, held, without searching)",
		func(s *matching.Settings) *bool { return &s.Idle }},
	{"rate", "play clips at the playback rate (the simulation's speed over the clip's root speed, eased, 0.7-1.4)",
		func(s *matching.Settings) *bool { return &s.Rate.On }},
	{"hold", "where the clamp's distance has been reached for --hold-after seconds, hold the simulation back to the root instead of dragging the root on",
		func(s *matching.Settings) *bool { return &s.Sync.Hold }},
	{"stride-warp", "stride warping: scale the clip's travel and the feet's distance from the hips along it towards the asked speed (0.75-1.3)",
		func(s *matching.Settings) *bool { return &s.Warp.Stride }},
	{"orient-warp", "orientation warping: turn the clip's direction of travel, the hips and legs with it, towards the asked direction (at most 30 degrees)",
		func(s *matching.Settings) *bool { return &s.Warp.Orient }},
}

// define makes the flag set, bound to e.
func (e *evalFlags) define(stderr io.Writer) *flag.FlagSet {
	e.st = matching.DefaultSettings()
	fs := newFlagSet("kinelab matching eval",
		"kinelab matching eval [--features standard|inertial|exact|all] [--path circle|zigzag|stop-go|random|spin|stand|all]\n"+
			"       [--seconds S] [--seed N] [--mirror=false] [--transition spring|cubic|dead-blend|none] [--json]\n"+
			"       [--idle=false] [--rate=false] [--hold=false] [--stride-warp=false] [--orient-warp=false] [--bend R]\n"+
			"       [--controller database|learned] [--networks FILE.lmm] [--dump FILE.csv] [FILES or FOLDERS...]",
		"Replays one scripted input through the motion-matching lab's database, once per\n"+
			"feature set, and prints per set: foot sliding on the lock's own labels (cm/s of an\n"+
			"ankle the labels that drive the lock say is in contact, and the share of\n"+
			"foot-ticks so labelled), the ankles' and toes' sliding on a second definition of\n"+
			"contact labelled from the source clips (cm/s; \"-\" for a figure without toes),\n"+
			"their foot skating, which needs no labels (cm/s: the ground speed of a joint\n"+
			"within 2.5 cm of its floor, weighted 2 - 2^(h/2.5 cm), over all foot-ticks),\n"+
			"the position error of the predicted trajectory after 1 s (cm; in brackets the\n"+
			"simulation's own, the part the input's changes make), the root's mean distance\n"+
			"from the simulation (cm), transitions per second (in all, moving, idle at rest,\n"+
			"at rest after the first 5 s), the share of the last 20 s at rest with the ankles\n"+
			"level, the share of foot-ticks with a foot turned over 90 degrees from the clip's,\n"+
			"the feet's mean inertialized displacement per transition (cm*s), the largest\n"+
			"bone-length error (mm), the mean |red - blue| (m/s), search time (median and p99\n"+
			"in us, with the index and by brute force, and whether brute force chose the same\n"+
			"frames) and the database's frames. The database is the embedded locomotion set,\n"+
			"or the BVH files given (a folder gives its .bvh files), mirrored unless\n"+
			"--mirror=false: those of the skeleton most of them share; each file left out is\n"+
			"named on stderr. --dump writes one row per tick of the run (one --path and one\n"+
			"--features) to a CSV file.", stderr)
	fs.StringVar(&e.features, "features", "all", "feature set: standard, inertial, exact or all")
	fs.StringVar(&e.path, "path", "random", "scripted input: "+strings.Join(matching.PathNames[:], ", ")+" or all")
	fs.Float64Var(&e.seconds, "seconds", 60, flagrange.EvalSeconds.Usage("seconds of input to replay"))
	fs.Int64Var(&e.seed64, "seed", 1, fmt.Sprintf("seed of the random path (0-%d)", uint32(math.MaxUint32)))
	fs.BoolVar(&e.mirror, "mirror", true, "add every capture's clips mirrored left/right to the database (as the reference mirrors its captures; the embedded set turns both ways already)")
	fs.StringVar(&e.transition, "transition", "spring", "transition: spring, cubic, dead-blend or none")
	fs.BoolVar(&e.json, "json", false, "print the results as JSON")
	for _, sw := range evalSwitches {
		p := sw.of(&e.st)
		fs.BoolVar(p, sw.name, *p, sw.usage)
	}
	fs.Float64Var(&e.holdAfter, "hold-after", float64(e.st.Sync.HoldAfter), flagrange.HoldAfter.Usage("seconds at the clamp's distance before the simulation is held back (a shorter lag drags the root)"))
	fs.Float64Var(&e.bend, "bend", float64(e.st.Warp.Turn), flagrange.Bend.Usage("how fast the root may turn beyond the clip where the search bends a clip round the asked path (0: never)"))
	fs.StringVar(&e.controller, "controller", "database", "what makes the poses and chooses them: database (the clips and the search) or learned (learned motion matching's networks)")
	fs.StringVar(&e.networks, "networks", "", "the learned controller's networks (a .lmm file of kinelab matching train; default: the embedded set's, assets/locomotion.lmm)")
	fs.StringVar(&e.dump, "dump", "", "write every tick of the run (root, simulation, prediction, warps, ankles and toes, contacts, locks, releases, transitions) to this CSV file; needs one --path and one --features")
	return fs
}

// check reads the flags into the runs' settings, sets and paths, or says
// which is wrong.
func (e *evalFlags) check() error {
	var err error
	if e.sets, err = evalSets(e.features); err != nil {
		return fmt.Errorf("--features: %w", err)
	}
	if e.paths, err = evalPaths(e.path); err != nil {
		return fmt.Errorf("--path: %w", err)
	}
	if err := flagrange.EvalSeconds.Check(e.seconds); err != nil {
		return err
	}
	// The seed is the random path's 32-bit state.
	if e.seed64 < 0 || e.seed64 > math.MaxUint32 {
		return fmt.Errorf("--seed %d: want 0 to %d", e.seed64, uint32(math.MaxUint32))
	}
	e.seed = uint32(e.seed64)
	if err := flagrange.HoldAfter.Check(e.holdAfter); err != nil {
		return err
	}
	e.st.Sync.HoldAfter = float32(e.holdAfter)
	if err := flagrange.Bend.Check(e.bend); err != nil {
		return err
	}
	e.st.Warp.Turn = float32(e.bend)
	tr, ok := evalTransitions[e.transition]
	if !ok {
		return fmt.Errorf("--transition: transition %q: want spring, cubic, dead-blend or none", e.transition)
	}
	e.st.Transition = tr
	switch {
	case e.controller != "database" && e.controller != "learned":
		return fmt.Errorf("--controller %q: want database or learned", e.controller)
	case e.networks != "" && e.controller != "learned":
		return errors.New("--networks: only the learned controller has networks (--controller learned)")
	}
	// A dump is one run's ticks: several runs would need columns naming
	// them, which a row per tick of one run does not.
	switch {
	case e.dump == "-":
		return errors.New("--dump -: the results go to stdout; name a file")
	case e.dump != "" && len(e.paths)*len(e.sets) != 1:
		return fmt.Errorf("--dump writes one run: give one --path and one --features (these ask for %d runs)", len(e.paths)*len(e.sets))
	}
	return nil
}

// learned reads the learned controller's networks (nil for the database
// controller): --networks, or the embedded set's; they must fit db, and
// the runs' feature set is theirs (--features all, or their set).
func (e *evalFlags) learned(db *matching.Database) (*matching.Networks, error) {
	if e.controller != "learned" {
		return nil, nil
	}
	var nets *matching.Networks
	var err error
	name := e.networks
	if name == "" {
		name = "the embedded set's networks"
		nets, err = matching.ReadNetworks(bytes.NewReader(assets.LocomotionNetworks()))
	} else if nets, err = matching.ReadNetworksFile(name); err != nil {
		return nil, fmt.Errorf("--networks: %w", err) // the error names the file
	}
	if err == nil {
		err = nets.Fits(db)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case e.features == "all":
		e.sets = []matching.Set{nets.Set}
	case len(e.sets) != 1 || e.sets[0] != nets.Set:
		return nil, fmt.Errorf("--features %s: the networks' features are %s", e.features, nets.Set)
	}
	return nets, nil
}

// evalSets are the feature sets --features names ("all": every one).
func evalSets(name string) ([]matching.Set, error) {
	if name == "all" {
		return []matching.Set{matching.Standard, matching.InertialSet, matching.Exact}, nil
	}
	s, err := matching.ParseSet(name)
	return []matching.Set{s}, err
}

// evalPaths are the paths --path names ("all": every one).
func evalPaths(name string) ([]matching.Path, error) {
	if name == "all" {
		var all []matching.Path
		for p := matching.Path(0); p < matching.NumPaths; p++ {
			all = append(all, p)
		}
		return all, nil
	}
	p, err := matching.ParsePath(name)
	return []matching.Path{p}, err
}

// evalRun is one run: a path, and the settings with its feature set.
type evalRun struct {
	path     matching.Path
	settings matching.Settings
}

// runs are the runs the flags ask for, path by path, set by set.
func (e *evalFlags) runs() []evalRun {
	var out []evalRun
	for _, p := range e.paths {
		for _, s := range e.sets {
			st := e.st
			st.Set = s
			out = append(out, evalRun{p, st})
		}
	}
	return out
}

// evalReport is what matching eval prints: the database and each run's
// measures.
type evalReport struct {
	Database string             `json:"database"`
	Frames   int                `json:"database_frames"`
	Seconds  float64            `json:"seconds"`
	Results  []matching.Metrics `json:"results"`
}

// print writes the report as a table, a row a run; tr is the transition
// every run used.
func (rep *evalReport) print(w io.Writer, tr animsys.TransitionKind) {
	ctl, mem := "database", 0.0
	if len(rep.Results) > 0 {
		ctl, mem = rep.Results[0].Controller, float64(rep.Results[0].MemoryBytes)/1e6
	}
	fmt.Fprintf(w, "motion matching on %s: %d database frames, %g s of scripted input, %s transitions, the %s controller (%.1f MB)\n",
		rep.Database, rep.Frames, rep.Seconds, transitionLabel(tr), ctl, mem)
	fmt.Fprintf(w, "%-8s %-9s %16s %13s %13s %17s %7s %22s %6s %6s %9s %8s %9s %15s %15s %5s\n", "path", "features",
		"lock cm/s (con)", "ankle toe c/s", "skate a t c/s", "traj 1s cm (sim)", "sync cm", "trans/s move idle set", "level", "turned", "disp cm*s", "bones mm",
		"red-blue", "search us p99", "brute us p99", "same")
	for _, r := range rep.Results {
		fmt.Fprintf(w, "%-8s %-9s %8.2f (%4.0f%%) %6s %6s %6.2f %6s %9.1f (%5.1f) %7.1f %7.2f %4.2f %4.2f %4.2f %6s %6s %9.2f %8.3f %9.3f %7.1f %6.1f %7.1f %6.1f %5v\n",
			r.Path, r.Set, r.FootSliding, 100*r.ContactShare, optional(r.AnkleSliding), optional(r.ToeSliding), r.AnkleSkating, optional(r.ToeSkating),
			r.TrajectoryError, r.SimTrajectoryError, r.SyncDistance,
			r.TransitionsPerSecond, r.TransitionsMoving, r.TransitionsIdle, r.TransitionsSettled, percent(r.Level), percent(r.Turned),
			r.Displacement, r.BoneLengthError, r.RedBlue,
			r.SearchMedian, r.SearchP99, r.BruteMedian, r.BruteP99, r.Same)
	}
	for _, r := range rep.Results {
		if r.Controller == "learned" {
			fmt.Fprintf(w, "%-8s learned controller: %.2f MB of networks; the decompressor's velocities off the exact ones by %s m/s, its pose %s cm from the frame it stands for\n",
				r.Path, float64(r.MemoryBytes)/1e6, optional(r.LearnedVelocity), optional(r.LearnedPose))
		}
	}
}

// optional formats a figure that may be absent (nil): "-" then.
func optional(x *float64) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", *x)
}

// percent formats a share that may be absent (nil) as a percentage: "-"
// then.
func percent(x *float64) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**x)
}

// evalTransitions are the transitions `matching eval --transition` takes,
// by name ("dead blend" also spelled with a hyphen).
var evalTransitions = map[string]animsys.TransitionKind{
	"spring": animsys.TransitionSpring, "cubic": animsys.TransitionCubic,
	"dead-blend": animsys.TransitionDeadBlend, "dead blend": animsys.TransitionDeadBlend,
	"none": animsys.TransitionCut,
}

// transitionLabel is how eval's report names transition kind k.
func transitionLabel(k animsys.TransitionKind) string {
	if k == animsys.TransitionCut {
		return "none"
	}
	return k.String()
}

// embeddedSource is the database source of the embedded locomotion set
// (assets.LocomotionCharacter), which has two legs and hips.
func embeddedSource() matching.Source {
	src, err := matching.SourceOf(assets.LocomotionCharacter())
	if err != nil {
		panic("the embedded locomotion set: " + err.Error())
	}
	return src
}

// matchingSource is the database source of files (the embedded locomotion
// set when there are none), their clips mirrored on request, and its name. The files
// of a skeleton other than most's (character.Load) are left out, each
// named with why on stderr; a file that fails to read is an error.
func matchingSource(files []string, mirror bool, stderr io.Writer) (matching.Source, string, error) {
	var src matching.Source
	name := "the embedded locomotion set"
	if len(files) == 0 {
		src = embeddedSource()
	} else {
		ch, err := character.Load(files, bvh.ReadOptions{})
		if err != nil {
			return src, "", character.FileErrors(err)[0]
		}
		for _, s := range ch.Skipped {
			fmt.Fprintf(stderr, "kinelab matching eval: %v\n", s)
		}
		for _, r := range ch.Repeated {
			fmt.Fprintf(stderr, "kinelab matching eval: %s\n", r)
		}
		if src, err = matching.SourceOf(ch); err != nil {
			return src, "", err
		}
		name = ch.Contents()
		if mirror {
			src = matching.Mirrored(src)
			name += ", mirrored"
		}
	}
	return src, name, nil
}

// evalDump is matching eval's --dump: a CSV file (written through an
// export.Output, so a failed run leaves what was at its path) of one row
// per tick (matching.TickRecord), columns in DumpColumns' order.
type evalDump struct {
	out *export.Output
	w   *csv.Writer
	db  *matching.Database
	row []string
}

// DumpColumns are the --dump file's columns: the tick's time (s), the
// database frame playing, its clip and time in it (s), whether the
// matcher transitioned (1) on the tick, the rate it played at, whether
// it stood idle, the warps' amounts (the stride's ratio, the turn in
// rad) and whether the search left a turn to the root; the root, the simulation and the
// root predicted a second on (m, ground plane), and the simulation only
// the input steers with its own prediction (the trajectory error's
// floor); then per foot (left_, right_) the output's ankle and toe and the source frame's (src_) in
// the world (m), and 0/1 for the lock's contact label, the lock holding
// the foot, the toe's lock holding the toe, the second definition's
// ankle and toe contact labels, and the ankle's lock letting go.
func DumpColumns() []string {
	cols := []string{"t_s", "frame", "clip", "clip_time_s", "transition", "rate", "idle", "stride_warp", "orient_warp_rad", "bent",
		"root_x_m", "root_z_m", "sim_x_m", "sim_z_m", "pred_1s_x_m", "pred_1s_z_m",
		"free_sim_x_m", "free_sim_z_m", "free_pred_1s_x_m", "free_pred_1s_z_m"}
	for _, side := range []string{"left", "right"} {
		for _, j := range []string{"ankle", "toe", "src_ankle", "src_toe"} {
			for _, a := range []string{"x", "y", "z"} {
				cols = append(cols, side+"_"+j+"_"+a+"_m")
			}
		}
		cols = append(cols, side+"_lock_contact", side+"_locked", side+"_toe_locked", side+"_ankle_contact", side+"_toe_contact", side+"_released")
	}
	return cols
}

// newEvalDump starts the dump at path, its header written.
func newEvalDump(path string, db *matching.Database) (*evalDump, error) {
	out, err := export.Create(path)
	if err != nil {
		return nil, err
	}
	d := &evalDump{out: out, w: csv.NewWriter(out), db: db}
	_ = d.w.Write(DumpColumns()) // a write error is kept by the csv.Writer: commit reports it
	return d, nil
}

// tick writes one row. A figure without toes leaves the toes' positions
// empty.
func (d *evalDump) tick(r *matching.TickRecord) {
	f := export.CSVFloat
	b := func(x bool) string {
		if x {
			return "1"
		}
		return "0"
	}
	c, fr := d.db.Locate(r.Frame)
	clip := &d.db.Clips[c]
	row := append(d.row[:0], export.CSVTime(r.Time), strconv.Itoa(r.Frame), clip.Name, f(float32(fr)*clip.FrameTime), b(r.Transition), f(r.Rate), b(r.Idle),
		f(r.Stride), f(r.Orient), b(r.Bent),
		f(r.Root[0]), f(r.Root[2]), f(r.Sim[0]), f(r.Sim[2]), f(r.Predicted[0]), f(r.Predicted[2]),
		f(r.FreeSim[0]), f(r.FreeSim[2]), f(r.FreePredicted[0]), f(r.FreePredicted[2]))
	toes := d.db.HasToes()
	for s := range r.Ankle {
		for k, p := range []mgl32.Vec3{r.Ankle[s], r.Toe[s], r.SourceAnkle[s], r.SourceToe[s]} {
			for a := range p {
				if k%2 == 1 && !toes {
					row = append(row, "")
				} else {
					row = append(row, f(p[a]))
				}
			}
		}
		row = append(row, b(r.LockContact[s]), b(r.Locked[s]), b(r.ToeLocked[s]), b(r.AnkleContact[s]), b(r.ToeContact[s]), b(r.Released[s]))
	}
	d.row = row
	_ = d.w.Write(row)
}

// commit flushes the rows and puts the file in place; after an error the
// path is as it was.
func (d *evalDump) commit() error {
	d.w.Flush()
	if err := d.w.Error(); err != nil {
		d.out.Abort()
		return err
	}
	return d.out.Commit()
}
