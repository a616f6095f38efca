//go:build !unix

package fuzzedit

import "time"

// cpuTime is not known here: Watchdog does nothing.
func cpuTime() (time.Duration, bool) { return 0, false }
