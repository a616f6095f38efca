package verify

import (
	"testing"

	"kinelab/animsys"
)

func TestQuick(t *testing.T) {
	skel := animsys.BenchSkeleton()
	var clips []*animsys.Clip
	for _, s := range []uint32{1, 2, 3} {
		c := animsys.GenerateBenchClip(s)
		clips = append(clips, &c)
	}
	rep := Run(Cases(&skel), clips)
	for _, s := range rep.Stats {
		t.Log(s)
	}
}
