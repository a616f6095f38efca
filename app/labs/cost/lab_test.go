package cost

import (
	"encoding/csv"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/app"
	"kinelab/internal/apptest"
	"kinelab/internal/fixture"
)

// randomizeCost moves one of the lab's controls, mostly to an end of its
// slider's range, or presses one of its keys or buttons.
func randomizeCost(r *rand.Rand, l *Lab) {
	end := func(lo, hi float32) float32 { return apptest.SliderEnd(r, lo, hi) }
	s := &l.S
	switch r.Intn(14) {
	case 0:
		s.Halflife = end(0.01, 1)
	case 1:
		s.Halflife = 0 // below the slider: snapped offsets
	case 2:
		s.XRange = end(0.05, 2)
	case 3:
		s.VRange = end(0.5, 40)
	case 4:
		s.VelWeight = end(0, 2)
	case 5:
		l.Pick(end(-s.XRange, s.XRange), end(-s.VRange, s.VRange))
	case 6:
		s.RankBy = int32(r.Intn(len(costRankNames)))
	case 7:
		s.SkipPlaying = !s.SkipPlaying
	case 8:
		s.Auto, s.AutoEvery = r.Intn(2) == 0, end(0.5, 5)
	case 9:
		l.PlayRanked(r.Intn(costRanked))
	case 10:
		l.Play(r.Intn(len(l.cands)))
	default:
		keys := l.Keys()
		keys[r.Intn(len(keys))].Action()
	}
}

// costFinite reports what of the lab's state is not finite, or "".
func costFinite(l *Lab) string {
	all := func(xs []float32) bool {
		for _, x := range xs {
			if !mathx.Finite(x) {
				return false
			}
		}
		return true
	}
	for m := range l.grid {
		if !all(l.grid[m]) {
			return "map"
		}
	}
	switch {
	case !all(l.approx):
		return "approx grid"
	case !all(l.Curve) || !all([]float32{l.CurveT, l.Crossing, l.PickExact, l.PickApprox, l.PickSAD}):
		return "curve"
	case !all(l.costExact) || !all(l.costSAD) || !all(l.costFeat):
		return "finder costs"
	case !all([]float32{l.Predicted, l.PredictedSAD, l.Measured, l.tCur, l.trans.Time()}):
		return "transition"
	}
	for _, p := range []*animsys.Pose{&l.samp, &l.out, &l.global, &l.ghost} {
		if !apptest.PoseFinite(p) {
			return "poses"
		}
	}
	return ""
}

// TestCostStress runs the lab for thousands of updates with random dt and
// random controls at their extremes: maps, curve, costs and poses stay
// finite, and the finder's list stays valid and sorted.
func TestCostStress(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	l := New()
	header := l.CSVHeader()
	var rows [][]string
	for i := 0; i < 3000; i++ {
		if r.Intn(5) == 0 {
			randomizeCost(r, l)
		}
		dt := apptest.StressDtsToHalfSecond[r.Intn(len(apptest.StressDtsToHalfSecond))]
		l.Update(dt)
		if what := costFinite(l); what != "" {
			t.Fatalf("update %d (dt %g, settings %+v): %s not finite", i, dt, l.S, what)
		}
		rows = l.CSVRows(rows[:0])
		if n := len(rows); n != 0 && (i > 0 || n != costGridN*costGridN) {
			t.Fatalf("update %d: %d CSV rows, want the grid on the first update only", i, n)
		}
		for _, row := range rows {
			apptest.ParseCSVRow(t, header, row)
		}
		c := l.rankCosts(l.S.RankBy)
		for k := 1; k < costRanked; k++ {
			a, b := l.Ranked[k-1], l.Ranked[k]
			if a < 0 || b < 0 {
				t.Fatalf("update %d: only %d targets ranked", i, k)
			}
			if c[a] > c[b] {
				t.Fatalf("update %d: rank %d costs %g > rank %d's %g", i, k, c[a], k+1, c[b])
			}
			if l.S.SkipPlaying && l.cands[a].clip == l.cur {
				t.Fatalf("update %d: ranked a frame of the playing clip", i)
			}
		}
	}
}

