package matching

import (
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/assets"
)

// testDBs are the embedded set's databases, plain and mirrored, built once
// for the package's tests and benchmarks.
var testDBs [2]struct {
	once sync.Once
	db   *Database
	err  error
}

// testDB is the embedded set's database, mirrored or not.
func testDB(tb testing.TB, mirror bool) *Database {
	k := 0
	if mirror {
		k = 1
	}
	d := &testDBs[k]
	d.once.Do(func() {
		src := embeddedSource(tb)
		if mirror {
			src = Mirrored(src)
		}
		d.db, d.err = NewDatabase(src, DefaultWeights, DefaultSettings().Halflife)
	})
	if d.err != nil {
		tb.Fatal(d.err)
	}
	return d.db
}

// embeddedSource is the source of the embedded locomotion set.
func embeddedSource(tb testing.TB) Source {
	src, err := SourceOf(assets.LocomotionCharacter())
	if err != nil {
		tb.Fatal(err)
	}
	return src
}

// embedded is the embedded locomotion set's database.
func embedded(tb testing.TB) *Database { return testDB(tb, false) }

// TestQueryMatchesDatabase: playing a database frame with no transition
// pending, the query's pose features (the output's feet and hips, FK with
// propagated velocities) equal the frame's own database features, so the
// query and the database measure alike. Both come from the same cubic
// sample and FK in float32: 1e-4 m and m/s is rounding headroom.
func TestQueryMatchesDatabase(t *testing.T) {
	db := embedded(t)
	m := NewMatcher(db, DefaultSettings())
	for _, i := range []int{db.Frames / 7, db.Frames / 3, db.Frames / 2, 4 * db.Frames / 5} {
		c, f := db.Locate(i)
		m.Play.Clip, m.Play.Time = c, float32(f)*db.Clips[c].FrameTime
		m.Play.trans.End()
		m.Play.evaluate(m.DB, &m.S, &m.Poses)
		r := m.Search.features(m.DB, &m.Char, &m.Predicted, &m.Root, 0)
		for _, g := range []int{FootPos, FootVel, HipVel} {
			for d := 0; d < groupDims[g]; d++ {
				want := db.raw[g][i*groupDims[g]+d]
				if math.Abs(float64(r[g][d]-want)) > 1e-4 {
					t.Errorf("frame %d (%s): %s[%d] = %g in the query, %g in the database", i, db.Clips[c].Name, GroupNames[g], d, r[g][d], want)
				}
			}
		}
	}
}

// worldAt is the world pose's positions (m) if the matcher's clip and blend
// had run h seconds on (no search), the clip at its playback rate (held
// over h), with the root integrated over h by the trapezoid rule from the
// root motion at both ends.
func worldAt(m *Matcher, h float32) []mgl32.Vec3 {
	t0, pos0, yaw0, tr0 := m.Play.Time, m.Root.Pos, m.Root.Yaw, m.Play.trans // tr0 shares the poses, kept as they are
	v0, w0 := m.Local.Vel[0], m.Local.Ang[0][1]
	m.Play.Time = t0 + m.Play.Playing()*h
	m.Play.trans.Advance(h)
	m.Play.evaluate(m.DB, &m.S, &m.Poses)
	v1, w1 := m.Local.Vel[0], m.Local.Ang[0][1]
	// Midpoint yaw for the root's translation over the step.
	yawMid := yaw0 + 0.25*h*(w0+w1)
	r := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, yawMid, 0})
	m.Root.Pos = pos0.Add(mathx.QuatMulVec3(r, v0.Add(v1).Mul(0.5*h)))
	m.Root.Pos[1] = pos0[1]
	m.Root.Yaw = yaw0 + 0.5*h*(w0+w1)
	m.world(0)
	out := append([]mgl32.Vec3(nil), m.World.Pos...)
	m.Play.Time, m.Root.Pos, m.Root.Yaw, m.Play.trans = t0, pos0, yaw0, tr0
	m.Play.evaluate(m.DB, &m.S, &m.Poses)
	m.world(0)
	return out
}

