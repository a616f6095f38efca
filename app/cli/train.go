package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"kinelab/animsys/export"
	"kinelab/animsys/matching"
)

// trainCheckpointEvery is how often (s) a training writes its checkpoint.
const trainCheckpointEvery = 60

// MatchingTrain runs `kinelab matching train`: the learned controller's
// networks trained on the database of the files given (the embedded set
// by default), phase after phase, with a progress line; a checkpoint
// beside the output (OUT.ckpt) every minute and at an interrupt, which a
// later run with the same flags resumes from. The output is written
// whole at the end or not at all.
func MatchingTrain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var f trainFlags
	fs := f.define(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "kinelab matching train: "+format+"\n", a...)
		return code
	}
	if err := f.check(); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	src, name, err := matchingSource(fs.Args(), f.mirror, stderr)
	if err != nil {
		return fail(ExitFail, "%v", err)
	}
	db, err := matching.NewDatabase(src, matching.DefaultWeights, matching.DefaultSettings().Halflife)
	if err != nil {
		return fail(ExitFail, "%s: %v", name, err)
	}
	tr, err := matching.NewTrainer(db, f.cfg)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	ckpt := f.out + ".ckpt"
	if err := resume(tr, ckpt, f.fresh, stderr); err != nil {
		return fail(ExitFail, "%v", err)
	}
	fmt.Fprintf(stderr, "training on %s (%d frames), width %d, batch %d\n", name, db.Frames, f.cfg.Width, f.cfg.Batch)
	budget := matching.Budget{Steps: f.steps, Seconds: f.minutes * 60}
	started, last := time.Now(), time.Now()
	var ckErr error
	report := func(p matching.Progress) {
		fmt.Fprintf(stderr, "%-12s %5.1f%% step %6d  loss %.4f (%.4f %.4f %.4f %.4f)  %s left\n", matching.PhaseNames[p.Phase], 100*min(p.Done, 1), p.Step,
			p.Loss, p.Parts[0], p.Parts[1], p.Parts[2], p.Parts[3], left(tr, budget))
		if time.Since(last) > trainCheckpointEvery*time.Second {
			ckErr = errors.Join(ckErr, writeCheckpoint(tr, ckpt))
			last = time.Now()
		}
	}
	err = tr.Run(ctx, budget, 50, report)
	if ckErr != nil {
		fmt.Fprintf(stderr, "kinelab matching train: checkpoint: %v\n", ckErr)
	}
	if err != nil { // interrupted: keep where it is
		if e := writeCheckpoint(tr, ckpt); e != nil {
			return fail(ExitFail, "stopped (%v); the checkpoint could not be written: %v", err, e)
		}
		return fail(ExitFail, "stopped (%v) at %s step %d; %s resumes it", err, phaseName(tr.Phase), tr.Step, ckpt)
	}
	if err := writeNetworks(tr, f.out); err != nil {
		return fail(ExitFail, "%v", err)
	}
	os.Remove(ckpt) // done: nothing to resume
	fmt.Fprintf(stdout, "%s: networks for %s, trained in %s\n", f.out, name, time.Since(started).Round(time.Second))
	return ExitOK
}

// trainFlags are matching train's flags, read into the training's
// configuration by check.
type trainFlags struct {
	cfg           matching.TrainConfig
	minutes       float64
	steps         int
	seed          int64
	out, features string
	mirror, fresh bool
}