// TestCostCSVGrid: --csv writes a header naming each column's unit, then
// the whole grid once (not once per update), its values those of the
// spring package's cost functions called directly, at the --halflife.
func TestCostCSVGrid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cost.csv")
	a := app.New(app.Config{Lab: "cost", CSV: path, Frames: 3, LabFlags: map[string]float64{"halflife": 0.2}}, []app.LabEntry{Entry()})
	lab := a.Lab()
	out, err := app.CreateCSV(path, lab)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		lab.Update(1.0 / 60)
		out.Write(lab)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"x_m", "v_m/s", "exact_m*s", "approx_m*s", "sad_m"}
	if len(rows) == 0 || len(rows[0]) != len(want) {
		t.Fatalf("header %v, want %v", rows, want)
	}
	for i := range want {
		if rows[0][i] != want[i] {
			t.Fatalf("header %v, want %v", rows[0], want)
		}
	}
	if n := len(rows) - 1; n != costGridN*costGridN {
		t.Fatalf("%d data rows after 3 updates, want the %d x %d grid once", n, costGridN, costGridN)
	}
	s := DefaultSettings()
	const h = 0.2
	worst, zeroSeen, crossings := 0.0, false, 0
	for i, row := range rows[1:] {
		v := apptest.ParseCSVRow(t, want, row)
		x, vel := float32(v[0]), float32(v[1])
		if math.Abs(v[0]) > float64(s.XRange)*1.0001 || math.Abs(v[1]) > float64(s.VRange)*1.0001 {
			t.Fatalf("row %d: (%g, %g) outside the maps' ranges", i, x, vel)
		}
		zeroSeen = zeroSeen || x == 0 && vel == 0
		exp := []float32{spring.TransitionCost(x, vel, h), spring.TransitionCostApprox(x, vel, h),
			spring.TransitionCostBaseline(x, vel, 1, s.VelWeight)}
		for k, e := range exp {
			d := math.Abs(v[2+k]-float64(e)) / math.Max(1e-6, math.Abs(float64(e)))
			worst = math.Max(worst, d)
			if d > 1e-6 {
				t.Fatalf("row %d (%g, %g): %s = %g, want %g", i, x, vel, want[2+k], v[2+k], e)
			}
		}
		if v[2] < v[3]-1e-6*math.Abs(v[3]) {
			t.Fatalf("row %d: exact %g below the approximation %g", i, v[2], v[3])
		}
		if spring.DecayZeroCrossing(x, vel, h) > 0 {
			crossings++
		}
	}
	if !zeroSeen {
		t.Error("the grid does not hold x = 0, v = 0")
	}
	t.Logf("grid of %d points at half-life %g s: worst relative difference %.2g; the offset crosses zero at %d points", costGridN*costGridN, h, worst, crossings)

	// The lab's per-update interface: the grid appended once, then nothing.
	c := New()
	head := [][]string{{"kept"}}
	if got := c.CSVRows(head); len(got) != 1+costGridN*costGridN || got[0][0] != "kept" || c.CSVRows(nil) != nil {
		t.Error("CSVRows should append the grid once, then nothing")
	}
}

// TestCostHalflifeFlag: --halflife, declared in the lab's entry, is read,
// checked (0 < H <= 5, 0 for the lab's default) and reaches the lab (the
// Scalar-velocity lab's tests check that it reaches its springs).
func TestCostHalflifeFlag(t *testing.T) {
	labs := []app.LabEntry{Entry()}
	c, err := app.ParseFlags([]string{"--lab", "cost", "--halflife", "0.25"}, io.Discard, labs)
	if h, ok := c.LabFlag("halflife"); err != nil || !ok || h != 0.25 {
		t.Fatalf("--halflife 0.25: %+v, %v", c, err)
	}
	for _, bad := range []string{"-1", "5.01"} {
		if _, err := app.ParseFlags([]string{"--halflife", bad}, io.Discard, labs); err == nil {
			t.Errorf("--halflife %s accepted", bad)
		}
	}
	l := New()
	l.Configure(c)
	if l.S.Halflife != 0.25 || l.gridKey.halflife != 0.25 {
		t.Errorf("lab half-life %g (grid %g), want 0.25", l.S.Halflife, l.gridKey.halflife)
	}
	c, err = app.ParseFlags([]string{"--lab", "cost", "--halflife", "0"}, io.Discard, labs)
	l = New()
	l.Configure(c)
	if err != nil || l.S.Halflife != DefaultSettings().Halflife {
		t.Errorf("--halflife 0: half-life %g (%v), want the default %g", l.S.Halflife, err, DefaultSettings().Halflife)
	}
}

