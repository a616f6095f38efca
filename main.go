// Command kinelab is an interactive playground for the mathematics of
// real-time character animation. A raylib window shows a skinned
// character, its skeleton and live signal plots while kinelab's animsys
// core ticks springs, blends, inertializers and forward kinematics with
// velocities every frame; sliders change gains and half-lives live.
// Propagated velocities are drawn in red beside finite-difference
// velocities in blue, so you can see why propagation wins at teleports,
// resets and quick blends. It implements four articles: propagating
// velocities through animation systems, perfect tracking with springs,
// scalar velocity, and inertialization transition cost.
//
// `make run` opens the app on the embedded default character, `make test`
// runs what CI runs; README.md is the front door and docs/ the reference.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"kinelab/animsys/export"
	"kinelab/app"
	"kinelab/app/cli"
	"kinelab/app/labs"
)

func main() {
	args := os.Args[1:]
	// A write to a closed pipe returns EPIPE instead of killing the
	// process (exit 141), which would leave temporary files: the commands
	// say what was lost and exit 1 (cli's checkedStdout).
	signal.Ignore(syscall.SIGPIPE)
	ctx, interrupted := stopOnSignal(writesFiles(args))
	code := run(ctx, args)
	if s := interrupted(); s != nil {
		fmt.Fprintf(os.Stderr, "kinelab: %v: stopped; no partial output left\n", s)
		code = 130
	}
	os.Exit(code)
}

// stopOnSignal handles the first interrupt (Ctrl-C, SIGTERM, SIGHUP,
// SIGQUIT). SIGQUIT is taken like SIGTERM rather than Go's default (a
// goroutine dump and exit 2), which would leave temporary files; a second
// SIGQUIT still dumps the goroutines of a command stuck giving up. A
// command that writes files (graceful) is told through the returned
// context and stops at its next check, giving up what it was writing:
// every output is written beside its target and put in place only by its
// Commit, so the deferred Abort leaves the target as it was and no
// temporary file; the window closes as with Esc, saving the settings.
// Should it not return within gracePeriod, the process exits. Any other
// command exits at once (130), its temporary outputs removed (matching
// eval's --dump). A second signal ends the process at once.
// interrupted tells which signal arrived, nil if none.
func stopOnSignal(graceful bool) (ctx context.Context, interrupted func() os.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	var got atomic.Pointer[os.Signal]
	go func() {
		s := <-sig
		signal.Stop(sig) // the default action again: a second signal ends the process
		got.Store(&s)
		if !graceful {
			// matching eval --dump writes as it goes without watching ctx
			// (its runs are seconds): its temporary file goes too.
			export.RemoveTemporary()
			fmt.Fprintf(os.Stderr, "kinelab: %v: stopped\n", s)
			os.Exit(130)
		}
		cancel()
		time.Sleep(gracePeriod)
		export.RemoveTemporary() // what a command still busy would have given up
		fmt.Fprintf(os.Stderr, "kinelab: %v: stopped (still busy after %v)\n", s, gracePeriod)
		os.Exit(130)
	}()
	return ctx, func() os.Signal {
		if s := got.Load(); s != nil {
			return *s
		}
		return nil
	}
}

// closedStdout is a standard output that was closed when kinelab
// started (stdoutClosed): every write fails, so a command that writes to
// it says so and exits 1 instead of writing into nothing.
type closedStdout struct{}

func (closedStdout) Write([]byte) (int, error) {
	return 0, errors.New("standard output is closed (kinelab started without one)")
}

// gracePeriod is how long an interrupted command that writes files has to
// give them up.
const gracePeriod = 5 * time.Second

// writesFiles reports whether the command line writes files as it goes
// (and so stops at an interrupt through its context rather than at once):
// the app (settings, --csv, screenshots), export, bvh export, golden and
// matching train.
func writesFiles(args []string) bool {
	if len(args) == 0 {
		return true
	}
	switch args[0] {
	case "bvh":
		return len(args) > 1 && args[1] == "export"
	case "matching": // train writes its checkpoint as it stops
		return len(args) > 1 && args[1] == "train"
	case "verify", "bench", "info":
		return false
	}
	return true
}

func run(ctx context.Context, args []string) int {
	// A panic (a bug: every input is refused before one can happen) still
	// leaves no temporary file: removed before the panic goes on.
	defer func() {
		if p := recover(); p != nil {
			export.RemoveTemporary()
			panic(p)
		}
	}()
	var stdout io.Writer = os.Stdout
	if stdoutClosed() {
		stdout = closedStdout{}
	}
	if len(args) > 0 {
		switch args[0] {
		case "verify":
			return cli.Verify(ctx, args[1:], stdout, os.Stderr)
		case "bench":
			return cli.Bench(ctx, args[1:], stdout, os.Stderr)
		case "bvh":
			return cli.BVH(ctx, args[1:], stdout, os.Stderr)
		case "export":
			return cli.Export(ctx, args[1:], stdout, os.Stderr)
		case "retarget":
			return cli.Retarget(ctx, args[1:], stdout, os.Stderr)
		case "info":
			return cli.Info(ctx, args[1:], stdout, os.Stderr)
		case "matching":
			return cli.Matching(ctx, args[1:], stdout, os.Stderr)
		case "golden":
			return cli.Golden(ctx, args[1:], stdout, os.Stderr)
		}
	}
	cfg, err := app.ParseFlags(args, os.Stderr, labs.All())
	if app.IsHelp(err) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
		return 2
	}
	return app.Run(ctx, cfg, labs.All())
}
