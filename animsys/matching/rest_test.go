package matching

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
)

// The idle state and the playback rate.

// TestIdleStretch: the stretch chosen once is still by its own
// definition: on the embedded set a run of its idle clip of over 2 s,
// every frame with both feet down and the root slower than RestSpeed; on
// the captures, which only walk and run, the few frames a walk starts
// from (then held). With no frame slower than RestSpeed (the embedded
// set's root speeds raised by 1 m/s), the single stillest frame with both
// feet down.
func TestIdleStretch(t *testing.T) {
	db := embedded(t)
	c, f := db.Locate(db.IdleFrom)
	if db.IdleFrom < 0 || !strings.HasSuffix(db.Clips[c].Name, "idle") {
		t.Fatalf("the idle stretch is frames %d-%d (clip %d, frame %d)", db.IdleFrom, db.IdleTo, c, f)
	}
	if s := float32(db.IdleTo-db.IdleFrom) * db.Clips[c].FrameTime; s < 2 {
		t.Errorf("the idle stretch lasts %.2f s", s)
	}
	still(t, "embedded", db)
	t.Logf("embedded: %s frames %d-%d", db.Clips[c].Name, f, f+db.IdleTo-db.IdleFrom)

	moving := *db
	moving.rootSpeed = make([]float32, db.Frames)
	for i, v := range db.rootSpeed {
		moving.rootSpeed[i] = v + 1
	}
	moving.findStances()
	i := moving.IdleFrom
	if i < 0 || moving.IdleTo != i || !db.Contact(i, 0) || !db.Contact(i, 1) {
		t.Fatalf("no still run: the idle stretch is frames %d-%d", moving.IdleFrom, moving.IdleTo)
	}
	stillness := func(i int) float32 {
		_, vel := db.FootState(i)
		h := db.raw[HipVel][3*i:]
		return moving.rootSpeed[i] + mgl32.Vec3{h[0], h[1], h[2]}.Len() + vel[0].Len() + vel[1].Len()
	}
	for k := 0; k < db.Frames; k++ {
		if db.Contact(k, 0) && db.Contact(k, 1) && stillness(k) < stillness(i) {
			t.Fatalf("no still run: frame %d, both feet down, is stiller (%.3f m/s summed) than the held %d (%.3f)", k, stillness(k), i, stillness(i))
		}
	}
	cap, err := NewDatabase(captures(t), DefaultWeights, DefaultSettings().Halflife)
	if err != nil {
		t.Fatal(err)
	}
	c, f = cap.Locate(cap.IdleFrom)
	if cap.IdleFrom < 0 || cap.IdleTo-cap.IdleFrom > 10 || !strings.Contains(cap.Clips[c].Name, "walk") {
		t.Fatalf("captures: the idle stretch is frames %d-%d of %s", cap.IdleFrom, cap.IdleTo, cap.Clips[c].Name)
	}
	still(t, "captures", cap)
	t.Logf("captures: %s frames %d-%d", cap.Clips[c].Name, f, f+cap.IdleTo-cap.IdleFrom)
}

// still checks that db's idle stretch lies in one clip and that each of
// its frames has both feet down and the root slower than RestSpeed.
func still(t *testing.T, name string, db *Database) {
	t.Helper()
	c, _ := db.Locate(db.IdleFrom)
	if c2, _ := db.Locate(db.IdleTo); c2 != c || db.IdleTo < db.IdleFrom {
		t.Fatalf("%s: the idle stretch, frames %d-%d, is not one clip's", name, db.IdleFrom, db.IdleTo)
	}
	for i := db.IdleFrom; i <= db.IdleTo; i++ {
		if !db.Contact(i, 0) || !db.Contact(i, 1) || !(db.rootSpeed[i] < RestSpeed*db.Unit) {
			t.Fatalf("%s: idle frame %d: feet %v %v, root at %.3f m/s", name, i, db.Contact(i, 0), db.Contact(i, 1), db.rootSpeed[i])
		}
	}
}