// TestCostMapsAndCurve: the maps hold the cost functions' values, the error
// is zero wherever the offset never crosses zero, the curve is the decay
// spring's, and its crossing is DecayZeroCrossing's.
func TestCostMapsAndCurve(t *testing.T) {
	l := New()
	h := l.S.Halflife
	maxErr, maxExact := float32(0), float32(0)
	for r := 0; r < costGridN; r++ {
		for c := 0; c < costGridN; c++ {
			x, v, i := l.GridX(c), l.GridV(r), r*costGridN+c
			if l.grid[MapExact][i] != spring.TransitionCost(x, v, h) {
				t.Fatalf("exact map at (%g, %g)", x, v)
			}
			e := l.grid[MapError][i]
			if e < 0 || spring.DecayZeroCrossing(x, v, h) < 0 && e > 1e-6*max(1, l.grid[MapExact][i]) {
				t.Fatalf("error map at (%g, %g) = %g with no zero crossing", x, v, e)
			}
			maxErr, maxExact = max(maxErr, e), max(maxExact, l.grid[MapExact][i])
		}
	}
	t.Logf("half-life %g s, x +-%g m, v +-%g m/s: largest exact cost %.4f m*s, largest feature error %.4f m*s (%.0f%%)",
		h, l.S.XRange, l.S.VRange, maxExact, maxErr, 100*maxErr/maxExact)

	// Where the exact cost's valley floor is: the velocity offset that
	// minimises it for a given position offset, against the feature's
	// zero line v = -2xy.
	y := spring.HalflifeToDamping(h) / 2
	best, bestV := float32(math.Inf(1)), float32(0)
	for k := 0; k <= 4000; k++ {
		v := -3 * y * 0.25 * float32(k) / 4000
		if c := spring.TransitionCost(0.25, v, h); c < best {
			best, bestV = c, v
		}
	}
	t.Logf("x = 0.25 m: the exact cost is least, %.4f m*s, at v = %.3f m/s = %.2f x y (the feature is zero at -2 x y, where the exact cost is %.4f; at v = 0 it is %.4f)",
		best, bestV, bestV/(0.25*y), spring.TransitionCost(0.25, -2*y*0.25, h), spring.TransitionCost(0.25, 0, h))

	l.Pick(0.3, -8)
	if want := spring.DecayZeroCrossing(0.3, -8, h); l.Crossing != want || want <= 0 {
		t.Errorf("crossing %g, want %g > 0", l.Crossing, want)
	}
	for k := 1; k < costCurveN; k++ {
		tk := l.CurveT * float32(k) / (costCurveN - 1)
		want, _ := spring.DecaySpringDamperExact(0.3, -8, h, tk)
		if l.Curve[k] != want {
			t.Fatalf("curve at %g s: %g, want %g", tk, l.Curve[k], want)
		}
	}
	// The shaded area is the exact cost: integrate the curve's samples.
	var area float64
	for k := 1; k < costCurveN; k++ {
		area += float64(costAbs(l.Curve[k])+costAbs(l.Curve[k-1])) / 2 * float64(l.CurveT) / (costCurveN - 1)
	}
	if math.Abs(area-float64(l.PickExact)) > 0.02*float64(l.PickExact) {
		t.Errorf("area under the plotted curve %g, exact cost %g", area, l.PickExact)
	}
	t.Logf("picked (0.3 m, -8 m/s): crosses zero at %.4f s; exact %.4f m*s, feature %.4f m*s, trapezoid area of the plot %.4f", l.Crossing, l.PickExact, l.PickApprox, area)
}

