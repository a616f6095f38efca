package assets

import _ "embed" // the trained networks below

// locomotionNetworks are the learned controller's networks trained on the
// embedded locomotion set's database (LocomotionCharacter, as the
// Matching lab and eval build it), made by `make networks` (kinelab
// matching train --minutes 30 --width 256 --out assets/locomotion.lmm).
//
//go:embed locomotion.lmm
var locomotionNetworks []byte

// LocomotionNetworks is the networks file (matching.ReadNetworks reads
// it) of the learned controller for the embedded locomotion set. It
// records the digest of the database it was trained on: a test fails
// when the embedded set changes and it is not trained again.
func LocomotionNetworks() []byte { return locomotionNetworks }
