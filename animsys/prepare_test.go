package animsys

import (
	"math/rand"
	"testing"
)

// Sampling a prepared clip gives the same bits as sampling it without the
// cache, anywhere in the clip and beyond its ends.
func TestPrepareIsBitIdentical(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, seed := range []uint32{1, 2, 100} {
		prepared := GenerateBenchClip(seed)
		plain := prepared
		plain.rotD, plain.sclD = nil, nil
		if !prepared.prepared() || plain.prepared() {
			t.Fatal("cache state not as set up")
		}
		n := prepared.Joints
		a, b := NewPose(n), NewPose(n)
		for k := 0; k < 2000; k++ {
			tm := (r.Float32()*1.1 - 0.05) * prepared.Duration()
			for _, cubic := range []bool{true, false} {
				if cubic {
					SampleCubic(&a, &prepared, tm)
					SampleCubic(&b, &plain, tm)
				} else {
					SampleLinear(&a, &prepared, tm)
					SampleLinear(&b, &plain, tm)
				}
				for j := 0; j < n; j++ {
					if a.Pos[j] != b.Pos[j] || a.Rot[j] != b.Rot[j] || a.Scl[j] != b.Scl[j] ||
						a.Vel[j] != b.Vel[j] || a.Ang[j] != b.Ang[j] || a.Svl[j] != b.Svl[j] {
						t.Fatalf("seed %d t %v cubic %v joint %d: prepared and plain sampling differ", seed, tm, cubic, j)
					}
				}
			}
		}
	}
}
