package matching

import (
	"kinelab/animsys/mathx"
)

// Foot contacts: each frame of the database says which ankles and toes
// stand on the ground, read from the captures' exact velocities; the
// matcher holds an ankle and a toe where they touched down while their
// frames say so (foot locking: the two-bone IK places the ankle, the foot
// turns so the toe reaches its point), and lets them go smoothly.

// Contact thresholds, relative to the figure's size (the median height of
// its hips above the ground, Database.Size): an ankle or a toe is on the
// ground when the joint is within contactHeight of its lowest in the clip
// and moves slower than contactSpeed per second. A human's hips stand
// about 0.9 m high: 5 cm and 0.32 m/s.
const (
	contactHeight = 0.06
	contactSpeed  = 0.35
	// contactMinRun (frames): shorter runs of contact or of no contact
	// are noise (a foot brushing the ground, a frame of jitter): a gap is
	// filled, a blip dropped.
	contactMinRun = 3
)

// landTop is the highest (m above the ground) a lock holds a joint that
// the clip playing has at height y: landMargin (m for a human, times
// Unit) above it.
func (db *Database) landTop(y float32) float32 { return y + landMargin*db.Unit }

// landMargin (m, a human's) is how far above the clip's own joint a lock
// may hold it: the labels' own band would let a foot hover 5 cm up.
const landMargin = 0.01

// Contact reports whether database frame i has foot s's (0 left, 1 right)
// ankle on the ground.
func (db *Database) Contact(i, s int) bool { return db.contacts[i]&(1<<s) != 0 }

// ToeContact reports whether database frame i has foot s's toe on the
// ground by the lock's labels (false for a figure without toes): the
// toe stays planted while the heel lifts before toe-off, when the ankle
// has left the ground.
func (db *Database) ToeContact(i, s int) bool { return db.contacts[i]&(4<<s) != 0 }

// ContactShare is the share of frames and feet whose ankle is labelled in
// contact.
func (db *Database) ContactShare() float64 {
	n := 0
	for _, c := range db.contacts {
		n += int(c&1) + int(c>>1&1)
	}
	return float64(n) / float64(2*max(len(db.contacts), 1))
}

// clipContacts labels clip c's frames for one joint of each foot (the
// ankles with bit 0, the toes with bit 2) from its heights (m above the
// root, which is on the ground) and speeds (m/s), the figure's size in
// the clip (m, its hips' median height) given; it returns the joints'
// floors in the clip (m), left then right.
func (db *Database) clipContacts(c, bit int, height, speed [2][]float32, size float32) [2]float32 {
	var floors [2]float32
	for s := range height {
		floor := mathx.Quantile(height[s], 0.02)
		floors[s] = floor
		on := make([]bool, len(height[s]))
		for f := range on {
			on[f] = height[s][f] < floor+contactHeight*size && speed[s][f] < contactSpeed*size
		}
		cleanRuns(on, true)
		cleanRuns(on, false)
		for f, x := range on {
			if x {
				db.contacts[db.Start[c]+f] |= 1 << (bit + s)
			}
		}
	}
	return floors
}

// cleanRuns flips every run of value v shorter than contactMinRun frames
// that has frames of the other value on both sides.
func cleanRuns(on []bool, v bool) {
	for f := 0; f < len(on); {
		if on[f] != v {
			f++
			continue
		}
		e := f
		for e < len(on) && on[e] == v {
			e++
		}
		if e-f < contactMinRun && f > 0 && e < len(on) {
			for k := f; k < e; k++ {
				on[k] = !v
			}
		}
		f = e
	}
}