// TestIdleState: standing does not search. On stop-go and random (120 s,
// as eval measures), once idle the matcher runs no search until the input
// asks to move, then transitions on that very tick; at most one
// transition a second at rest (the bound; a turn on the spot is
// not rest: Meter), fewer than with the idle state off on stop-go (none
// either way on random), and at most three while moving. The stops are entered:
// stop-go's 24 stops each find the idle state.
func TestIdleState(t *testing.T) {
	db := embedded(t)
	for _, p := range []Path{StopGo, Random} {
		m := NewMatcher(db, DefaultSettings())
		var mt Meter
		entries, idleTicks := 0, 0
		for k := 0; k < 120*60; k++ {
			in := p.Input(float32(k)/60, 1)
			was := m.Rest.Idle
			m.Update(in, 1.0/60)
			mt.Tick(m, in, 1.0/60)
			switch {
			case m.Rest.Idle && !was:
				entries++
				if !m.Search.Transited {
					t.Fatalf("%s at %.2f s: entered the idle state without a transition", p, float32(k)/60)
				}
			case m.Rest.Idle:
				idleTicks++
				if m.Search.Searched || m.Search.Transited {
					t.Fatalf("%s at %.2f s: idle, yet searched %v, transitioned %v", p, float32(k)/60, m.Search.Searched, m.Search.Transited)
				}
			case was && in.Move.Len() >= stillInput && !m.Search.Transited:
				t.Fatalf("%s at %.2f s: asked to move, left the idle state without a transition", p, float32(k)/60)
			}
		}
		on := mt.Metrics(m)
		s := DefaultSettings()
		s.Idle = false
		off, _ := run(db, nil, s, p, 120, 1, nil)
		// Random's rests are short and its turns on the spot count as
		// moving: it reads 0 at rest either way, so only stop-go's
		// stops can show the idle state's gain.
		if !(on.TransitionsIdle <= 1) || !(on.TransitionsIdle <= off.TransitionsIdle) || p == StopGo && !(on.TransitionsIdle < off.TransitionsIdle) || !(on.TransitionsMoving <= 3) {
			t.Errorf("%s: %.2f transitions a second at rest (%.2f with the idle state off), %.2f moving", p, on.TransitionsIdle, off.TransitionsIdle, on.TransitionsMoving)
		}
		if p == StopGo && entries < 24 {
			t.Errorf("%s: the idle state entered %d times in 24 stops", p, entries)
		}
		t.Logf("%s: %d entries, %.1f s idle; %.2f transitions a second at rest (%.2f off), %.2f moving", p, entries, float32(idleTicks)/60, on.TransitionsIdle, off.TransitionsIdle, on.TransitionsMoving)
	}
}

