package bvh

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// Leading frames that are no part of a file's motion are found by how far
// each pose lies from the motion that follows it. A pose is compared with
// another as its shape: every joint's position (End Sites too) with the
// roots held still and the centroid at the origin, so neither root motion
// nor facing counts. Two shapes are as far apart as their joints are, on
// average, leaving out the tenth that moved most: a toe that flicks 33°
// moves one End Site a few centimetres and cannot make a pose far, nor
// can a wrist that flicks with its fingers; arms raised to a T-pose,
// with the hands and fingers they carry, do.
//
// A leading run of frames is dropped when each of its frames lies far from
// every pose after the run: more than leadFar of the figure's size from
// the nearest, and more than leadSteps times as far as the motion moves
// in a frame (its 90th percentile). The run is the longest such within the
// first leadTime seconds (and the first quarter of the clip). A pose of the
// motion itself is never far from the motion after it, however fast it
// moves, since the next frame is a step away; a T-pose row is far from
// every pose after it, and so is each frame of a ramp in from a rest pose
// over a few frames, which moves several times faster than the motion.
// Frames whose every rotation is zero (a rest or bind pose written as a
// frame) are dropped first, whatever they look like.
const (
	leadFar    = 0.02 // of the figure's size
	leadSteps  = 3.0  // times the motion's 90th-percentile step
	leadTime   = 1.0  // s
	leadSample = 1024 // most motion frames compared with and steps measured
)

// lead is what leadIn finds at the start of a file.
type lead struct {
	zeros int // leading frames whose every rotation is zero
	skip  int // frames to drop: the zeros, then frames far from the motion
	// far holds each far frame's distance from the nearest pose of the
	// motion after the run (frames zeros to skip-1; file units).
	far []float32
	// step is how far the motion moves its joints in a frame (the 90th
	// percentile), size the figure's size (the median largest side of the
	// box around its shape); file units.
	step, size float32
	// joint moved most from the last far frame to its nearest pose of the
	// motion, by jointDist (file units).
	joint     int
	jointDist float32
}

// leadIn finds the leading frames of f that are no part of its motion; at
// least two frames are always left. It stops with ctx's error once ctx is
// done, checked per frame of the window compared with the motion.
func (f *File) leadIn(ctx context.Context) (lead, error) {
	var l lead
	if f.Frames < 3 || len(f.Joints) == 0 {
		return l, nil
	}
	for l.zeros < f.Frames-2 && f.zeroRotations(l.zeros) {
		l.zeros++
	}
	l.skip = l.zeros
	z := l.zeros
	w := min((f.Frames-z)/4, int(math.Ceil(leadTime/float64(f.FrameTime))))
	if w < 1 {
		return l, nil
	}
	sh := newShaper(f)
	// The frames compared with: every frame from z through the window and
	// as far again (the run's nearest poses are mostly just after it),
	// then frames spread over the rest of the clip.
	dense := min(f.Frames, z+2*w+1)
	frames := make([]int, 0, dense-z+leadSample)
	for fr := z; fr < dense; fr++ {
		frames = append(frames, fr)
	}
	if rest := f.Frames - dense; rest > 0 {
		k := min(rest, leadSample)
		for i := range k {
			frames = append(frames, dense+i*rest/k)
		}
	}
	shapes := make([][]mgl32.Vec3, len(frames))
	for i, fr := range frames {
		shapes[i] = sh.shape(fr, nil)
	}
	// The motion's pace and size, measured past the window.
	var steps, sizes []float32
	a, b := make([]mgl32.Vec3, len(f.Joints)), make([]mgl32.Vec3, len(f.Joints))
	from := z + w
	k := min(f.Frames-1-from, leadSample)
	for i := range k {
		fr := from + i*(f.Frames-1-from)/k
		a, b = sh.shape(fr, a), sh.shape(fr+1, b)
		steps = append(steps, sh.dist(a, b))
		if i%max(1, k/48) == 0 {
			sizes = append(sizes, extent(a))
		}
	}
	if len(steps) == 0 {
		return l, nil
	}
	l.step, l.size = quantile(steps, 0.9), quantile(sizes, 0.5)
	if !(l.size > 0) {
		return l, nil
	}
	threshold := max(leadFar*l.size, leadSteps*l.step)
	// near[i][k]: how far frame z+i lies from the nearest of frames[k:],
	// so its distance from the motion after a run ending at frame s is
	// near[i][s-z] (frames[s-z] is frame s for every s within the window).
	near := make([][]float32, w)
	for i := range near {
		if err := ctx.Err(); err != nil {
			return l, err
		}
		near[i] = make([]float32, len(frames))
		m := float32(math.Inf(1))
		for k := len(frames) - 1; k > i; k-- {
			m = min(m, sh.dist(shapes[i], shapes[k]))
			near[i][k] = m
		}
	}
	for s := z + w; s > z; s-- {
		far := true
		for i := 0; i < s-z && far; i++ {
			far = near[i][s-z] > threshold
		}
		if !far {
			continue
		}
		l.skip = s
		for i := 0; i < s-z; i++ {
			l.far = append(l.far, near[i][s-z])
		}
		// The joint that sets the last far frame apart most.
		last, best := s-z-1, float32(math.Inf(1))
		var at int
		for k := s - z; k < len(frames); k++ {
			if d := sh.dist(shapes[last], shapes[k]); d < best {
				best, at = d, k
			}
		}
		for j := range shapes[last] {
			if d := shapes[last][j].Sub(shapes[at][j]).Len(); d > l.jointDist {
				l.joint, l.jointDist = j, d
			}
		}
		break
	}
	return l, nil
}