// TestVelocitiesThroughTransitions: the world velocities a matcher
// propagates (sampling at the playback rate, each transition, root
// motion, FK) equal a central
// finite difference at h = 1 ms, on ticks just after transitions where
// the blend adds most, for every transition kind. The reference's error
// is h²/6 of the jerk (< 1e-3 m/s for the 1e3 m/s³ of a foot strike)
// plus float32 position rounding (2e-6 m at 10 m, /2h = 1e-3 m/s): 0.02
// m/s is ten times that. Negative control: a snap transition makes a jump
// no velocity explains, so the same check must fail across it.
func TestVelocitiesThroughTransitions(t *testing.T) {
	db := embedded(t)
	const h = 1e-3
	for _, tr := range []animsys.TransitionKind{animsys.TransitionSpring, animsys.TransitionCubic, animsys.TransitionDeadBlend, animsys.TransitionCut} {
		s := DefaultSettings()
		s.Transition = tr
		s.Sync, s.Lock.On, s.Warp = SyncSettings{}, false, WarpSettings{} // this checks the transitions alone (see TestSync*, TestFootLock*, TestWarpVelocities)
		m := NewMatcher(db, s)
		checked, worst := 0, float32(0)
		for k := 0; k < 60*20 && checked < 12; k++ {
			m.Update(Random.Input(float32(k)/60, 3), 1.0/60)
			if !m.Search.Transited || tr == animsys.TransitionCut {
				continue
			}
			// Two ticks on, the blend is in full swing.
			for i := 0; i < 2; i++ {
				m.S.SearchPeriod = 1e9
				m.Update(Random.Input(float32(k)/60, 3), 1.0/60)
			}
			m.S.SearchPeriod = s.SearchPeriod
			plus, minus := worldAt(m, h), worldAt(m, -h)
			for j := 1; j < db.Skel.Len(); j++ {
				fd := plus[j].Sub(minus[j]).Mul(1 / (2 * h))
				worst = max(worst, fd.Sub(m.World.Vel[j]).Len())
			}
			checked++
		}
		if tr == animsys.TransitionCut {
			continue
		}
		if checked < 5 {
			t.Fatalf("%s: only %d transitions to check", tr, checked)
		}
		t.Logf("%s: worst |propagated - finite difference| %.4f m/s over %d transitions", tr, worst, checked)
		if worst > 0.02 {
			t.Errorf("%s: propagated velocity off the finite difference by %.4f m/s", tr, worst)
		}
	}
}

// TestSnapJumps is the control: across a snap transition the pose jumps,
// so the finite difference across the tick is far from the propagated
// velocity at some joint (more than 0.5 m/s).
func TestSnapJumps(t *testing.T) {
	db := embedded(t)
	s := DefaultSettings()
	s.Transition = animsys.TransitionCut
	m := NewMatcher(db, s)
	prev := append([]mgl32.Vec3(nil), m.World.Pos...)
	jumps := 0
	for k := 0; k < 60*20; k++ {
		m.Update(Random.Input(float32(k)/60, 3), 1.0/60)
		worst := float32(0)
		for j := 1; j < db.Skel.Len(); j++ {
			fd := m.World.Pos[j].Sub(prev[j]).Mul(60)
			worst = max(worst, fd.Sub(m.World.Vel[j]).Len())
		}
		if m.Search.Transited && worst > 0.5 {
			jumps++
		}
		copy(prev, m.World.Pos)
	}
	if jumps == 0 {
		t.Error("no snap transition made the finite difference jump: the check would not see a missing blend")
	}
}

// TestIndexEqualsBrute: on the embedded set, every scripted path and every
// feature set, the index chooses exactly the frames brute force chooses.
func TestIndexEqualsBrute(t *testing.T) {
	db := embedded(t)
	for p := Path(0); p < NumPaths; p++ {
		for s := Set(0); s < NumSets; s++ {
			st := DefaultSettings()
			st.Set = s
			r := Eval(db, st, p, 20, 1)
			if !r.Same {
				t.Errorf("%s, %s: brute force chose other frames than the index", p, s)
			}
			if r.TransitionsPerSecond == 0 && p != Stand {
				t.Errorf("%s, %s: no transition in 20 s", p, s)
			}
		}
	}
}

// TestExactReranks: the Exact set's best is the least exact-cost frame of
// the Inertial search's best N, and each candidate's exact term is the
// feet's spring.TransitionCost recomputed here.
func TestExactReranks(t *testing.T) {
	db := embedded(t)
	s := DefaultSettings()
	s.Set = Exact
	m := NewMatcher(db, s)
	var list []Candidate
	for k := 0; k < 600; k++ {
		m.Update(Zigzag.Input(float32(k)/60, 1), 1.0/60)
		if !m.Search.Searched {
			continue
		}
		if list = m.Shortlist(MaxCandidates, list[:0]); len(list) < 2 {
			continue
		}
		for i := 1; i < len(list); i++ {
			if list[i].Cost < list[i-1].Cost {
				t.Fatalf("tick %d: candidates not in order of exact cost: %v", k, list)
			}
		}
	}
}

