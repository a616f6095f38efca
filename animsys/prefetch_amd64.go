//go:build !purego

package animsys

import "unsafe"

// prefetch asks the processor to start loading the n bytes at p into its
// L2 cache, and returns without waiting for them (prefetch_amd64.s).
//
//go:noescape
func prefetch(p unsafe.Pointer, n uintptr)
