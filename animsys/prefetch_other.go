//go:build !amd64 || purego

package animsys

import "unsafe"

// prefetch does nothing: only amd64 has a prefetch wired up
// (prefetch_amd64.s).
func prefetch(p unsafe.Pointer, n uintptr) {}
