//go:build !race

package racebuild

// Enabled is false: the race detector is off.
const Enabled = false