// TestCostFinderAndTransition: the finder's costs are the spring package's
// summed over the feature joints; playing a target starts the output where
// the old pose was (no pop) and ends on the target clip.
func TestCostFinderAndTransition(t *testing.T) {
	l := New()
	l.S.Auto = false
	for i := 0; i < 40; i++ {
		l.Update(1.0 / 60)
	}
	best := l.Ranked[0]
	k := l.cands[best]
	var e, s float32
	for j, jt := range l.joints {
		dx, dv := l.global.Pos[jt].Sub(k.pos[j]), l.global.Vel[jt].Sub(k.vel[j])
		for a := 0; a < 3; a++ {
			e += spring.TransitionCost(dx[a], dv[a], l.S.Halflife)
			s += spring.TransitionCostBaseline(dx[a], dv[a], 1, l.S.VelWeight)
		}
	}
	if math.Abs(float64(e-l.costExact[best])) > 1e-5 || math.Abs(float64(s-l.costSAD[best])) > 1e-5 {
		t.Fatalf("best target %s: exact %g SAD %g, recomputed %g %g", l.CandidateName(best), l.costExact[best], l.costSAD[best], e, s)
	}
	agree := 0
	for r := 0; r < costRanked; r++ {
		if l.RankOf(l.Ranked[r], RankSAD) <= costRanked {
			agree++
		}
	}
	t.Logf("from walk at %.2f s: best by exact %s (%.4f m*s), its SAD rank %d; %d of the top %d by exact are in SAD's top %d",
		l.tCur, l.CandidateName(best), l.costExact[best], l.RankOf(best, RankSAD), agree, costRanked, costRanked)

	before := append([]mgl32.Vec3(nil), l.global.Pos...)
	l.Play(best)
	for j := range before {
		if d := l.global.Pos[j].Sub(before[j]).Len(); d > 1e-4 {
			t.Fatalf("joint %d jumps %g m at the transition", j, d)
		}
	}
	for i := 0; i < 600; i++ {
		l.Update(1.0 / 60)
	}
	if l.inertializing() || l.cur != k.clip {
		t.Errorf("after 10 s: still inertializing %v, clip %d want %d", l.inertializing(), l.cur, k.clip)
	}
	for j := range l.global.Pos {
		if d := l.global.Pos[j].Sub(l.ghost.Pos[j]).Len(); d > 1e-5 {
			t.Fatalf("joint %d is %g m off the target clip after the transition", j, d)
		}
	}
	t.Logf("transition to %s: predicted %.4f m*s (exact cost, per axis), measured through FK %.4f m*s", l.CandidateName(best), l.Predicted, l.Measured)
	if !(l.Measured > 0) || l.Measured > 10*l.Predicted+1 {
		t.Errorf("measured displacement %g m*s for a predicted %g", l.Measured, l.Predicted)
	}
}

// TestCostMapMapping: a screen point and the offset it picks map back and
// forth (so clicks land where the marker is drawn). (That every lab's keys
// have distinct --do names the app's own keys do not take is checked with
// the list of labs, in package kinelab/app/labs.)
func TestCostMapMapping(t *testing.T) {
	l := New()
	r := rl.Rectangle{X: 400, Y: 70, Width: 170, Height: 170}
	for _, o := range [][2]float32{{0, 0}, {0.5, -10}, {-0.5, 10}, {0.123, 4.56}} {
		x, v := l.mapOffset(r, l.mapPoint(r, o[0], o[1]))
		if math.Abs(float64(x-o[0])) > 1e-4 || math.Abs(float64(v-o[1])) > 1e-3 {
			t.Errorf("(%g, %g) maps back to (%g, %g)", o[0], o[1], x, v)
		}
	}
}

// TestFinderOneClip: with a single loaded clip the finder ranks frames of
// that clip, none within costNearPlaying of the playing time, and plays
// the best.
func TestFinderOneClip(t *testing.T) {
	s := fixture.Neuron()
	s.Frames = 4 * 125 // 4 s
	ch := apptest.FixtureCharacter(t, s)
	if len(ch.Clips) != 1 {
		t.Fatalf("%d clips", len(ch.Clips))
	}
	l := New()
	l.SetCharacter(ch)
	l.S.Auto = false
	for i := 0; i < 30; i++ {
		l.Update(1.0 / 60)
	}
	_, n := l.clips[0].Loop()
	for r, i := range l.Ranked {
		if i < 0 {
			t.Fatalf("rank %d empty: %v", r+1, l.Ranked)
		}
		d := float32(math.Abs(float64(l.cands[i].t - l.tCur)))
		if d = min(d, n-d); d < costNearPlaying {
			t.Errorf("rank %d is %.2f s from the playing time %.2f s", r+1, d, l.tCur)
		}
	}
	best := l.Ranked[0]
	l.PlayRanked(0)
	if l.Target != best || !l.inertializing() {
		t.Errorf("played target %d (inertializing %v), want %d", l.Target, l.inertializing(), best)
	}
}