// define makes the flag set, bound to f.
func (f *trainFlags) define(stderr io.Writer) *flag.FlagSet {
	fs := newFlagSet("kinelab matching train",
		"kinelab matching train [--minutes M] [--out FILE.lmm] [--width W] [--batch B] [--seed N] [--features inertial|standard]\n"+
			"       [--mirror=false] [--fresh] [FILES or FOLDERS...]",
		"Trains learned motion matching's networks (decompressor, stepper, projector; Holden et al.\n"+
			"2020) on the database of the BVH files given (the embedded locomotion set by default,\n"+
			"captures mirrored unless --mirror=false, as eval builds it), on every core, for --minutes:\n"+
			"the decompressor half of them, the stepper and the projector a quarter each. A progress\n"+
			"line says each phase's loss and its parts and the time left; OUT.ckpt is written every\n"+
			"minute and at an interrupt, and the same command resumes from it (--fresh starts\n"+
			"afresh); OUT is written whole at the end. eval --controller learned --networks OUT and\n"+
			"the app's --networks OUT play them on the same files.", stderr)
	f.cfg = matching.DefaultTrain
	fs.Float64Var(&f.minutes, "minutes", 30, "how long to train (min), shared among the phases: decompressor half, stepper and projector a quarter each")
	fs.IntVar(&f.steps, "steps", 0, "train each phase this many steps instead of for --minutes (repeatable, for tests)")
	fs.StringVar(&f.out, "out", "networks.lmm", "the networks file to write")
	fs.IntVar(&f.cfg.Width, "width", 256, "hidden units of each network's layers (the reference demo's are 512)")
	fs.IntVar(&f.cfg.Batch, "batch", f.cfg.Batch, "frames a step learns from")
	fs.Int64Var(&f.seed, "seed", int64(f.cfg.Seed), "random seed")
	fs.StringVar(&f.features, "features", "inertial", "the feature set the networks' features are (standard or inertial)")
	fs.BoolVar(&f.mirror, "mirror", true, "add every capture's clips mirrored left/right to the database, as eval does")
	fs.BoolVar(&f.fresh, "fresh", false, "start afresh even where a checkpoint of this training exists")
	return fs
}

// check reads the flags into the configuration, or says which is wrong.
func (f *trainFlags) check() error {
	set, err := matching.ParseSet(f.features)
	switch {
	case err != nil:
		return fmt.Errorf("--features: %w", err)
	case !(f.minutes > 0 && f.minutes <= 7*24*60) && f.steps == 0:
		return fmt.Errorf("--minutes %g: want more than 0, at most a week", f.minutes)
	case f.steps < 0 || f.cfg.Width < 1 || f.cfg.Width > 4096 || f.cfg.Batch < 1 || f.cfg.Batch > 4096:
		return errors.New("--steps, --width or --batch out of range (steps >= 0, width and batch 1-4096)")
	case f.seed < 0 || f.seed > 1<<32-1:
		return fmt.Errorf("--seed %d: want 0 to 4294967295", f.seed)
	}
	f.cfg.Seed, f.cfg.Set = uint32(f.seed), set
	return nil
}

// resume reads the checkpoint at path into tr, where there is one and a
// fresh start is not asked for.
func resume(tr *matching.Trainer, path string, fresh bool, stderr io.Writer) error {
	if fresh {
		return nil
	}
	switch err := tr.ReadCheckpointFile(path); {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w (--fresh starts afresh)", path, err)
	}
	fmt.Fprintf(stderr, "resuming from %s: %s, step %d\n", path, phaseName(tr.Phase), tr.Step)
	return nil
}

// writeNetworks writes tr's networks to path whole, or leaves what was
// there.
func writeNetworks(tr *matching.Trainer, path string) error {
	o, err := export.Create(path)
	if err != nil {
		return err
	}
	defer o.Abort()
	if err := tr.Networks().Write(o); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return o.Commit()
}

// phaseName names a training's phase (done past the last).
func phaseName(p int) string {
	if p < matching.NumPhases {
		return matching.PhaseNames[p]
	}
	return "done"
}

// left is the training's time left, by its budget: the phases' shares of
// the time not yet spent, or for a budget in steps, this run's pace.
func left(tr *matching.Trainer, b matching.Budget) string {
	if b.Steps > 0 {
		return "-"
	}
	var s float64
	for p := tr.Phase; p < matching.NumPhases; p++ {
		s += max(b.Seconds*matching.PhaseShare[p]-tr.Spent[p], 0)
	}
	return (time.Duration(s) * time.Second).Round(time.Second).String()
}

// writeCheckpoint writes tr's checkpoint to path whole, or leaves what
// was there.
func writeCheckpoint(tr *matching.Trainer, path string) error {
	o, err := export.Create(path)
	if err != nil {
		return err
	}
	defer o.Abort()
	if err := tr.WriteCheckpoint(o); err != nil {
		return err
	}
	return o.Commit()
}