// reason says what l drops and why, in words and figures a user can check;
// metres is the size of a file unit in metres (Units.Scale).
func (l lead) reason(f *File, metres float32) string {
	var why string
	if l.zeros > 0 {
		why = frameRange(0, l.zeros) + ": every rotation is zero (a rest pose, not motion)"
	}
	if len(l.far) == 0 {
		return why
	}
	if why != "" {
		why += "; "
	}
	lo, hi := l.far[0], l.far[0]
	for _, d := range l.far {
		lo, hi = min(lo, d), max(hi, d)
	}
	pct := func(d float32) string { return fmt.Sprintf("%.2g%%", 100*d/l.size) }
	dist, share, whose, after, least, most := length(hi*metres), pct(hi), "its", "it", "", ""
	if len(l.far) > 1 {
		dist, share, whose, after = length(hi*metres)+" to "+length(lo*metres), pct(hi)+" to "+pct(lo), "their", "them"
		least, most = "at least ", fmt.Sprintf("at frame %d ", l.skip-1)
	}
	what := "a pose the motion never comes near"
	if l.zeros > 0 {
		what = "a ramp in from the rest pose"
	}
	pace := "while the motion keeps them still"
	if l.step > 0 {
		pace = fmt.Sprintf("%s%.2g times the %s the motion moves them in a frame (its 90th percentile)", least, lo/l.step, length(l.step*metres))
	}
	return why + fmt.Sprintf("%s, %s: %s joints lie %s (%s of the figure's size) on average from the nearest pose of the motion after %s, %s; %s%s most (%s)",
		frameRange(l.zeros, l.skip), what, whose, dist, share, after, pace, most, f.Joints[l.joint].Name, length(l.jointDist*metres))
}

// frameRange names frames a to b-1: "frame 0", "frames 1-4".
func frameRange(a, b int) string {
	if b-a == 1 {
		return fmt.Sprintf("frame %d", a)
	}
	return fmt.Sprintf("frames %d-%d", a, b-1)
}

