package matching

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// Searcher is the matcher's stage that decides where to go: when a search
// is due, the query from the output pose and the predicted trajectory,
// the search, and whether its best frame beats carrying on. It keeps the
// last search's query and results, and counts.
type Searcher struct {
	// searchRun is the last search's: Query its normalised features,
	// LastQuery the search itself (its Features being Query), Carry the
	// cost of carrying on then; alt is the other run's buffers, Bent
	// whether the run on the unbent path decided (search).
	searchRun
	alt  searchRun
	Bent bool
	// Searched and Transited: this tick searched, and transitioned.
	Searched, Transited   bool
	Searches, Transitions int
	// SearchNs are the last searches' times (ns), a ring of SearchTimes.
	SearchNs    []int64
	sorted      []int64 // SearchStats' buffer
	sinceSearch float32
	// lastGoal and lastYaw are the simulation's goal at the last search:
	// a jump searches at once.
	lastGoal mgl32.Vec2
	lastYaw  float32
	listed   []Result // Shortlist's
	raw      rawFeatures
	// queried is what the last search costed candidates from: its set,
	// and the output's feet (character frame, m and m/s) then.
	queried struct {
		set      Set
		pos, vel [2]mgl32.Vec3
	}
}

// SearchTimes is how many search times a Matcher keeps.
const SearchTimes = 4096

// newSearcher allocates a Searcher's buffers.
func newSearcher() Searcher {
	run := func() searchRun {
		return searchRun{Query: make([]float32, 0, 64), results: make([]Result, 0, MaxCandidates),
			rerank: make([]Candidate, 0, MaxCandidates)}
	}
	return Searcher{searchRun: run(), alt: run(), listed: make([]Result, 0, MaxCandidates),
		SearchNs: make([]int64, 0, SearchTimes), sorted: make([]int64, 0, SearchTimes)}
}

// reset forgets the searches.
func (q *Searcher) reset() {
	q.lastGoal, q.lastYaw = mgl32.Vec2{}, 0
	q.Searches, q.Transitions, q.sinceSearch, q.Bent = 0, 0, 0, false
	q.SearchNs = q.SearchNs[:0]
}

// due counts dt seconds since the last search and reports whether one is
// due: its period has passed, or the simulation's goal jumped (a change
// of the desired velocity of ForceChange m/s, or of the facing of 45°).
func (q *Searcher) due(db *Database, s *Settings, sim *Simulation, dt float32) bool {
	q.sinceSearch += dt
	goalDelta := sim.GoalVel.Sub(q.lastGoal).Len()
	return q.sinceSearch >= s.SearchPeriod || goalDelta > s.ForceChange*db.Unit ||
		angleDiff(sim.GoalYaw, q.lastYaw) > math.Pi/4
}

// features gathers the query's raw features: the output's feet and hips
// (char: the output in the character's frame, exact velocities propagated
// through the blend) and the predicted trajectory pred, in the root's
// frame (root), unbent by as much as the root may turn beyond the clip
// (turn, rad/s: WarpSettings.Turn): the path's turn from its start by
// τ, up to turn·τ, is taken off its direction there, and half of it off
// the point (the chord of an arc turns half as far as its end), so the
// search finds the clip the synchronisation can bend onto the path.
func (q *Searcher) features(db *Database, char *animsys.Pose, pred *Trajectory, root *RootSync, turn float32) *rawFeatures {
	r := &q.raw
	for s, j := range db.Feet {
		copy(r[FootPos][3*s:], char.Pos[j][:])
		copy(r[FootVel][3*s:], char.Vel[j][:])
	}
	copy(r[HipVel][:3], char.Vel[db.Hips][:])
	inv := mathx.QuatInv(yawQuatAngle(root.Yaw))
	start := yawOf(mgl32.Vec2{pred.Facing[0][0], pred.Facing[0][2]})
	for k, tau := range TrajectoryTimes {
		i := int(tau*(PathPoints-1) + 0.5)
		p, f := pred.Pos[i], pred.Facing[i]
		if turn > 0 && groundDist(p, pred.Pos[0]) > warpSpeed*db.Unit*tau { // travelling, not turning on the spot
			most := turn * tau
			bend := mathx.Clamp(wrapAngle(yawOf(mgl32.Vec2{f[0], f[2]})-start), -most, most)
			p = pred.Pos[0].Add(mathx.QuatMulVec3(yawQuatAngle(-bend/2), p.Sub(pred.Pos[0])))
			f = mathx.QuatMulVec3(yawQuatAngle(-bend), f)
		}
		d := mathx.QuatMulVec3(inv, p.Sub(root.Pos))
		f = mathx.QuatMulVec3(inv, f)
		r[TrajPos][2*k], r[TrajPos][2*k+1] = d[0], d[2]
		r[TrajDir][2*k], r[TrajDir][2*k+1] = f[0], f[2]
	}
	y := halfDamping(db.Halflife)
	for i := 0; i < 6; i++ {
		r[Inertial][i] = 2*r[FootPos][i]/y + r[FootVel][i]/(y*y)
	}
	return r
}

