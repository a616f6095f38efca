package app

import (
	"context"
	"fmt"
	"os"
)

// drawsNothing reports whether a run only writes data: --csv without a
// screenshot. Such a run ticks without a window, so it needs no display.
func (c Config) drawsNothing() bool { return c.CSV != "" && c.Screenshot == "" }

// runHeadless is Run for a run that draws nothing (--csv without
// --screenshot): the same frames as a windowed --frames run — each counts
// 1/60 s of real time, --do actions run at their frames, the clock turns
// it into the lab's updates and each update writes its CSV rows — in a
// plain loop, with no window, no input and no drawing, so no display is
// needed (InitWindow is never called). Without --frames a lab whose entry
// gives CSVFrames (the Transition-cost lab's grid) runs that many frames;
// any other lab needs --frames, one row per tick. Interrupted (ctx done),
// it writes no --csv file.
func runHeadless(ctx context.Context, cfg Config, labs []LabEntry) int {
	a := New(cfg, labs)
	if err := a.startSettings(); err != nil { // only --settings FILE: a scripted run
		fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
		return 1
	}
	if !a.startOnto(cfg) || len(cfg.Files) > 0 && !a.Load(cfg.Files) {
		// Exit 1 with the --csv file as it was: rows of the default
		// character would pass for the file's.
		a.unload()
		return 1
	}
	lab := a.Lab()
	if cfg.Frames == 0 {
		n := a.entries[a.cur].CSVFrames
		if n <= 0 {
			fmt.Fprintf(os.Stderr, "kinelab: --csv %q needs --frames N for lab %s: it writes one row per tick (only a lab that writes a table does without)\n", cfg.CSV, lab.Name())
			a.unload()
			return 2
		}
		a.cfg.Frames = n // frames of a headless run's 1/60 s
	}
	out, err := CreateCSV(cfg.CSV, lab)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
		a.unload()
		return 1
	}
	a.out.csv = out
	for a.frames < a.cfg.Frames {
		if ctx.Err() != nil {
			a.unload()
			a.out.csv.Abort()
			return 1
		}
		a.tick()
		a.frames++
	}
	a.unload()
	if err := a.out.csv.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "kinelab: %v\n", err)
		return 1
	}
	return 0
}

// unload stops what the labs started (the Crowd lab's workers) when no
// window was opened; GPU resources were never made.
func (a *App) unload() {
	for _, l := range a.labs {
		if l != nil {
			l.Unload()
		}
	}
}