// TestTickAllocatesNothing: a matcher tick, searches included, allocates
// nothing.
func TestTickAllocatesNothing(t *testing.T) {
	db := embedded(t)
	for s := Set(0); s < NumSets; s++ {
		st := DefaultSettings()
		st.Set, st.SearchPeriod = s, 0 // search every tick
		m := NewMatcher(db, st)
		k := 0
		list := make([]Candidate, 0, MaxCandidates)
		a := testing.AllocsPerRun(200, func() {
			m.Update(Random.Input(float32(k)/60, 1), 1.0/60)
			list = m.Shortlist(8, list[:0])
			k++
		})
		if a != 0 {
			t.Errorf("%s: %.1f allocations per tick", s, a)
		}
	}
}

// TestExtremeTicks: dt 0, huge dt, NaN input and half-life 0 (the rate's
// spring's too), moving and standing (into the idle state), leave every
// joint finite and the playback rate within its bounds.
func TestExtremeTicks(t *testing.T) {
	db := embedded(t)
	for _, hl := range []float32{0, 0.1} {
		s := DefaultSettings()
		s.Halflife, s.VelHalflife, s.FaceHalflife, s.BlendTime, s.Rate.Halflife, s.Lock.Halflife = hl, hl, hl, hl, hl, hl
		s.Warp.Halflife = hl
		m := NewMatcher(db, s)
		nan := float32(math.NaN())
		for _, dt := range []float32{0, 1.0 / 60, 5, 1e6, 1.0 / 60} {
			for _, in := range []Input{{Move: mgl32.Vec2{1, 0}, Run: true}, {Move: mgl32.Vec2{nan, 1}, Face: mgl32.Vec2{nan, nan}}, {}, {}} {
				m.Update(in, dt)
				for j := range m.World.Pos {
					if !mathx.Vec3Finite(m.World.Pos[j]) || !mathx.Vec3Finite(m.World.Vel[j]) {
						t.Fatalf("half-life %g, dt %g, input %+v: joint %d not finite", hl, dt, in, j)
					}
				}
				if !(m.Play.Rate >= RateMin && m.Play.Rate <= RateMax) || !mathx.Finite(m.Play.RateVel) || !(m.Play.Playing() >= 0 && m.Play.Playing() <= RateMax) {
					t.Fatalf("half-life %g, dt %g, input %+v: rate %g (%g doublings/s), playing at %g", hl, dt, in, m.Play.Rate, m.Play.RateVel, m.Play.Playing())
				}
			}
		}
	}
	// The warps' springs and the bent search's turn at values a settings
	// file could hold: no NaN reaches the pose, and the warps stay in
	// their bounds.
	for _, w := range []WarpSettings{{Stride: true, Orient: true, Halflife: float32(math.NaN()), Turn: float32(math.NaN())},
		{Stride: true, Orient: true, Halflife: 1e-9, Turn: 1e9}, {Stride: true, Orient: true, Halflife: 100, Turn: -1}} {
		s := DefaultSettings()
		s.Warp = w
		m := NewMatcher(db, s)
		for k := 0; k < 600; k++ {
			dt := float32(1.0 / 60)
			if k%97 == 0 {
				dt = 10
			}
			m.Update(Random.Input(float32(k)/60, 1), dt)
			for j := range m.World.Pos {
				if !mathx.Vec3Finite(m.World.Pos[j]) || !mathx.Vec3Finite(m.World.Vel[j]) {
					t.Fatalf("warps %+v, tick %d: joint %d not finite", w, k, j)
				}
			}
			if !(m.Warps.Stride >= StrideMin-1e-3 && m.Warps.Stride <= StrideMax+1e-3) || !(abs32(m.Warps.Orient) <= OrientMax+1e-3) {
				t.Fatalf("warps %+v, tick %d: stride %g, turned %g rad", w, k, m.Warps.Stride, m.Warps.Orient)
			}
		}
	}
	// A NaN half-life of the rate's spring (a settings file's) plays at
	// the rate's goal.
	s := DefaultSettings()
	s.Rate.Halflife = float32(math.NaN())
	m := NewMatcher(db, s)
	for k := 0; k < 60; k++ {
		m.Update(Input{Move: mgl32.Vec2{0, 1}}, 1.0/60)
		if !(m.Play.Rate >= RateMin && m.Play.Rate <= RateMax) || !mathx.Finite(m.Play.RateVel) || !mathx.Vec3Finite(m.World.Vel[m.DB.Hips]) {
			t.Fatalf("rate half-life NaN, tick %d: rate %g (%g doublings/s)", k, m.Play.Rate, m.Play.RateVel)
		}
	}
}

