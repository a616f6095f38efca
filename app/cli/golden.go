package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"kinelab/animsys/golden"
)

const goldenSynopsis = "kinelab golden DIR [--check] [--json]"

// Golden runs `kinelab golden DIR`: it writes the reference data of
// package kinelab/animsys/golden into DIR (created if needed) — one JSON
// file of inputs and expected outputs per operation of the four articles,
// and a README.md with the conventions and the tolerance — and prints what
// it wrote. With --check it reads DIR's files instead and reproduces every
// case with animsys, printing per file the cases, the largest difference
// and the worst error over its tolerance; it exits 1 if any case is out of
// tolerance or a file is missing or malformed.
//
// Exit codes: 0 success, 1 a file not written, read or reproduced, 2 bad
// usage.
func Golden(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	stdout, finish := checkedStdout("kinelab golden", stdout, stderr, &code)
	defer finish()
	fs := newFlagSet("kinelab golden", goldenSynopsis,
		"Writes reference data for porting the articles: per operation a JSON file of inputs and\n"+
			"expected outputs, and a README.md of conventions and tolerance. --check reproduces DIR's\n"+
			"files with animsys instead.", stderr)
	check := fs.Bool("check", false, "reproduce the files in DIR with animsys instead of writing them")
	asJSON := fs.Bool("json", false, "with --check, print the results as JSON")
	pos, code := parseAnywhere(fs, args)
	if code >= 0 {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "kinelab golden: want one folder, got %d arguments\n", len(pos))
		fs.Usage()
		return ExitUsage
	}
	dir := pos[0]
	if *check {
		return goldenCheck(dir, *asJSON, stdout, stderr)
	}
	names, err := golden.Write(ctx, dir)
	if errors.Is(err, context.Canceled) {
		return ExitFail // main says it stopped
	}
	if err != nil {
		fmt.Fprintf(stderr, "kinelab golden: %v\n", err)
		return ExitFail
	}
	var size int64
	for _, n := range names {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil {
			size += st.Size()
		}
	}
	fmt.Fprintf(stdout, "%s: %d operations (one .json each) and README.md, %.1f MB; check a port against them with the README's tolerance\n",
		dir, len(names)-1, float64(size)/1e6)
	return ExitOK
}

func goldenCheck(dir string, asJSON bool, stdout, stderr io.Writer) int {
	results, err := golden.CheckDir(dir)
	if err != nil {
		fmt.Fprintf(stderr, "kinelab golden: %v\n", err)
		return ExitFail
	}
	pass := true
	for _, r := range results {
		pass = pass && r.Pass
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Results []golden.Result `json:"results"`
			Pass    bool            `json:"pass"`
		}{results, pass}); err != nil {
			fmt.Fprintf(stderr, "kinelab golden: %v\n", err)
			return ExitFail
		}
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "file\tcases\tnumbers\tmax |diff|\tworst/tol\t")
		for _, r := range results {
			verdict := "ok"
			if !r.Pass {
				verdict = "FAIL " + r.Where
			}
			fmt.Fprintf(tw, "%s.json\t%d\t%d\t%.3g\t%.3g\t%s\n", r.Op, r.Cases, r.Values, r.MaxAbs, r.Worst, verdict)
		}
		if err := tw.Flush(); err != nil {
			fmt.Fprintf(stderr, "kinelab golden: %v\n", err)
			return ExitFail
		}
	}
	if !pass {
		return ExitFail
	}
	return ExitOK
}
