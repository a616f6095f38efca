package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Standing: where the matcher stands at rest (Rest). A database with a
// stretch of standing (an idle clip, a pause between steps) has an idle
// stretch to play and hold; every database has stances, frames with both
// feet down and level, to hold where a stop leaves the feet.

// findStances chooses, once, the idle stretch and the stances.
//
// The idle stretch is the longest run of frames of one clip with both
// feet on the ground (the lock's labels) and the root slower than
// RestSpeed; for captures with no such run (walks and runs that never
// stop), the single stillest stance (or, without one, frame with both
// feet down, or frame), held: the least summed ground speed of the root
// and speed of the hips and feet (m/s).
//
// A stance is a frame with both feet on the ground by the lock's labels
// (and by the second definition's, Truth, where there are toes) and both
// ankles within heelDown of the ankles' floor (Database.AnkleFloor): two
// feet down, neither heel up (a walk's double support has its trailing
// heel up, 2-7 cm).
func (db *Database) findStances() {
	db.stances = db.stances[:0]
	for i := 0; i < db.Frames; i++ {
		if db.stance(i) {
			db.stances = append(db.stances, i)
		}
	}
	db.IdleFrom, db.IdleTo = -1, -1
	rest, best := RestSpeed*db.Unit, 0
	for c := range db.Clips {
		run := 0
		for f := 0; f < db.Clips[c].Frames; f++ {
			i := db.At(c, f)
			if !db.Contact(i, 0) || !db.Contact(i, 1) || !(db.rootSpeed[i] < rest) {
				run = 0
				continue
			}
			if run++; run > best {
				best, db.IdleFrom, db.IdleTo = run, i-run+1, i
			}
		}
	}
	if best > 0 {
		return
	}
	least := float32(math.Inf(1))
	for i := 0; i < db.Frames; i++ {
		s := db.stillness(i)
		switch {
		case db.stance(i):
		case db.Contact(i, 0) && db.Contact(i, 1):
			s += 1e6 // a stance first, then any frame with both feet down
		default:
			s += 2e6
		}
		if s < least {
			least, db.IdleFrom, db.IdleTo = s, i, i
		}
	}
}

// stance reports whether frame i is a stance (findStances).
func (db *Database) stance(i int) bool {
	if !db.Contact(i, 0) || !db.Contact(i, 1) {
		return false
	}
	if db.HasToes() {
		if l, _ := db.Truth(i, 0); !l {
			return false
		}
		if r, _ := db.Truth(i, 1); !r {
			return false
		}
	}
	pos, _ := db.FootState(i)
	top := db.AnkleFloor + heelDown*db.Unit
	return pos[0][1] <= top && pos[1][1] <= top
}

// heelDown (m for a human, times Database.Unit) is how far above the
// ankles' floor a stance's ankles may stand: half of LevelHeight, so two
// of them stand level.
const heelDown = LevelHeight / 2

// stillness is how fast frame i moves: the summed ground speed of the
// root and speeds of the hips and feet (m/s).
func (db *Database) stillness(i int) float32 {
	_, vel := db.FootState(i)
	h := db.raw[HipVel][3*i:]
	return db.rootSpeed[i] + mgl32.Vec3{h[0], h[1], h[2]}.Len() + vel[0].Len() + vel[1].Len()
}

// stanceWeight (s) weighs a stance's hips' speed against how far its feet
// are from where the feet stand (m): a stance moving at 1 m/s (a walk's
// double support, held) costs what 30 cm of the feet does, so a standing
// frame wins unless the feet would have to move further.
const stanceWeight = 0.3

// StanceFor is the frame to stand in with the feet at feet (left, right;
// m, in the root's frame): the stance (or frame of the idle stretch)
// whose feet lie nearest on the ground, its hips' speed weighed in
// (stanceWeight); the idle stretch's first frame with no stance.
func (db *Database) StanceFor(feet [2]mgl32.Vec3) int {
	best, least := db.IdleFrom, float32(math.Inf(1))
	cost := func(i int) float32 {
		pos, _ := db.FootState(i)
		var c float32
		for s := range pos {
			d := pos[s].Sub(feet[s])
			c += d[0]*d[0] + d[2]*d[2]
		}
		h := db.raw[HipVel][3*i:]
		v := stanceWeight * mgl32.Vec3{h[0], h[1], h[2]}.Len()
		return c + v*v
	}
	consider := func(i int) {
		if c := cost(i); c < least {
			best, least = i, c
		}
	}
	for _, i := range db.stances {
		consider(i)
	}
	for i := db.IdleFrom; i >= 0 && i <= db.IdleTo; i++ {
		consider(i)
	}
	return best
}
