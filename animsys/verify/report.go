package verify

import (
	"fmt"
	"io"
	"kinelab/animsys/words"

	"kinelab/animsys"
)

// Where names one checked sample.
type Where struct {
	Clip  string  `json:"clip"`
	Time  float64 `json:"time"`  // s, the operation's time
	Frame int     `json:"frame"` // the clip frame starting the interval sampled
	Joint string  `json:"joint"`
}

func (w Where) String() string {
	return fmt.Sprintf("%s t=%.4fs frame %d %s", w.Clip, w.Time, w.Frame, w.Joint)
}

// Stat is the error of one operation and quantity.
type Stat struct {
	Op       string  `json:"op"`
	Article  string  `json:"article"`
	Space    string  `json:"space"`
	Quantity string  `json:"quantity"`
	Unit     string  `json:"unit"`
	Max      float64 `json:"max"`
	Mean     float64 `json:"mean"`
	Scale    float64 `json:"scale"`     // max |velocity| seen, for context
	Tol      float64 `json:"tolerance"` // absolute part of the tolerance
	TolRel   float64 `json:"tolerance_rel"`
	Worst    float64 `json:"worst"` // max error / tolerance; pass when <= 1
	// At is the worst sample: of Worst when checked, else of Max.
	At      Where `json:"at"`
	Checked bool  `json:"checked"`
	Pass    bool  `json:"pass"`
	Samples int   `json:"samples"`
	// Excluded counts the samples (time x joint) left out because the
	// frames they read hold a data jump (Report.Excluded).
	Excluded int `json:"excluded"`
	// AtSeam counts the samples left out because the operation's blend
	// switches sides inside the stencil (Report.Seams).
	AtSeam int `json:"at_seam"`
	// FineMax, for first-order operations, is Max with a ten times finer
	// step; they pass when at every sample the fine error is within a
	// fifth of the coarse error plus the tolerance.
	FineMax float64 `json:"fine_max,omitempty"`
	Why     string  `json:"why"` // the tolerance's reason
}

// Report is the result of a verification run.
type Report struct {
	Clips []string `json:"clips"`
	H     float64  `json:"h"`
	// Intervals is the most frame intervals checked per clip, spread
	// evenly over a longer one.
	Intervals int    `json:"intervals"`
	Stats     []Stat `json:"stats"`
	// Excluded are the data jumps found in the clips; samples that read
	// them are left out (Stat.Excluded).
	Excluded []animsys.DataEvent `json:"excluded"`
	// Seams are the samples where an operation's shortest-arc blend
	// switches sides (Case.Seams), left out (Stat.AtSeam).
	Seams []Seam `json:"seams"`
	Pass  bool   `json:"pass"`
	// LengthScale is the character's size over the bench skeleton's
	// (LengthScale): linear tolerances are multiplied by it. Omitted at
	// 1, the bench's own.
	LengthScale float64 `json:"length_scale,omitempty"`
}

// Seam is a sample at which an operation's shortest-arc blend switches
// sides for a joint: its output jumps there by design.
type Seam struct {
	Op string `json:"op"`
	Where
	Reason string `json:"reason"`
}

func (s Seam) String() string { return fmt.Sprintf("%s at %s: %s", s.Op, s.Where, s.Reason) }

// String formats a stat as one line of the text report, ending with its
// worst sample.
func (s Stat) String() string {
	verdict := "ok"
	switch {
	case !s.Checked:
		verdict = "info"
	case !s.Pass:
		verdict = "FAIL"
	}
	tol := "-"
	if s.Checked {
		tol = fmt.Sprintf("%.0e+%.0e|v|", s.Tol, s.TolRel)
	}
	if s.FineMax > 0 {
		tol = fmt.Sprintf("1st order: %.2e at step/10", s.FineMax)
	}
	worst := ""
	if s.Checked {
		worst = fmt.Sprintf(" %.2fx", s.Worst)
	}
	return fmt.Sprintf("%-20s %-6s %-8s %-6s max %.2e mean %.2e  tol %-14s %-5s%s |v|<=%.2f  worst: %s",
		s.Op, s.Space, s.Quantity, s.Unit, s.Max, s.Mean, tol, verdict, worst, s.Scale, s.At)
}

// InUnit names the linear velocities in length unit per second: a
// character's Unit ("units" for a figure that is no body in metres,
// whose lengths stay in its file's unit), "m" by default. The values
// are in that unit already.
func (r *Report) InUnit(unit string) {
	if unit == "" || unit == "m" {
		return
	}
	for i := range r.Stats {
		if r.Stats[i].Quantity == Linear.String() {
			r.Stats[i].Unit = unit + "/s"
		}
	}
}

// Failed is the number of checks that exceed their tolerance.
func (r Report) Failed() int {
	n := 0
	for _, s := range r.Stats {
		if s.Checked && !s.Pass {
			n++
		}
	}
	return n
}

// Worst is the checked stat nearest its tolerance, or past it furthest
// (the largest Worst), and false when nothing was checked.
func (r Report) Worst() (Stat, bool) {
	var w Stat
	found := false
	for _, s := range r.Stats {
		if s.Checked && (!found || s.Worst > w.Worst) {
			w, found = s, true
		}
	}
	return w, found
}

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
	pr("velocities vs central finite difference (h = %g s) over clips %v, at most %d frame intervals a clip", rep.H, rep.Clips, rep.Intervals)
	if rep.LengthScale != 0 && rep.LengthScale != 1 {
		pr("; linear tolerances x%.3g, the character's size over the bench skeleton's", rep.LengthScale)
	}
	pr("\n")
	for _, s := range rep.Stats {
		pr("%s\n", s)
	}
	if len(rep.Excluded) > 0 {
		pr("left out: %d data jumps (the samples reading them, for that joint and, through the hierarchy, its descendants):\n", len(rep.Excluded))
		for _, e := range rep.Excluded {
			pr("  %s\n", e)
		}
	}
	if len(rep.Seams) > 0 {
		pr("left out: %s at a seam of the operation (its output jumps there by design):\n", words.Count(len(rep.Seams), "sample"))
		for _, s := range rep.Seams {
			pr("  %s\n", s)
		}
	}
	if failed := rep.Failed(); failed > 0 {
		pr("FAIL: %d checks exceed their tolerance\n", failed)
	} else {
		pr("PASS: every checked velocity is within tolerance\n")
	}
	return err
}