// search finds the best frame for the output pose (char) and the
// predicted trajectory, and returns it if it beats carrying on from the
// frame playing, cur (or must: the clip is ending), else -1.
//
// Where the path travels and turns and the settings let the root turn
// beyond the clip (WarpSettings.Turn), the search runs twice: on the
// path as predicted, and on the path unbent by what the root may turn
// (features), whose costs are raised by bendCost for each radian of the
// turn left to the root a second on. The run whose best (or carrying on)
// costs less decides, and Bent says which: a database with the asked
// curve plays it, one without (the captures of ../shared/locomotion have
// no running turn) plays a straight run bent round it. Both runs are
// timed as one search.
func (q *Searcher) search(db *Database, s *Settings, sim *Simulation, char *animsys.Pose, pred *Trajectory, root *RootSync, cur int, must bool) int {
	q.Searched, q.sinceSearch = true, 0
	q.lastGoal, q.lastYaw = sim.GoalVel, sim.GoalYaw
	q.Searches++
	q.queried.set = s.Set
	for s, j := range db.Feet {
		q.queried.pos[s], q.queried.vel[s] = char.Pos[j], char.Vel[j]
	}
	t0 := time.Now()
	q.run(db, s, q.features(db, char, pred, root, 0), cur, must, 0)
	q.Bent = false
	// Only round a steady curve (the input turning steadily: a stick swept
	// round, Simulation.GoalTurn), not a corner, which wants a turning
	// step (a walk-only capture bent round the zigzag's corners slid its
	// held ankles 21 cm/s, 10 not); and only while the root keeps up: a
	// root held at the clamp's distance cannot, and bending a clip round
	// the path then only turns the body over feet it leaves behind (a
	// walk asked to run a circle slid them 20 cm/s bent, 8 not).
	if bend := q.bend(db, pred, s.Warp.Turn); bend > 0 && sim.GoalTurn != 0 && root.clamped == 0 {
		q.swap()
		q.run(db, s, q.features(db, char, pred, root, s.Warp.Turn), cur, must, bendCost*bend)
		if q.least() < q.alt.least() {
			q.Bent = true
		} else {
			q.swap()
		}
	}
	q.timed(time.Since(t0).Nanoseconds())
	if len(q.rerank) == 0 {
		return -1
	}
	best := q.rerank[0]
	if !must && (!(best.Cost < (1-s.BiasShare)*q.Carry.Cost-s.Bias)) {
		return -1
	}
	return best.Frame
}

// timed keeps a search's time (ns) in SearchNs.
func (q *Searcher) timed(ns int64) {
	if len(q.SearchNs) == cap(q.SearchNs) {
		copy(q.SearchNs, q.SearchNs[1:])
		q.SearchNs = q.SearchNs[:len(q.SearchNs)-1]
	}
	q.SearchNs = append(q.SearchNs, ns)
}

// bendCost is what a search on the unbent path adds to its costs for each
// radian of turn it leaves to the root a second on: enough that a
// database with the asked curve plays it (at 0.5 the embedded set's
// circle bent straight runs round, 3.7 transitions a second against
// 0.65; at 5, 0.70), little enough that one without plays a straight run
// bent (../shared/locomotion's running circle: 8.2 cm from the path a
// second on against 62 unbent, its floor 7.2).
const bendCost = 5

// bend is how far (rad) the path pred turns in its second beyond what the
// root may turn in it (turn, rad/s): 0 where it barely travels.
func (q *Searcher) bend(db *Database, pred *Trajectory, turn float32) float32 {
	if !(turn > 0) || groundDist(pred.End(), pred.Pos[0]) < warpSpeed*db.Unit {
		return 0
	}
	f0, f1 := pred.Facing[0], pred.Facing[PathPoints-1]
	return min(abs32(wrapAngle(yawOf(mgl32.Vec2{f1[0], f1[2]})-yawOf(mgl32.Vec2{f0[0], f0[2]}))), turn)
}

// searchRun is one search's query and results: the normalised features,
// the query, what carrying on costs, the index's results and the
// candidates ranked.
type searchRun struct {
	Query     []float32
	LastQuery Query
	Carry     Candidate
	results   []Result
	rerank    []Candidate
}

// least is the least of the run's best and carrying on.
func (r *searchRun) least() float32 {
	c := r.Carry.Cost
	if len(r.rerank) > 0 {
		c = min(c, r.rerank[0].Cost)
	}
	return c
}

// swap exchanges the searcher's run with the other one (alt).
func (q *Searcher) swap() { q.searchRun, q.alt = q.alt, q.searchRun }

