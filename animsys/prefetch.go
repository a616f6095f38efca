package animsys

import "unsafe"

// Prefetches: what a crowd's next character reads, asked of the processor
// while the current one ticks (BenchCharacter.Prefetch), through the one
// instruction prefetch wires up (prefetch_amd64.s; nothing elsewhere).

// prefetchAt prefetches what sampling c at time t (s) reads most of: the
// cached record of the interval t lies in, or without the cache the
// rotations of the four frames around t (see prefetch). Clips sampled from
// Curves are left alone.
func (c *Clip) prefetchAt(t float32) {
	if c.Curves != nil || c.Joints < 1 || c.Frames < 1 {
		return
	}
	st, _ := frameAt(t, c.FrameTime)
	if c.prepared() {
		if st >= 0 && st < c.Frames-1 {
			rots, pos, scl := c.records(st)
			prefetchSlice(rots)
			prefetchSlice(pos)
			prefetchSlice(scl)
		}
		return
	}
	n := c.Joints
	lo, hi := clampFrame(st-1, c.Frames)*n, min((clampFrame(st+2, c.Frames)+1)*n, len(c.Rot))
	if lo < hi {
		prefetchSlice(c.Rot[lo:hi])
	}
}

// prefetch prefetches every channel of p (see prefetch).
func (p *Pose) prefetch() {
	prefetchSlice(p.Pos)
	prefetchSlice(p.Rot)
	prefetchSlice(p.Scl)
	prefetchSlice(p.Vel)
	prefetchSlice(p.Ang)
	prefetchSlice(p.Svl)
}

// prefetchSlice prefetches the elements of s (see prefetch).
func prefetchSlice[T any](s []T) {
	var z T
	prefetch(unsafe.Pointer(unsafe.SliceData(s)), uintptr(len(s))*unsafe.Sizeof(z))
}
