package animsys_test

import (
	"testing"

	"kinelab/animsys"
	"kinelab/animsys/verify"
)

// Every velocity-propagating operation, evaluated at t-h and t+h with its
// inputs moving consistently, against its propagated velocities at t: the
// harness and the tolerances (with their reasons) are in package verify
// (cases.go); the clips are four bench-spec seeds, with non-unit and
// changing scales on joints 7, 11 and 17.
func TestVelocitiesMatchCentralDifference(t *testing.T) {
	skel := animsys.BenchSkeleton()
	clips := verify.BenchClips()
	for _, cs := range verify.Cases(&skel, verify.BenchRoles()) {
		t.Run(cs.Name, func(t *testing.T) {
			rep := verify.Run(&skel, []verify.Case{cs}, clips)
			for _, s := range rep.Stats {
				if s.Checked && !s.Pass {
					t.Errorf("%s", s)
				} else if testing.Verbose() {
					t.Logf("%s", s)
				}
			}
		})
	}
}