// TestCostFeatureJoints: the finder compares the feet and hands the
// character's figure found (left foot, left hand, right foot, right hand)
// on the default character and on every fixture's.
func TestCostFeatureJoints(t *testing.T) {
	l := New()
	check := func(name string, ch *character.Character) {
		f := ch.Figure
		want := []int{f.Legs[humanoid.Left].End, f.Arms[humanoid.Left].End, f.Legs[humanoid.Right].End, f.Arms[humanoid.Right].End}
		if !slices.Equal(l.joints, want) {
			t.Errorf("%s: compares joints %v, want the figure's feet and hands %v", name, l.joints, want)
		}
	}
	check("default", character.Default())
	for _, s := range fixture.All() {
		ch := apptest.FixtureCharacter(t, s)
		l.SetCharacter(ch)
		check(s.String(), ch)
		if l.cur != ch.Start {
			t.Errorf("%s: plays clip %d, want the character's start %d", s, l.cur, ch.Start)
		}
	}
}

// TestCostPlayLater: a target the panel asks for plays when the frame
// carries the ask out (app.Panel.Ask, before the next update), not
// while the panel is drawn; and not at all if a new character came first,
// whose targets are others.
func TestCostPlayLater(t *testing.T) {
	l := New()
	l.S.Auto = false
	for i := 0; i < 10; i++ {
		l.Update(1.0 / 60)
	}
	i := l.Ranked[2]
	do := l.playLater(i)
	if l.Target != -1 || l.inertializing() {
		t.Fatalf("asking changed the lab: target %d", l.Target)
	}
	do()
	if l.Target != i || !l.inertializing() {
		t.Errorf("after the ask ran: target %d (inertializing %v), want %d", l.Target, l.inertializing(), i)
	}
	stale := l.playLater(l.Ranked[1])
	l.SetCharacter(character.Default())
	stale()
	if l.Target != -1 {
		t.Errorf("a target of the last character played on the new one: %d", l.Target)
	}
}

// TestCostCheckSettings: settings read from a file land within the
// panel's sliders (through the one slider table), the picked offset
// within the maps' ranges as clamped, and the ranking within its options;
// settings already inside stay bit for bit.
func TestCostCheckSettings(t *testing.T) {
	nan := float32(math.NaN())
	l := New()
	apptest.CheckSettings(t, &l.S, l.CheckSettings, []apptest.SettingCase[Settings]{
		apptest.Case("Half-life 0", func(s *Settings) { s.Halflife = 0 }, func(s *Settings) float32 { return s.Halflife }, 0.01),
		apptest.Case("Half-life NaN", func(s *Settings) { s.Halflife = nan }, func(s *Settings) float32 { return s.Halflife }, 0.01),
		apptest.Case("x range 9", func(s *Settings) { s.XRange = 9 }, func(s *Settings) float32 { return s.XRange }, 2),
		apptest.Case("v range 0", func(s *Settings) { s.VRange = 0 }, func(s *Settings) float32 { return s.VRange }, 0.5),
		apptest.Case("SAD w 3", func(s *Settings) { s.VelWeight = 3 }, func(s *Settings) float32 { return s.VelWeight }, 2),
		apptest.Case("every 9", func(s *Settings) { s.AutoEvery = 9 }, func(s *Settings) float32 { return s.AutoEvery }, 5),
		apptest.Case("x 1 in +-0.5", func(s *Settings) { s.PickX = 1 }, func(s *Settings) float32 { return s.PickX }, 0.5),
		apptest.Case("x 9, x range 9", func(s *Settings) { s.PickX, s.XRange = 9, 9 }, func(s *Settings) float32 { return s.PickX }, 2),
		apptest.Case("v -50, v range 50", func(s *Settings) { s.PickV, s.VRange = -50, 50 }, func(s *Settings) float32 { return s.PickV }, -40),
		apptest.Case("v NaN", func(s *Settings) { s.PickV = nan }, func(s *Settings) float32 { return s.PickV }, -10),
		apptest.Case("Rank 7", func(s *Settings) { s.RankBy = 7 }, func(s *Settings) float32 { return float32(s.RankBy) }, RankFeature),
	})
}
