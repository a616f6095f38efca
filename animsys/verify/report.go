package verify

import (
	"fmt"
	"io"
)

// WriteText writes the report as a table, one line per operation and
// velocity ending with its worst sample, then the data jumps and the
// operations' seams left out, then a verdict line.
func WriteText(w io.Writer, rep Report) error {
	var err error
	pr := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	pr("velocities vs central finite difference (h = %g s) over clips %v\n", rep.H, rep.Clips)
	failed := 0
	for _, s := range rep.Stats {
		pr("%s\n", s)
		if s.Checked && !s.Pass {
			failed++
		}
	}
	if len(rep.Excluded) > 0 {
		pr("left out: %d data jumps (the samples reading them, for that joint and, through the hierarchy, its descendants):\n", len(rep.Excluded))
		for _, e := range rep.Excluded {
			pr("  %s\n", e)
		}
	}
	if len(rep.Seams) > 0 {
		pr("left out: %d samples at a seam of the operation (its output jumps there by design):\n", len(rep.Seams))
		for _, s := range rep.Seams {
			pr("  %s\n", s)
		}
	}
	if failed > 0 {
		pr("FAIL: %d checks exceed their tolerance\n", failed)
	} else {
		pr("PASS: every checked velocity is within tolerance\n")
	}
	return err
}
