package matching

import (
	"fmt"
	"math"
	"os"
	"sync"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
)

// locomotionDir holds the real captures (../shared/locomotion, beside the
// repository; never copied into it).
const locomotionDir = "../../../shared/locomotion"

// captures is the source of the captures in locomotionDir, loaded once
// for the package's tests (it is only read); a test without them skips,
// saying so.
func captures(tb testing.TB) Source {
	tb.Helper()
	if _, err := os.Stat(locomotionDir); err != nil {
		tb.Skipf("no %s (the shared locomotion captures): %v", locomotionDir, err)
	}
	capturesOnce.Do(func() {
		ch, err := character.Load([]string{locomotionDir}, bvh.ReadOptions{})
		switch {
		case err != nil || ch == nil:
			capturesErr = fmt.Errorf("loading the folder: %v", err)
		case len(ch.Clips) < 20:
			capturesErr = fmt.Errorf("the folder gave %d clips", len(ch.Clips))
		default:
			capturesSrc, capturesErr = SourceOf(ch)
		}
	})
	if capturesErr != nil {
		tb.Fatal(capturesErr)
	}
	return capturesSrc
}

var (
	capturesOnce sync.Once
	capturesSrc  Source
	capturesErr  error
)

// TestCapturesDatabase: the folder of Bandai captures loads as one
// character, builds a database (and a mirrored one), and every feature set
// drives it on every path with the index choosing what brute force
// chooses, finite measures, and bones that keep their lengths.
func TestCapturesDatabase(t *testing.T) {
	src := captures(t)
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

// TestCapturesSpinFeetDown: on the captures (mirrored), after each turn on
// the spot the character stands with both feet as the clip has them. A
// toe lock engaging where an inertialized transition carried the toe up
// held it there, and the foot stood on its heel, toes raised 45° through
// the whole rest: 2.3% of the foot-ticks of two minutes pointed more than
// 90° from the clip's feet. Now none may (measured: 0.00%), and the toes
// slide no more than 6 cm/s on the second labels (5.14 measured; 7.39
// before).
func TestCapturesSpinFeetDown(t *testing.T) {
	db, err := NewDatabase(Mirrored(captures(t)), DefaultWeights, DefaultSettings().Halflife)
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSettings()
	s.Set = InertialSet
	r := EvalWith(db, nil, s, Spin, 120, 1, nil)
	t.Logf("spin: %.2f%% of foot-ticks turned, toes slide %.2f cm/s", 100**r.Turned, *r.ToeSliding)
	if !(*r.Turned <= 0.001) || !(*r.ToeSliding <= 6) {
		t.Errorf("spin: %.2f%% of foot-ticks turned (at most 0.1%%), toes slide %.2f cm/s (at most 6)", 100**r.Turned, *r.ToeSliding)
	}
}
