package verify

import (
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
	return Run(&skel, Cases(&skel, BenchRoles()), BenchClips())
}