// TestPlaybackRate: the rate stays within its bounds on every path, and
// is what it is for: on the embedded circle (walks slower than the asked
// 1.4 m/s) it plays them faster, so the root keeps nearer the simulation
// than at rate 1 (1.0 against 1.9 cm, the stride warp off: it does the
// rate's work otherwise), the ankles sliding no more than half a cm/s
// more (2.9 against 2.6 cm/s, where the feet now hold their pivots and
// turn with the body; 3.4 against 5.7 before). Off, every clip plays at
// 1.
func TestPlaybackRate(t *testing.T) {
	db := embedded(t)
	for p := Path(0); p < NumPaths; p++ {
		for _, on := range []bool{true, false} {
			s := DefaultSettings()
			s.Rate.On = on
			m := NewMatcher(db, s)
			for k := 0; k < 20*60; k++ {
				m.Update(p.Input(float32(k)/60, 1), 1.0/60)
				r := m.Play.Playing()
				if on && !(r >= RateMin && r <= RateMax || r == 0 && m.Rest.Idle) || !on && !(r == 1 || r == 0 && m.Rest.Idle) {
					t.Fatalf("%s, rate on %v, at %.2f s: playing at %g", p, on, float32(k)/60, r)
				}
			}
		}
	}
	// The stride warp does the rate's work where the rate is off (it
	// scales the travel instead of the time): the rate is weighed
	// without it.
	on := DefaultSettings()
	on.Warp.Stride = false
	off := on
	off.Rate.On = false
	with, _ := run(db, nil, on, Circle, 60, 1, nil)
	without, _ := run(db, nil, off, Circle, 60, 1, nil)
	if !(with.SyncDistance < without.SyncDistance) || !(*with.AnkleSliding < *without.AnkleSliding+0.5) {
		t.Errorf("circle: %.1f cm from the simulation with the rate, %.1f without; ankles slide %.2f cm/s with, %.2f without",
			with.SyncDistance, without.SyncDistance, *with.AnkleSliding, *without.AnkleSliding)
	}
	t.Logf("circle: %.1f cm from the simulation with the rate, %.1f without; ankles slide %.2f cm/s with, %.2f without",
		with.SyncDistance, without.SyncDistance, *with.AnkleSliding, *without.AnkleSliding)

	// A turn on the spot plays at the ratio of the turn rates: the
	// embedded spins, asked at the rates they were made at, play at a
	// median 0.83 (quartiles 0.74-0.93) where the ratio of speeds held
	// them at its bound, 0.7 (0.70-0.73: their root's sway over a
	// standing simulation).
	m := NewMatcher(db, DefaultSettings())
	var rates []float64
	for k := 0; k < 60*60; k++ {
		m.Update(Spin.Input(float32(k)/60, 1), 1.0/60)
		if !m.Rest.Idle && abs32(m.Sim.FaceTurn) > RestTurn {
			rates = append(rates, float64(m.Play.Playing()))
		}
	}
	slices.Sort(rates)
	if med := rates[len(rates)/2]; !(med > 0.8 && med < 1.2) {
		t.Errorf("spin: turning on the spot, the median rate is %.3f", med)
	}
	t.Logf("spin: turning on the spot, rates %.3f-%.3f, quartiles %.3f %.3f %.3f over %d ticks", rates[0], rates[len(rates)-1], rates[len(rates)/4], rates[len(rates)/2], rates[3*len(rates)/4], len(rates))
}

// TestRateScalesVelocities: a clip sampled at rate r has r times the
// velocities (linear, angular, scalar) of its sample at rate 1, and the
// same pose: P(τ) with dτ/dt = r.
func TestRateScalesVelocities(t *testing.T) {
	db := embedded(t)
	m := NewMatcher(db, DefaultSettings())
	c, f := db.Locate(db.Frames / 3)
	at := float32(f) * db.Clips[c].FrameTime
	m.Play.play = 1
	m.Play.sample(m.DB, c, at)
	one := struct{ pos, vel, ang []mgl32.Vec3 }{append([]mgl32.Vec3(nil), m.Play.samp.Pos...), append([]mgl32.Vec3(nil), m.Play.samp.Vel...), append([]mgl32.Vec3(nil), m.Play.samp.Ang...)}
	speed := m.Play.clipSpeed
	for _, r := range []float32{0, RateMin, RateMax} {
		m.Play.play = r
		m.Play.sample(m.DB, c, at)
		if m.Play.clipSpeed != speed {
			t.Errorf("rate %g: the clip's own speed %g, %g at rate 1", r, m.Play.clipSpeed, speed)
		}
		for j := range one.vel {
			if m.Play.samp.Pos[j] != one.pos[j] || m.Play.samp.Vel[j].Sub(one.vel[j].Mul(r)).Len() > 1e-6 || m.Play.samp.Ang[j].Sub(one.ang[j].Mul(r)).Len() > 1e-6 {
				t.Fatalf("rate %g, joint %d: velocity %v, %v at rate 1", r, j, m.Play.samp.Vel[j], one.vel[j])
			}
		}
	}
}

