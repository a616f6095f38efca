package matching

import (
	"math"
	"testing"
)

// TestSizeFree: the embedded captures made 0.3 and 30 times as large (a
// 0.5 m doll, a 50 m giant) and played with their own clips choose the
// same frames at the same ticks as at their own size on every path and
// set, and their trajectory error, distance from the simulation and foot
// sliding (on the lock's labels and on the second ones, ankles and toes)
// are the same in proportion to their size: within 1% and 0.002
// (cm, cm/s at the human's size) of the human's, which floating-point
// rounding at the other size stays well within (0.03% and 0.001
// measured). The settings in metres
// (speeds, the clamp, the search's floors) scale with Database.Unit; before
// they did, the doll was asked to walk at 4.7 of its hips' heights a
// second and the giant at 0.05, and neither chose what the human chose.
func TestSizeFree(t *testing.T) {
	if testing.Short() {
		t.Skip("three databases and 24 runs: not with -short")
	}
	src := embeddedSource(t)
	one, err := NewDatabase(src, DefaultWeights, DefaultSettings().Halflife)
	if err != nil {
		t.Fatal(err)
	}
	if one.Unit != 1 {
		t.Errorf("the embedded set's Unit is %v, want exactly 1 (HumanHips is its hips' height)", one.Unit)
	}
	const seconds = 30
	for _, k := range []float32{0.3, 30} {
		db, err := NewDatabase(scaled(src, k), DefaultWeights, DefaultSettings().Halflife)
		if err != nil {
			t.Fatal(err)
		}
		if r := db.Unit / (k * one.Unit); math.Abs(float64(r)-1) > 1e-4 {
			t.Errorf("x%g: Unit %.5f, want %.5f", k, db.Unit, k*one.Unit)
		}
		for p := Path(0); p < NumPaths; p++ {
			for set := Set(0); set < NumSets; set++ {
				s := DefaultSettings()
				s.Set = set
				a, fa := run(one, nil, s, p, seconds, 1, nil)
				b, fb := run(db, nil, s, p, seconds, 1, nil)
				same := 0
				for same < min(len(fa), len(fb)) && fa[same] == fb[same] {
					same++
				}
				if same != len(fa) || len(fb) != len(fa) {
					if at, ok := nearTie(one, db, s, p, seconds); ok {
						// The runs part at a tie the sizes' rounding
						// breaks either way: from there they are two
						// runs, not one at two sizes.
						t.Logf("x%g, %s, %s: the runs part at %.2f s, at a tie of the two best frames", k, p, set, at)
						continue
					}
					t.Errorf("x%g, %s, %s: %d transitions, %d at x1; the first %d alike", k, p, set, len(fb), len(fa), same)
				}
				if math.Abs(a.IdleSeconds-b.IdleSeconds) > 0.05 {
					t.Errorf("x%g, %s, %s: idle %.2f s, %.2f s at x1", k, p, set, b.IdleSeconds, a.IdleSeconds)
				}
				for _, q := range []struct {
					name string
					x, y float64
				}{
					{"trajectory error", a.TrajectoryError, b.TrajectoryError},
					{"sync distance", a.SyncDistance, b.SyncDistance},
					{"foot sliding", a.FootSliding, b.FootSliding},
					{"ankle sliding", orNaN(a.AnkleSliding), orNaN(b.AnkleSliding)},
					{"toe sliding", orNaN(a.ToeSliding), orNaN(b.ToeSliding)},
				} {
					if y := q.y / float64(k); !(math.Abs(y-q.x) <= 0.01*math.Abs(q.x)+0.002) {
						t.Errorf("x%g, %s, %s: %s %.4f over the size, %.4f at x1", k, p, set, q.name, y, q.x)
					}
				}
			}
		}
	}
}

// tieShare is how near (a share of the cost) the two best frames of a
// search are for the choice between them to be a tie: a size's rounding
// drifts the costs by about 0.03% over a run (the feet 3e-5 of the
// figure's size apart after 30 s at 0.3 times), so either may win.
const tieShare = 1e-3

// nearTie replays path p on databases a and b (one at another size) in
// lockstep, and reports whether the first tick where they choose
// differently is a tie, and when (s): both transitioned, b to a's second
// best, within tieShare of a's best; or one carried on, a's best within
// tieShare of the bar it had to beat.
func nearTie(a, b *Database, s Settings, p Path, seconds float32) (float32, bool) {
	ma, mb := NewMatcher(a, s), NewMatcher(b, s)
	list := make([]Candidate, 0, 2)
	for k := 0; k < int(seconds*60+0.5); k++ {
		in := p.Input(float32(k)/60, 1)
		ma.Update(in, 1.0/60)
		mb.Update(in, 1.0/60)
		if ma.Search.Transited == mb.Search.Transited && ma.Frame() == mb.Frame() {
			continue
		}
		if !ma.Search.Searched || !mb.Search.Searched {
			return float32(k) / 60, false
		}
		list = ma.Shortlist(2, list[:0])
		if len(list) < 2 {
			return float32(k) / 60, false
		}
		near := func(x, y float32) bool { return abs32(x-y) <= tieShare*abs32(list[0].Cost) }
		var tie bool
		if ma.Search.Transited && mb.Search.Transited { // to a's second best
			tie = mb.Frame() == list[1].Frame && near(list[0].Cost, list[1].Cost)
		} else { // one carried on: the best was at the bar (Matcher.search)
			tie = near(list[0].Cost, (1-s.BiasShare)*ma.Search.Carry.Cost-s.Bias)
		}
		return float32(k) / 60, tie
	}
	return seconds, false
}

// orNaN is *x, or NaN for nil (which no comparison passes).
func orNaN(x *float64) float64 {
	if x == nil {
		return math.NaN()
	}
	return *x
}