// run searches with raw features r from the frame playing cur, every
// cost raised by penalty, into the searcher's run.
func (q *Searcher) run(db *Database, s *Settings, r *rawFeatures, cur int, must bool, penalty float32) {
	set := s.Set
	q.Query = q.Query[:db.Dims(set)]
	db.normalise(set, r, q.Query)
	idx := db.Index(set)
	c, f := db.Locate(cur)
	near := int(s.Near/db.Clips[c].FrameTime + 0.5)
	qq := Query{Features: q.Query, N: 1, SkipLo: db.At(c, max(f-near, 0)),
		SkipHi: db.At(c, min(f+near+1, db.Clips[c].Frames)), Bound: float32(math.Inf(1))}
	q.Carry = q.candidate(db, cur)
	q.Carry.Cost += penalty
	if !must {
		qq.Bound = q.Carry.Cost - penalty
	}
	// The decision: the best frame below the cost of carrying on (Exact:
	// the Inertial search's best Rerank, re-ranked by the exact cost).
	if set == Exact {
		qq.N, qq.Bound = min(max(s.Rerank, 1), MaxCandidates), float32(math.Inf(1))
	}
	q.LastQuery = qq
	if s.Brute {
		q.results = idx.SearchBrute(qq, q.results[:0])
	} else {
		q.results = idx.Search(qq, q.results[:0])
	}
	q.rerank = q.rerank[:0]
	for _, res := range q.results {
		k := q.candidate(db, res.Frame)
		k.Cost += penalty
		q.rerank = append(q.rerank, k)
	}
	if set == Exact { // the exact cost re-ranks what the feature found
		slices.SortStableFunc(q.rerank, func(a, b Candidate) int { return cmp.Compare(a.Cost, b.Cost) })
	}
}

// Shortlist appends to out the n (at most MaxCandidates) best candidates
// of the last search's query on db whatever carrying on costs, best
// first: the Exact set's re-ranked list, else an untimed search of its
// own. It may be called at any time until the next search (with the
// costs as that search saw them); out may be a buffer of MaxCandidates to
// allocate nothing.
func (q *Searcher) Shortlist(db *Database, n int, out []Candidate) []Candidate {
	n = min(n, MaxCandidates)
	if q.Searches == 0 || n <= 0 {
		return out
	}
	if q.queried.set == Exact {
		return append(out, q.rerank[:min(len(q.rerank), n)]...)
	}
	qq := q.LastQuery
	qq.N, qq.Bound = n, float32(math.Inf(1))
	q.listed = db.Index(q.queried.set).Search(qq, q.listed[:0])
	for _, res := range q.listed {
		out = append(out, q.candidate(db, res.Frame))
	}
	return out
}

// candidate costs database frame i against the last query: each group's
// part, the set's total (for Exact, with the exact cost's term in place
// of the Inertial feature's) and the feet's exact displacement.
func (q *Searcher) candidate(db *Database, i int) Candidate {
	set := q.queried.set
	k := Candidate{Frame: i}
	for _, g := range setGroups[set] {
		k.Terms[g] = db.GroupCost(set, g, q.Query, i)
	}
	pos, vel := db.FootState(i)
	h := db.Halflife
	var exactTerm float32
	kI := db.weights[Inertial] / db.scale[Inertial]
	for s := range db.Feet {
		dx, dv := q.queried.pos[s].Sub(pos[s]), q.queried.vel[s].Sub(vel[s])
		for a := 0; a < 3; a++ {
			e := spring.TransitionCost(dx[a], dv[a], h)
			k.Exact += e
			exactTerm += e * kI * e * kI
		}
	}
	if set == Exact {
		k.Terms[Inertial] = exactTerm
	}
	for _, g := range setGroups[set] {
		k.Cost += k.Terms[g]
	}
	if set != Exact { // the index's own sum, bit for bit, so bounds agree with it
		k.Cost = db.Index(set).Cost(q.Query, i)
	}
	return k
}

// SearchStats are the median, 99th percentile and largest (µs) of the
// kept search times, sorted in a buffer the searcher keeps (no
// allocation).
func (q *Searcher) SearchStats() (median, p99, worst float64) {
	q.sorted = append(q.sorted[:0], q.SearchNs...)
	slices.Sort(q.sorted)
	if len(q.sorted) == 0 {
		return 0, 0, 0
	}
	return rank(q.sorted, 0.5) / 1e3, rank(q.sorted, 0.99) / 1e3, float64(q.sorted[len(q.sorted)-1]) / 1e3
}

// rank is the q-quantile (nearest rank) of sorted, which is not empty.
func rank(sorted []int64, q float64) float64 {
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	return float64(sorted[min(max(k, 0), len(sorted)-1)])
}

// Percentile is the q-quantile of xs (nearest rank), 0 for none; xs is
// not changed.
func Percentile(xs []int64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return rank(s, q)
}