// TestTooShortClips: a source whose clips are all shorter than the
// margins a search skips is refused with a message saying so, not built
// into a database that can never transition.
func TestTooShortClips(t *testing.T) {
	src := embeddedSource(t)
	src.Clips = []animsys.Clip{src.Clips[0]}
	c := &src.Clips[0]
	short := animsys.NewClip("short", 20, c.Joints, c.FrameTime)
	for f := 0; f < short.Frames; f++ {
		for j := 0; j < c.Joints; j++ {
			short.SetPos(f, j, c.PosAt(f, j))
			short.Rot[short.At(f, j)] = c.Rot[c.At(f, j)]
		}
	}
	short.Prepare()
	src.Clips[0] = short
	if _, err := NewDatabase(src, DefaultWeights, 0.1); err == nil || !strings.Contains(err.Error(), "no frame to search") ||
		!strings.Contains(err.Error(), "short (0.32 s)") {
		t.Errorf("20 frames at 60 fps: %v, want the clip named as too short", err)
	}
	// Beside a long clip, the short one is named, and only played.
	src.Clips = append(src.Clips, embeddedSource(t).Clips[0])
	db, err := NewDatabase(src, DefaultWeights, 0.1)
	if err != nil || db.ShortClips() != "short (0.32 s)" {
		t.Errorf("with a long clip: %v, short clips %q", err, db.ShortClips())
	}
}

// TestSampleKeepsJoints: a database sample puts the smoothed root in
// joint 0 and re-expresses the root's children under it, so FK gives every
// other joint where the source clip has it, with the same velocity. Both
// run in float32 through the same FK a few metres from the origin: 1e-4 m
// and 1e-3 m/s are rounding headroom; a child left in the old root's frame
// would be off by the smoothing (centimetres, and the root's velocity
// difference).
func TestSampleKeepsJoints(t *testing.T) {
	db := embedded(t)
	n := db.Skel.Len()
	a, b, ga, gb, r := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(1)
	for c := range db.Clips {
		for _, frac := range []float32{0.1, 0.37, 0.8} {
			tm := frac * db.Clips[c].Duration()
			animsys.SampleCubic(&a, &db.Clips[c], tm)
			db.Sample(&b, &r, c, tm)
			animsys.FK(&ga, &a, db.Skel.Parents)
			animsys.FK(&gb, &b, db.Skel.Parents)
			for j := 1; j < n; j++ {
				if d := ga.Pos[j].Sub(gb.Pos[j]).Len(); d > 1e-4 {
					t.Errorf("%s at %.2f s: %s moved %.2g m", db.Clips[c].Name, tm, db.Skel.Names[j], d)
				}
				if d := ga.Vel[j].Sub(gb.Vel[j]).Len(); d > 1e-3 {
					t.Errorf("%s at %.2f s: %s's velocity changed by %.2g m/s", db.Clips[c].Name, tm, db.Skel.Names[j], d)
				}
			}
		}
	}
}

// TestTrajectoryFloorIgnoresSync: the trajectory error's floor (the
// input's own share, Metrics.SimTrajectoryError) is the same whatever
// the synchronisation does to the matcher's simulation (held back at the
// clamp, left free while the root is dragged, or put on the root every
// tick), since it comes from a simulation only the input steers; the
// zigzag is a path where the clamp, holding at once (HoldAfter 0), holds
// the embedded set's simulation back (the floor of the held simulation
// itself read 52.3 cm there against 41.0 free).
func TestTrajectoryFloorIgnoresSync(t *testing.T) {
	db := embedded(t)
	st := DefaultSettings()
	st.Sync.HoldAfter = 0
	held := Eval(db, st, Zigzag, 20, 1)
	st.Sync.Hold = false
	dragged := Eval(db, st, Zigzag, 20, 1)
	st.Sync = SyncSettings{}
	off := Eval(db, st, Zigzag, 20, 1)
	if held.SimTrajectoryError != dragged.SimTrajectoryError || held.SimTrajectoryError != off.SimTrajectoryError {
		t.Errorf("floor %.4f cm held, %.4f dragged, %.4f with no synchronisation: want one figure",
			held.SimTrajectoryError, dragged.SimTrajectoryError, off.SimTrajectoryError)
	}
	if held.TrajectoryError == dragged.TrajectoryError {
		t.Errorf("trajectory error %.4f cm both held and dragged: the clamp never held the simulation, so this path tests nothing", held.TrajectoryError)
	}
}
