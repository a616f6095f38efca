package verify

import (
	"fmt"
	"io"

	"kinelab/animsys"
)

// BenchSeeds are the bench-spec clip seeds verified by default: clips A
// and B of the benchmark and two of the crowd's library.
var BenchSeeds = []uint32{1, 2, 100, 163}

// BenchClips generates the bench-spec clips of the given seeds (BenchSeeds
// if none), the clips `kinelab verify` checks until real clips are embedded.
func BenchClips(seeds ...uint32) []*animsys.Clip {
	if len(seeds) == 0 {
		seeds = BenchSeeds
	}
	clips := make([]*animsys.Clip, len(seeds))
	for i, s := range seeds {
		c := animsys.GenerateBenchClip(s)
		clips[i] = &c
	}
	return clips
}

// RunBench verifies every operation over the bench clips of BenchSeeds on
// the bench skeleton.
func RunBench() Report {
	skel := animsys.BenchSkeleton()
	return Run(Cases(&skel), BenchClips())
}

// WriteText writes the report as a table, one line per operation and
// velocity, then a verdict line.
func WriteText(w io.Writer, rep Report) error {
	if _, err := fmt.Fprintf(w, "velocities vs central finite difference (h = %g s) over clips %v\n", rep.H, rep.Clips); err != nil {
		return err
	}
	for _, s := range rep.Stats {
		if _, err := fmt.Fprintln(w, s); err != nil {
			return err
		}
	}
	failed := 0
	for _, s := range rep.Stats {
		if s.Checked && !s.Pass {
			failed++
		}
	}
	verdict := "PASS: every checked velocity is within tolerance"
	if failed > 0 {
		verdict = fmt.Sprintf("FAIL: %d checks exceed their tolerance", failed)
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}