// length writes a length in metres as people read it: "24 cm", "4 mm", "1.3 m".
func length(m float32) string {
	switch {
	case m >= 1:
		return fmt.Sprintf("%.2g m", m)
	case m >= 0.01:
		return fmt.Sprintf("%.2g cm", m*100)
	}
	return fmt.Sprintf("%.2g mm", m*1000)
}

// zeroRotations reports whether every rotation channel of frame fr is 0
// (and there is at least one).
func (f *File) zeroRotations(fr int) bool {
	row, any := f.Row(fr), false
	for i := range f.Joints {
		j := &f.Joints[i]
		for k, ch := range j.Channels {
			if ch.IsRotation() {
				any = true
				if row[j.First+k] != 0 {
					return false
				}
			}
		}
	}
	return any
}

// shaper computes the shapes of a file's frames and their distances.
type shaper struct {
	f             *File
	parents       []int
	local, global animsys.Pose
	d             []float32 // scratch: the joints' distances
}

func newShaper(f *File) *shaper {
	n := len(f.Joints)
	s := &shaper{f: f, parents: make([]int, n), local: animsys.NewPose(n), global: animsys.NewPose(n), d: make([]float32, n)}
	for i := range f.Joints {
		s.parents[i] = f.Joints[i].Parent
	}
	return s
}

// shape writes frame fr's shape into out (made when nil) and returns it:
// its joints' positions (file units) with every root at the origin,
// unturned, then moved so their centroid is at the origin.
func (s *shaper) shape(fr int, out []mgl32.Vec3) []mgl32.Vec3 {
	if out == nil {
		out = make([]mgl32.Vec3, len(s.parents))
	}
	s.f.pose(s.local.Pos, s.local.Rot, fr, 1)
	for j, p := range s.parents {
		if p < 0 {
			s.local.Pos[j], s.local.Rot[j] = mgl32.Vec3{}, mgl32.QuatIdent()
		}
	}
	animsys.FKStatic(&s.global, &s.local, s.parents)
	var c mgl32.Vec3
	for _, p := range s.global.Pos {
		c = c.Add(p)
	}
	c = c.Mul(1 / float32(len(s.parents)))
	for j, p := range s.global.Pos {
		out[j] = p.Sub(c)
	}
	return out
}

// dist is how far apart two shapes are: the mean distance between their
// joints, leaving out the tenth of the joints that are farthest apart
// (at least one, when there are three or more). The tenth is found by
// selection, in time linear in the joints: kept sorted as it was met, it
// took time in their square (a 10,000-joint chain: 3 s of a file's read).
func (s *shaper) dist(a, b []mgl32.Vec3) float32 {
	n := len(a)
	drop := n / 10
	if drop == 0 && n >= 3 {
		drop = 1
	}
	d := s.d[:n]
	var sum float32
	for j := range a {
		d[j] = a[j].Sub(b[j]).Len()
		sum += d[j]
	}
	top := d[n-drop:]
	selectTop(d, drop)
	slices.Sort(top) // subtracted smallest first, as they were
	for _, x := range top {
		sum -= x
	}
	return sum / float32(n-drop)
}

// selectTop moves the k largest of xs to its end (in no order), by
// quickselect with the median of three as pivot.
func selectTop(xs []float32, k int) {
	lo, hi, at := 0, len(xs)-1, len(xs)-k // xs[at:] to hold the k largest
	for k > 0 && lo < hi {
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		// xs[lo:j+1] <= pivot <= xs[i:hi+1], and xs[j+1:i] == pivot.
		switch {
		case at <= j:
			hi = j
		case at >= i:
			lo = i
		default:
			return
		}
	}
}

// quantile is the q-quantile of xs (sorted in place), 0 for none.
func quantile(xs []float32, q float64) float32 {
	if len(xs) == 0 {
		return 0
	}
	sort.Slice(xs, func(a, b int) bool { return xs[a] < xs[b] })
	return xs[int(q*float64(len(xs)-1)+0.5)]
}