// TestStand: with nothing asked, the character stands on two feet and
// stays: on the stand path (60 s) and after stop-go's stops, both ankles
// stand within LevelHeight of one height on at least 90% of the idle
// ticks of the last LevelWindow (the bound; 98-100% measured), it
// makes at most 0.2 transitions a second at rest once settled (0
// measured), and, standing, no foot points more than 90° from the clip's
// own (0).
// On the embedded set and on the captures of ../shared/locomotion,
// which have no standing frame: there, before stances, the character
// froze mid-stride with a heel up (level 0-48%), and a stop's held frame
// kept the feet locked where the last clip had put them in the air (the
// ankles 17 and 32 cm up, the knees bent under a kneeling figure). A
// stance is chosen where the feet are (Database.StanceFor): with the
// feet at a stance's own, the one chosen has its feet no further from
// them than stanceWeight times that stance's hips' speed (its cost).
func TestStand(t *testing.T) {
	dbs := []struct {
		name string
		db   func() *Database
	}{
		{"embedded", func() *Database { return embedded(t) }},
		{"captures", func() *Database {
			db, err := NewDatabase(Mirrored(captures(t)), DefaultWeights, DefaultSettings().Halflife)
			if err != nil {
				t.Fatal(err)
			}
			return db
		}},
	}
	for _, d := range dbs {
		db := d.db()
		for _, p := range []Path{Stand, StopGo} {
			r, _ := run(db, nil, DefaultSettings(), p, 60, 1, nil)
			if r.Level == nil || r.Turned == nil {
				t.Fatalf("%s, %s: no level or turned figure", d.name, p)
			}
			if !(*r.Level >= 0.9) || !(r.TransitionsSettled <= 0.2) || p == Stand && !(*r.Turned <= 0.01) {
				t.Errorf("%s, %s: level %.3f, %.2f transitions a second settled, turned %.3f", d.name, p, *r.Level, r.TransitionsSettled, *r.Turned)
				continue
			}
			t.Logf("%s, %s: ankles level on %.1f%% of the last %d s at rest, %.2f transitions a second settled, %.1f%% of feet turned",
				d.name, p, 100**r.Level, LevelWindow, r.TransitionsSettled, 100**r.Turned)
		}
		for k := 0; k < len(db.stances); k += max(len(db.stances)/50, 1) {
			i := db.stances[k]
			pos, _ := db.FootState(i)
			j := db.StanceFor(pos)
			got, _ := db.FootState(j)
			var far float32
			for s := range pos {
				far = max(far, groundDist(got[s], pos[s]))
			}
			h := db.raw[HipVel][3*i:]
			most := stanceWeight*(mgl32.Vec3{h[0], h[1], h[2]}).Len() + 1e-4
			if far > most {
				t.Fatalf("%s: the stance for frame %d's feet is frame %d, a foot %.3f m away (at most %.3f)", d.name, i, j, far, most)
			}
		}
	}
}

// TestStandWithoutStance: a database with no stance (../shared/mocap's
// 01, a single CMU walk cycle, mirrored: no frame has both feet down and
// both heels on the floor) holds its stillest frame at rest, one heel 6.6
// cm up; the matcher settles that frame's feet on the floor (Feet.lock's
// settle), so on the stand path both ankles stand within LevelHeight of
// one height on at least 90% of the last LevelWindow (0% before; 100%
// measured), with no transition and no foot turned.
func TestStandWithoutStance(t *testing.T) {
	const file = "../../../shared/mocap/01_cmu_cgspeed_12_01_walk_tpose_frame0.bvh"
	if _, err := os.Stat(file); err != nil {
		t.Skipf("no %s (the shared mocap captures): %v", file, err)
	}
	ch, err := character.Load([]string{file}, bvh.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := SourceOf(ch)
	if err != nil {
		t.Fatal(err)
	}
	db, err := NewDatabase(Mirrored(src), DefaultWeights, DefaultSettings().Halflife)
	if err != nil {
		t.Fatal(err)
	}
	if len(db.stances) != 0 {
		t.Fatalf("%d stances: the walk was meant to have none", len(db.stances))
	}
	r, _ := run(db, nil, DefaultSettings(), Stand, 60, 1, nil)
	if r.Level == nil || r.Turned == nil {
		t.Fatal("no level or turned figure")
	}
	t.Logf("ankles level on %.1f%% of the last %d s, %.2f transitions a second, %.1f%% turned", 100**r.Level, LevelWindow, r.TransitionsIdle, 100**r.Turned)
	if !(*r.Level >= 0.9) || r.TransitionsIdle != 0 || *r.Turned != 0 {
		t.Errorf("ankles level on %.1f%% (at least 90%%), %.2f transitions a second (none), %.1f%% turned (none)", 100**r.Level, r.TransitionsIdle, 100**r.Turned)
	}
}
