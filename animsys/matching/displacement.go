package matching

import "kinelab/animsys"

// Displacement is the matcher's measure of what its transitions cost:
// the displacement (m·s) the inertializer has added to the feet since the
// last transition, ∫ Σ|out - target| dt (L1 over axes, both feet), and
// the finished transitions' totals.
type Displacement struct {
	Now  float32
	Done []float32
}

// reset forgets every transition.
func (d *Displacement) reset() { d.Now, d.Done = 0, d.Done[:0] }

// measure adds a tick of dt seconds: the output's feet (char, in the
// character's frame) against the playing clip's alone (target).
func (d *Displacement) measure(db *Database, char, target *animsys.Pose, dt float32) {
	for _, j := range db.Feet {
		e := char.Pos[j].Sub(target.Pos[j])
		d.Now += (abs32(e[0]) + abs32(e[1]) + abs32(e[2])) * dt
	}
}

// transition closes the transition that played (if any did: not before
// the first) and starts counting the next; first is whether none has
// been counted yet.
func (d *Displacement) transition(first bool) {
	if !first || d.Now > 0 {
		d.Done = append(d.Done, d.Now)
	}
	d.Now = 0
}
