package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/matching"
	"kinelab/assets"
)

// Matching runs `kinelab matching eval ...`: the motion-matching lab's
// database driven headless by a scripted input, once per feature set,
// with what each run measures.
func Matching(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	if len(args) == 0 || args[0] != "eval" {
		fmt.Fprintln(stderr, "usage: kinelab matching eval [flags] [FILES or FOLDERS...]  (kinelab matching eval -h for the flags)")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			return ExitOK
		}
		return ExitUsage
	}
	stdout, finish := checkedStdout("kinelab matching eval", stdout, stderr, &code)
	defer finish()
	fs := newFlagSet("kinelab matching eval",
		"kinelab matching eval [--features standard|inertial|exact|all] [--path circle|zigzag|stop-go|random|all]\n"+
			"       [--seconds S] [--seed N] [--mirror=false] [--transition spring|cubic|dead-blend|none] [--json] [FILES or FOLDERS...]",
		"Replays one scripted input through the motion-matching lab's database, once per\n"+
			"feature set, and prints per set: foot sliding (cm/s of a foot its frame labels in\n"+
			"contact, and the share of foot-ticks so labelled), the position error of the\n"+
			"predicted trajectory after 1 s (cm; in brackets the simulation's own, the part the\n"+
			"input's changes make), the root's mean distance from the simulation (cm),\n"+
			"transitions per second (in all, moving, idle at rest), the feet's mean\n"+
			"inertialized displacement per transition (cm*s), the largest bone-length error\n"+
			"(mm), the mean |red - blue| (m/s), search time (median and p99 in us, with the\n"+
			"index and by brute force, and whether brute force chose the same frames) and the\n"+
			"database's frames. The database is the embedded locomotion set, or the BVH files\n"+
			"given (a folder gives its .bvh files), mirrored unless --mirror=false: those of\n"+
			"the skeleton most of them share; each file left out is named on stderr.", stderr)
	features := fs.String("features", "all", "feature set: standard, inertial, exact or all")
	pathName := fs.String("path", "random", "scripted input: circle, zigzag, stop-go, random or all")
	seconds := fs.Float64("seconds", 60, "seconds of input to replay (1-3600)")
	seed := fs.Int64("seed", 1, "seed of the random path (0-4294967295)")
	mirror := fs.Bool("mirror", true, "add every capture's clips mirrored left/right to the database (as the reference mirrors its captures; the embedded set turns both ways already)")
	trans := fs.String("transition", "spring", "transition: spring, cubic, dead-blend or none")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinelab matching eval: "+format+"\n", a...)
		return ExitUsage
	}
	var sets []matching.Set
	if *features == "all" {
		sets = []matching.Set{matching.Standard, matching.InertialSet, matching.Exact}
	} else {
		s, err := matching.ParseSet(*features)
		if err != nil {
			return usage("--features: %v", err)
		}
		sets = []matching.Set{s}
	}
	var paths []matching.Path
	if *pathName == "all" {
		for p := matching.Path(0); p < matching.NumPaths; p++ {
			paths = append(paths, p)
		}
	} else {
		p, err := matching.ParsePath(*pathName)
		if err != nil {
			return usage("--path: %v", err)
		}
		paths = []matching.Path{p}
	}
	// An hour of input is 216,000 ticks, each searched: longer is a typo.
	if !(*seconds >= 1 && *seconds <= 3600) {
		return usage("--seconds %v: want 1 to 3600", *seconds)
	}
	// The seed is the random path's 32-bit state.
	if *seed < 0 || *seed > math.MaxUint32 {
		return usage("--seed %d: want 0 to %d", *seed, uint32(math.MaxUint32))
	}
	tr, ok := evalTransitions[*trans]
	if !ok {
		return usage("--transition: transition %q: want spring, cubic, dead-blend or none", *trans)
	}
	src, name, err := matchingSource(fs.Args(), *mirror, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "kinelab matching eval: %v\n", err)
		return ExitFail
	}
	st := matching.DefaultSettings()
	st.Transition = tr
	db, err := matching.NewDatabase(src, matching.DefaultWeights, st.Halflife)
	if err != nil {
		fmt.Fprintf(stderr, "kinelab matching eval: %s: %v\n", name, err)
		return ExitFail
	}
	if short := db.ShortClips(); short != "" {
		fmt.Fprintf(stderr, "kinelab matching eval: too short to search, only played: %s\n", short)
	}
	type report struct {
		Database string             `json:"database"`
		Frames   int                `json:"database_frames"`
		Seconds  float64            `json:"seconds"`
		Results  []matching.Metrics `json:"results"`
	}
	rep := report{Database: name, Frames: db.Frames, Seconds: *seconds}
	for _, p := range paths {
		for _, s := range sets {
			st.Set = s
			rep.Results = append(rep.Results, matching.Eval(db, st, p, float32(*seconds), uint32(*seed)))
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep) // a write error fails the command through checkedStdout
		return ExitOK
	}
	fmt.Fprintf(stdout, "motion matching on %s: %d database frames, %g s of scripted input, %s transitions\n",
		name, db.Frames, *seconds, transitionLabel(tr))
	fmt.Fprintf(stdout, "%-8s %-9s %16s %17s %7s %17s %9s %8s %9s %15s %15s %5s\n", "path", "features",
		"slide cm/s (con)", "traj 1s cm (sim)", "sync cm", "trans/s move idle", "disp cm*s", "bones mm",
		"red-blue", "search us p99", "brute us p99", "same")
	for _, r := range rep.Results {
		fmt.Fprintf(stdout, "%-8s %-9s %8.2f (%4.0f%%) %9.1f (%5.1f) %7.1f %7.2f %4.2f %4.2f %9.2f %8.3f %9.3f %7.1f %6.1f %7.1f %6.1f %5v\n",
			r.Path, r.Set, r.FootSliding, 100*r.ContactShare, r.TrajectoryError, r.SimTrajectoryError, r.SyncDistance,
			r.TransitionsPerSecond, r.TransitionsMoving, r.TransitionsIdle, r.Displacement, r.BoneLengthError, r.RedBlue,
			r.SearchMedian, r.SearchP99, r.BruteMedian, r.BruteP99, r.Same)
	}
	return ExitOK
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
