// Command kinelab is an interactive playground for the mathematics of
// real-time character animation: velocities propagated through animation
// systems, tracking springs, scalar velocity and inertialization transition
// cost. See README.md.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"kinelab/animsys/export"
	"kinelab/app"
	"kinelab/app/cli"
	"kinelab/app/labs"
)

func main() {
	// Ctrl-C (or a kill) during an export, a --csv run or a screenshot
	// leaves no temporary file beside the output: every output is written
	// through export.Create, which the handler cleans up after.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		export.RemovePartial()
		fmt.Fprintf(os.Stderr, "kinelab: %v: stopped; no partial output left\n", s)
		os.Exit(130)
	}()
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "verify":
			return cli.Verify(args[1:], os.Stdout, os.Stderr)
		case "bench":
			return cli.Bench(args[1:], os.Stdout, os.Stderr)
		case "bvh":
			return cli.BVH(args[1:], os.Stdout, os.Stderr)
		case "export":
			return cli.Export(args[1:], os.Stdout, os.Stderr)
		case "info":
			return cli.Info(args[1:], os.Stdout, os.Stderr)
		case "matching":
			return cli.Matching(args[1:], os.Stdout, os.Stderr)
		case "golden":
			return cli.Golden(args[1:], os.Stdout, os.Stderr)
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
	return app.Run(cfg, labs.All())
}
