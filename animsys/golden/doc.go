// Package golden makes kinelab's reference data for anyone porting the
// articles: for every velocity-propagating operation of "Propagating
// Velocities through Animation Systems" and every spring of "Perfect
// Tracking with Springs", "Scalar Velocity" and "Inertialization
// Transition Cost", a JSON file of cases — inputs on the bench-spec clips
// and hand-picked edge cases (half-life 0, dt 0, rotations 179.5 degrees
// apart, zero scalar velocity) — with the outputs animsys computes, and a
// README stating the conventions and the tolerance to test against.
//
// Each Op generates its file and checks one: Check reads a file and
// reproduces every case with animsys from the file's inputs alone. Write
// and CheckDir do every file in a folder; `kinelab golden DIR` and
// `kinelab golden --check DIR` run them.
package golden
