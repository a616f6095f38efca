//go:build race

package racebuild

// Enabled is true: the race detector is on.
const Enabled = true
