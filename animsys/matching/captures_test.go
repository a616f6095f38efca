package matching

import (
	"math"
	"os"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
)

// locomotionDir holds the real captures (../shared/locomotion, beside the
// repository; never copied into it).
const locomotionDir = "../../../shared/locomotion"

// TestCapturesDatabase: the folder of Bandai captures loads as one
// character, builds a database (and a mirrored one), and every feature set
// drives it on every path with the index choosing what brute force
// chooses, finite measures, and bones that keep their lengths.
func TestCapturesDatabase(t *testing.T) {
	if _, err := os.Stat(locomotionDir); err != nil {
		t.Skipf("no %s (the shared locomotion captures): %v", locomotionDir, err)
	}
	ch, err := character.Load([]string{locomotionDir}, bvh.ReadOptions{})
	if err != nil || ch == nil {
		t.Fatalf("loading the folder: %v", err)
	}
	if len(ch.Clips) < 20 {
		t.Fatalf("the folder gave %d clips", len(ch.Clips))
	}
	src, err := SourceOf(ch)
	if err != nil {
		t.Fatal(err)
	}
	for _, mirror := range []bool{false, true} {
		s := src
		if mirror {
			s = Mirrored(src)
		}
		db, err := NewDatabase(s, DefaultWeights, DefaultSettings().Halflife)
		if err != nil {
			t.Fatal(err)
		}
		for p := Path(0); p < NumPaths; p++ {
			for set := Set(0); set < NumSets; set++ {
				st := DefaultSettings()
				st.Set = set
				r := Eval(db, st, p, 15, 1)
				if !r.Same {
					t.Errorf("mirror %v, %s, %s: brute force chose other frames", mirror, p, set)
				}
				// The captures have toes (Toes_L, Toes_R): the second
				// labels' figures are there.
				if r.AnkleSliding == nil || r.ToeSliding == nil {
					t.Fatalf("mirror %v, %s, %s: no ankle or toe sliding on captures with toes", mirror, p, set)
				}
				for _, x := range []float64{r.FootSliding, *r.AnkleSliding, *r.ToeSliding, r.TrajectoryError, r.TransitionsPerSecond, r.Displacement, r.SearchMedian} {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Errorf("mirror %v, %s, %s: a measure is not finite: %+v", mirror, p, set, r)
					}
				}
				// No broken pose: every bone within 1 mm of its length
				// on every tick (legs stretched by metres before the
				// carriers were collapsed), and red and blue within
				// 0.25 m/s on average (0.06-0.13 measured; 4.2 then).
				if !(r.BoneLengthError < 1) || !(r.RedBlue < 0.25) {
					t.Errorf("mirror %v, %s, %s: bones off by up to %.3f mm, |red - blue| %.3f m/s", mirror, p, set, r.BoneLengthError, r.RedBlue)
				}
			}
		}
		t.Logf("mirror %v: %d frames", mirror, db.Frames)
	}
}
