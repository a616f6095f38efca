// Package labs lists kinelab's labs, in tab order: the one place where the
// framework (package kinelab/app) and the labs, each a package of its own
// under app/labs, are wired together. main passes All to app.ParseFlags
// and app.Run. Adding a lab means a new folder here and a line in All.
package labs

import (
	"kinelab/app"
	"kinelab/app/labs/cost"
	"kinelab/app/labs/crowd"
	"kinelab/app/labs/matching"
	"kinelab/app/labs/scalar"
	"kinelab/app/labs/springs"
	"kinelab/app/labs/tracking"
	"kinelab/app/labs/velocities"
)

// All returns every lab in tab order (keys 1-7); the first is the one
// kinelab opens without --lab.
func All() []app.LabEntry {
	return []app.LabEntry{
		velocities.Entry(),
		tracking.Entry(),
		scalar.Entry(),
		cost.Entry(),
		springs.Entry(),
		crowd.Entry(),
		matching.Entry(),
	}
}
