package matching

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/internal/regular"
	"kinelab/animsys/mathx"
	"kinelab/animsys/nn"
)

// Learned motion matching (Holden, Kanoun, Perepichka and Popa 2020):
// the database's poses and its search replaced by three small networks.
// The matcher's state is the playing frame's features x (the feature
// set's normalised, weighted vector) and a latent z (Latent values) that
// holds what the features do not say of the pose. Each frame the stepper
// advances (x, z) by one frame and the decompressor makes the pose (with
// its velocities and the feet's contacts) of (x, z); at each search the
// projector maps the query to the (x, z) of the frame a search would
// find. The compressor, which makes each frame's z from its pose, is
// only needed to train them (learned_train.go).

// Latent is the size of the latent vector z.
const Latent = 32

// lmmMagic begins a networks file (.lmm).
const lmmMagic = "kinelab lmm 1\n"

// Networks are a learned controller: its three networks, what they were
// trained on, and the states (x then z) of the few frames the matcher
// puts itself in without a search (Anchors: its start and its stances).
type Networks struct {
	// Digest is the database's (Database.Digest): networks trained on
	// another are refused.
	Digest [32]byte
	// Set, Halflife, Weights, Mean and Scale are the features as the
	// networks know them: the query is normalised with them, whatever
	// the database's weights are set to since.
	Set      Set
	Halflife float32
	Weights  Weights
	Mean     [NumGroups][6]float32
	Scale    [NumGroups]float32
	// FrameTime (s) is the step the stepper takes; Joints the skeleton's.
	FrameTime float32
	Joints    int
	// Decompressor: (x, z) to the pose vector (poseDims); Stepper: (x, z)
	// to its change over a frame; Projector: a query x to (x, z).
	Decompressor, Stepper, Projector *nn.MLP
	// Anchors are the database frames the matcher starts or stands in and
	// their states, in frame order.
	Anchors []Anchor
}

// Anchor is a database frame and its state (x then z); a stance (Rest)
// also has its feet on the ground (left x, z, right x, z: m in the root's
// frame) and its hips' speed (m/s), by which stanceFor chooses it.
type Anchor struct {
	Frame    int
	Stance   bool
	Feet     [4]float32
	HipSpeed float32
	State    []float32
}

// maxStances bounds the stances networks keep: the database's, spread
// over where they put the feet (Trainer.Networks), as a few kilobytes
// rather than its thousands.
const maxStances = 64

// stanceFor is the anchor frame to stand in with the feet at feet (m, in
// the root's frame), as Database.StanceFor chooses among the database's
// stances: the feet nearest on the ground, the hips' speed weighed in;
// the first anchor with no stance.
func (n *Networks) stanceFor(feet [2]mgl32.Vec3) int {
	best, least := n.Anchors[0].Frame, float32(math.Inf(1))
	for _, a := range n.Anchors {
		if !a.Stance {
			continue
		}
		dx0, dz0, dx1, dz1 := a.Feet[0]-feet[0][0], a.Feet[1]-feet[0][2], a.Feet[2]-feet[1][0], a.Feet[3]-feet[1][2]
		v := stanceWeight * a.HipSpeed
		if c := dx0*dx0 + dz0*dz0 + dx1*dx1 + dz1*dz1 + v*v; c < least {
			best, least = a.Frame, c
		}
	}
	return best
}

// Dims is the size of x.
func (n *Networks) Dims() int { return n.Projector.In() }

// Bytes is the memory the controller holds: its networks and anchors.
func (n *Networks) Bytes() int {
	b := n.Decompressor.Bytes() + n.Stepper.Bytes() + n.Projector.Bytes()
	for _, a := range n.Anchors {
		b += 8 + 4*len(a.State)
	}
	return b
}

// anchor is frame i's state, or nil.
func (n *Networks) anchor(i int) []float32 {
	for _, a := range n.Anchors {
		if a.Frame == i {
			return a.State
		}
	}
	return nil
}

// poseDims is the size of the pose vector of a skeleton of n joints: per
// joint but the root its local position (3), rotation (two axes of its
// matrix, 6: continuous, unlike a quaternion's sign), velocity (3) and
// angular velocity (3); the root's velocity and angular velocity in its
// own frame (the root motion, 6); the four contact labels (ankles, toes).
func poseDims(n int) int { return 15*(n-1) + 10 }

// encodePose writes local pose p (the root's motion as joint 0's
// velocities, RootMotion) and contact bits c into y.
func encodePose(y []float32, p *animsys.Pose, c uint8) {
	k := 0
	put := func(v mgl32.Vec3) { y[k], y[k+1], y[k+2] = v[0], v[1], v[2]; k += 3 }
	for j := 1; j < len(p.Pos); j++ {
		put(p.Pos[j])
		put(mathx.QuatMulVec3(p.Rot[j], mgl32.Vec3{1, 0, 0}))
		put(mathx.QuatMulVec3(p.Rot[j], mgl32.Vec3{0, 1, 0}))
		put(p.Vel[j])
		put(p.Ang[j])
	}
	put(p.Vel[0])
	put(p.Ang[0])
	for b := 0; b < 4; b++ {
		y[k+b] = float32(c >> b & 1)
	}
}

// quatFromAxes is the rotation whose matrix's first two columns are a and
// b, made orthonormal as axesToMat makes them.
func quatFromAxes(a, b mgl32.Vec3) mgl32.Quat {
	m, _ := axesToMat(a, b)
	return mgl32.Mat4ToQuat(m.Mat4()).Normalize()
}

// decodePose writes pose vector y into p (joint 0 at the origin with the
// root motion as its velocities) and returns the contact bits (a label
// above one half is in contact). A joint whose bone has one length in
// every frame of the database (bone, -1 where not) is put at that
// distance from its parent, so bones do not stretch; scale is 1.
func decodePose(p *animsys.Pose, y []float32, bone []float32) uint8 {
	k := 0
	get := func() mgl32.Vec3 { v := mgl32.Vec3{y[k], y[k+1], y[k+2]}; k += 3; return v }
	n := len(p.Pos)
	for j := 1; j < n; j++ {
		pos := get()
		if l := bone[j]; l >= 0 {
			if d := pos.Len(); d > 1e-9 {
				pos = pos.Mul(l / d)
			}
		}
		a := get()
		p.Pos[j], p.Rot[j], p.Scl[j] = pos, quatFromAxes(a, get()), mgl32.Vec3{1, 1, 1}
		p.Vel[j], p.Ang[j], p.Svl[j] = get(), get(), mgl32.Vec3{}
	}
	p.Pos[0], p.Rot[0], p.Scl[0] = mgl32.Vec3{}, mathx.QuatIdentity(), mgl32.Vec3{1, 1, 1}
	// The root is the database's ground-level root, which travels on the
	// ground and turns about the vertical only.
	v, w := get(), get()
	p.Vel[0], p.Ang[0], p.Svl[0] = mgl32.Vec3{v[0], 0, v[2]}, mgl32.Vec3{0, w[1], 0}, mgl32.Vec3{}
	var c uint8
	for b := 0; b < 4; b++ {
		if y[k+b] > 0.5 {
			c |= 1 << b
		}
	}
	return c
}

// Digest is a digest of what the database is made of: its skeleton, its
// clips' frames and the joints its features read. Networks record the
// digest of the database they were trained on.
func (db *Database) Digest() [32]byte {
	h := sha256.New()
	w := func(v any) { _ = binary.Write(h, binary.LittleEndian, v) }
	for _, p := range db.Skel.Parents {
		w(int32(p))
	}
	w([]int32{int32(db.Feet[0]), int32(db.Feet[1]), int32(db.Hips), int32(db.Toes[0]), int32(db.Toes[1])})
	for c := range db.Clips {
		cl := &db.Clips[c]
		w([]int32{int32(cl.Frames), int32(cl.Joints)})
		w(cl.FrameTime)
		w(cl.Rot)
		for f := 0; f < cl.Frames; f++ {
			for j := 0; j < cl.Joints; j++ {
				w(cl.PosAt(f, j))
			}
		}
	}
	var d [32]byte
	copy(d[:], h.Sum(nil))
	return d
}

// Fits reports why the networks cannot drive db's skeleton (nil if they
// can): another database, or another skeleton.
func (n *Networks) Fits(db *Database) error {
	switch {
	case n.Joints != db.Skel.Len():
		return fmt.Errorf("the networks are for a skeleton of %d joints, the database's has %d", n.Joints, db.Skel.Len())
	case n.Decompressor.Out() != poseDims(n.Joints):
		return fmt.Errorf("the decompressor gives %d values, a pose of %d joints has %d", n.Decompressor.Out(), n.Joints, poseDims(n.Joints))
	case n.Digest != db.Digest():
		return errors.New("the networks were trained on another database (its digest differs): train them on this one (kinelab matching train)")
	}
	return nil
}

// Write stores the networks (a .lmm file).
func (n *Networks) Write(w io.Writer) error {
	var b bytes.Buffer
	b.WriteString(lmmMagic)
	put := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	put(n.Digest)
	put([]int32{int32(n.Set), int32(n.Joints), int32(len(n.Anchors))})
	put(n.Halflife)
	put(n.FrameTime)
	put(n.Weights)
	put(n.Mean)
	put(n.Scale)
	for _, a := range n.Anchors {
		flags := int32(0)
		if a.Stance {
			flags = 1
		}
		put([2]int32{int32(a.Frame), flags})
		put(a.Feet)
		put(a.HipSpeed)
		put(a.State)
	}
	for _, m := range []*nn.MLP{n.Decompressor, n.Stepper, n.Projector} {
		if err := m.Write(&b); err != nil {
			return err
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// ReadNetworks loads networks stored by Write, refusing what is not a
// networks file or does not hold together.
func ReadNetworks(r io.Reader) (*Networks, error) {
	br := lmmReader{bufio.NewReader(r)}
	magic := make([]byte, len(lmmMagic))
	if _, err := io.ReadFull(br.r, magic); err != nil || string(magic) != lmmMagic {
		return nil, errors.New("not a kinelab networks file (it should begin \"kinelab lmm 1\")")
	}
	n, anchors, err := readHeader(br)
	if err != nil {
		return nil, err
	}
	if err := n.readAnchors(br, anchors); err != nil {
		return nil, err
	}
	for _, m := range []**nn.MLP{&n.Decompressor, &n.Stepper, &n.Projector} {
		if *m, err = nn.Read(br.r); err != nil {
			return nil, err
		}
	}
	if err := n.checkSizes(); err != nil {
		return nil, err
	}
	if _, err := br.r.ReadByte(); err != io.EOF {
		return nil, errors.New("the file goes on past its networks")
	}
	return n, nil
}

// lmmReader reads a networks file's fixed-size values.
type lmmReader struct{ r *bufio.Reader }

// get reads each of vs, little-endian.
func (br lmmReader) get(vs ...any) error {
	for _, v := range vs {
		if err := binary.Read(br.r, binary.LittleEndian, v); err != nil {
			return errors.New("the file ends early")
		}
	}
	return nil
}

// readHeader reads what the networks were trained on, and how many
// anchors follow; values out of range are refused.
func readHeader(br lmmReader) (*Networks, int, error) {
	n := &Networks{}
	var hdr [3]int32
	if err := br.get(&n.Digest, &hdr, &n.Halflife, &n.FrameTime, &n.Weights, &n.Mean, &n.Scale); err != nil {
		return nil, 0, err
	}
	n.Set, n.Joints = Set(hdr[0]), int(hdr[1])
	finite := finiteAll(n.Weights[:]) && finiteAll(n.Scale[:])
	for g := range n.Mean {
		finite = finite && finiteAll(n.Mean[g][:])
	}
	for _, sc := range n.Scale {
		finite = finite && sc > 0
	}
	switch {
	case n.Set < 0 || n.Set >= NumSets:
		return nil, 0, fmt.Errorf("feature set %d unknown", hdr[0])
	case n.Joints < 2 || n.Joints > 1024:
		return nil, 0, fmt.Errorf("%d joints: want 2 to 1024", n.Joints)
	case hdr[2] < 1 || hdr[2] > 1<<16:
		return nil, 0, fmt.Errorf("%d anchors: want 1 to 65536", hdr[2])
	case !(n.FrameTime > 0 && n.FrameTime < 1) || !(n.Halflife >= 0) || !mathx.Finite(n.Halflife):
		return nil, 0, fmt.Errorf("frame time %g s or half-life %g s out of range", n.FrameTime, n.Halflife)
	case !finite:
		return nil, 0, errors.New("the features' normalisation is not finite, or a scale is not positive")
	}
	return n, int(hdr[2]), nil
}

// readAnchors reads count anchors, each a frame, its feet and hips'
// speed, and its state, finite.
func (n *Networks) readAnchors(br lmmReader, count int) error {
	dims := n.Set.dims()
	for k := 0; k < count; k++ {
		a := Anchor{State: make([]float32, dims+Latent)}
		var f [2]int32
		if err := br.get(&f, &a.Feet, &a.HipSpeed, a.State); err != nil {
			return err
		}
		a.Frame, a.Stance = int(f[0]), f[1]&1 != 0
		if a.Frame < 0 || !finiteAll(a.State) || !finiteAll(a.Feet[:]) || !mathx.Finite(a.HipSpeed) {
			return fmt.Errorf("anchor %d: frame %d, or a value not finite", k, a.Frame)
		}
		n.Anchors = append(n.Anchors, a)
	}
	return nil
}

// checkSizes says where the networks' sizes do not chain: the
// decompressor (x, z) to a pose of Joints, the stepper (x, z) to (x, z),
// the projector x to (x, z).
func (n *Networks) checkSizes() error {
	dims := n.Set.dims()
	x := dims + Latent
	switch {
	case n.Decompressor.In() != x || n.Decompressor.Out() != poseDims(n.Joints):
		return fmt.Errorf("the decompressor is %d to %d, want %d to %d", n.Decompressor.In(), n.Decompressor.Out(), x, poseDims(n.Joints))
	case n.Stepper.In() != x || n.Stepper.Out() != x:
		return fmt.Errorf("the stepper is %d to %d, want %d to %d", n.Stepper.In(), n.Stepper.Out(), x, x)
	case n.Projector.In() != dims || n.Projector.Out() != x:
		return fmt.Errorf("the projector is %d to %d, want %d to %d", n.Projector.In(), n.Projector.Out(), dims, x)
	}
	return nil
}

// maxNetworksFile (bytes) bounds a networks file: the shipped ones are
// 1.7 MB, the reference demo's 5.5.
const maxNetworksFile = 256 << 20

// ReadNetworksFile reads the networks file at path (ReadNetworks), a
// regular file of at most 256 MB: a FIFO, a device or a folder is
// refused by name rather than read for ever.
func ReadNetworksFile(path string) (*Networks, error) {
	f, err := regular.OpenLimit(path, maxNetworksFile, "a networks file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, err := ReadNetworks(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// dims is the number of features set s has.
func (s Set) dims() int {
	n := 0
	for _, g := range setGroups[s] {
		n += groupDims[g]
	}
	return n
}

// normalise writes raw features r as the networks' x (their set's
// groups, each minus its mean, over its scale, times its weight, in the
// order the database lays them), the Inertial group made anew at their
// half-life.
func (n *Networks) normalise(r *rawFeatures, out []float32) {
	y := halfDamping(n.Halflife)
	k := 0
	for _, g := range setGroups[n.Set] {
		f := n.Weights[g] / n.Scale[g]
		for d := 0; d < groupDims[g]; d++ {
			v := r[g][d]
			if g == Inertial {
				v = 2*r[FootPos][d]/y + r[FootVel][d]/(y*y)
			}
			out[k] = (v - n.Mean[g][d]) * f
			k++
		}
	}
}

// ringFrames is how many decoded frames the learned playback keeps: the
// one before, the two it plays between, and the one after, which cubic
// sampling reads (animsys.SampleCubicFrame between frames 1 and 2).
const ringFrames = 4

// Learned is the playback's pose source when a learned controller drives
// the matcher (Matcher.UseNetworks): the states of ringFrames frames, each
// decoded into a four-frame clip that is sampled cubically between its
// middle frames, with exact velocities, as a database clip is.
type Learned struct {
	Nets *Networks
	// At is how far (frames, 0 to 1) the playback is from ring frame 1 to
	// ring frame 2; Frame the database frame ring frame 1 stands for
	// (Matcher.Frame), -1 past its clip's end; Contacts the contact bits
	// of the nearer frame.
	At       float32
	Frame    int
	Contacts uint8
	// Said is the decompressor's own velocities at the playback's time
	// (local, interpolated between the ring's middle frames): beside the
	// exact velocities of the pose it plays (the sample's), which they
	// should match.
	Said animsys.Pose
	// Projected is the projector's state at the last search (x then z);
	// bent the projection on the unbent path (Searcher.project).
	Projected, bent []float32

	state    [ringFrames][]float32
	contacts [ringFrames]uint8
	said     [ringFrames]animsys.Pose // each ring frame's decoded pose, its velocities as said
	roots    [ringFrames]animsys.Kform
	ring     animsys.Clip
	y        []float32
	scratch  [3]*nn.Scratch
	bone     []float32
}

// newLearned makes the pose source of networks nets on db (checked by
// Fits).
func newLearned(db *Database, nets *Networks) *Learned {
	n := db.Skel.Len()
	l := &Learned{Nets: nets, Frame: -1, Said: animsys.NewPose(n), ring: animsys.NewClip("learned", ringFrames, n, nets.FrameTime),
		y: make([]float32, poseDims(n)), Projected: make([]float32, nets.Dims()+Latent), bent: make([]float32, nets.Dims()+Latent), bone: db.boneLen}
	l.ring.TrackAll() // every joint's channels tracked now, not at a tick
	for i := range l.state {
		l.state[i] = make([]float32, nets.Dims()+Latent)
		l.said[i] = animsys.NewPose(n)
	}
	for i, m := range []*nn.MLP{nets.Decompressor, nets.Stepper, nets.Projector} {
		l.scratch[i] = m.NewScratch()
	}
	return l
}

// State is the state of the frame playing (ring frame 1): x then z.
func (l *Learned) State() []float32 { return l.state[1] }

// step writes the state a frame after s into out.
//
// The state is kept within stateBound standard deviations of the
// training frames' states: a stepper left to run without a projection
// (a long straight walk) drifts, and a drift unbounded ends in Inf.
func (l *Learned) step(out, s []float32) {
	st := l.Nets.Stepper
	st.Forward(out, s, l.scratch[1])
	for i := range out {
		lo, hi := st.InMean[i]-stateBound*st.InStd[i], st.InMean[i]+stateBound*st.InStd[i]
		out[i] = mathx.Clamp(out[i]+s[i], lo, hi)
		if !(out[i] == out[i]) { // NaN: the mean
			out[i] = st.InMean[i]
		}
	}
}

// stateBound (standard deviations) bounds a stepped state (step).
const stateBound = 6

// decode decodes ring frame i from its state, its root a frame on from
// ring frame i-1's (i > 0) by that frame's root motion.
func (l *Learned) decode(i int) {
	l.Nets.Decompressor.Forward(l.y, l.state[i], l.scratch[0])
	p := &l.said[i]
	l.contacts[i] = decodePose(p, l.y, l.bone)
	r := animsys.KformIdentity()
	if i > 0 {
		r = l.roots[i-1]
		q := &l.said[i-1]
		ft := l.Nets.FrameTime
		r.Pos = r.Pos.Add(mathx.QuatMulVec3(r.Rot, q.Vel[0].Mul(ft)))
		r.Rot = r.Rot.Mul(mathx.QuatFromScaledAngleAxis(q.Ang[0].Mul(ft))).Normalize()
	}
	l.roots[i] = r
}

// write puts ring frame i's decoded pose into the ring clip, its root
// placed.
func (l *Learned) write(i int) {
	p := &l.said[i]
	pos, rot := p.Pos[0], p.Rot[0]
	p.Pos[0], p.Rot[0] = l.roots[i].Pos, l.roots[i].Rot
	l.ring.SetFrame(i, p)
	p.Pos[0], p.Rot[0] = pos, rot
}

// jump puts the playback at state s (x then z): ring frame 1 is s, 2 and
// 3 the stepper's frames on, and 0 the frame before, extrapolated (s less
// the step on). frame is the database frame s stands for (-1: unknown).
func (l *Learned) jump(s []float32, frame int) {
	copy(l.state[1], s)
	l.step(l.state[2], l.state[1])
	l.step(l.state[3], l.state[2])
	for i := range l.state[0] {
		l.state[0][i] = 2*l.state[1][i] - l.state[2][i]
	}
	l.At, l.Frame = 0, frame
	for i := range l.state {
		l.decode(i)
	}
	l.rebase()
}

// rebase re-roots the ring on frame 1's root (the cubic's shape is the
// same, and the roots stay near the origin however far it plays) and
// writes the ring clip.
func (l *Learned) rebase() {
	inv, at := mathx.QuatInv(l.roots[1].Rot), l.roots[1].Pos
	for i := range l.roots {
		r := &l.roots[i]
		r.Pos, r.Rot = mathx.QuatMulVec3(inv, r.Pos.Sub(at)), inv.Mul(r.Rot).Normalize()
		l.write(i)
	}
}

// advance plays frames (>= 0) on: each whole frame passed shifts the ring
// and steps and decodes a new last frame; in the database's frames, while
// the frame is known, the frame played on (until its clip's last frame,
// hold where it may not go past: -1 for none). It reports whether hold
// was reached.
func (l *Learned) advance(db *Database, frames float32, hold int) bool {
	l.At += frames
	for l.At >= 1 {
		if l.Frame >= 0 && l.Frame == hold {
			l.At = 0
			return true
		}
		l.At--
		s0 := l.state[0]
		copy(l.state[:], l.state[1:])
		l.state[ringFrames-1] = s0
		l.step(s0, l.state[ringFrames-2])
		c0 := l.said[0]
		copy(l.said[:], l.said[1:])
		l.said[ringFrames-1] = c0
		copy(l.roots[:], l.roots[1:])
		copy(l.contacts[:], l.contacts[1:])
		l.decode(ringFrames - 1)
		l.rebase()
		if l.Frame >= 0 { // the frame after, while in its clip
			c, f := db.Locate(l.Frame)
			l.Frame = -1
			if f+1 < db.Clips[c].Frames {
				l.Frame = db.At(c, f+1)
			}
		}
	}
	return l.Frame >= 0 && l.Frame == hold
}

// sample writes the pose playing into p: the ring clip sampled cubically
// at At between its middle frames, root motion read from joint 0
// (RootMotion); and the decompressor's own velocities at that time into
// Said, and the nearer frame's contacts.
func (l *Learned) sample(p *animsys.Pose) {
	at := mathx.Clamp(l.At, 0, 1)
	animsys.SampleCubicFrame(p, &l.ring, 1, at)
	RootMotion(p)
	a, b := &l.said[1], &l.said[2]
	for j := range a.Vel {
		l.Said.Vel[j] = a.Vel[j].Mul(1 - at).Add(b.Vel[j].Mul(at))
		l.Said.Ang[j] = a.Ang[j].Mul(1 - at).Add(b.Ang[j].Mul(at))
	}
	copy(l.Said.Pos, p.Pos)
	copy(l.Said.Rot, p.Rot)
	copy(l.Said.Scl, p.Scl)
	l.Contacts = l.contacts[1]
	if at >= 0.5 {
		l.Contacts = l.contacts[2]
	}
}

// project decides where the learned controller goes, as search does for
// the database's: the query from the output pose and the predicted
// trajectory in the networks' features, the projector's state for it
// (Learned.Projected), and whether that state's features are nearer the
// query than the state playing's by the settings' bias (or must). The
// costs are the squared distances of the features to the query, the
// search's cost; Carry and the first candidate hold them.
func (q *Searcher) project(db *Database, s *Settings, l *Learned, sim *Simulation, char *animsys.Pose, pred *Trajectory, root *RootSync, must bool) bool {
	q.Searched, q.sinceSearch = true, 0
	q.lastGoal, q.lastYaw = sim.GoalVel, sim.GoalYaw
	q.Searches++
	q.Bent = false
	q.queried.set = l.Nets.Set
	for s, j := range db.Feet {
		q.queried.pos[s], q.queried.vel[s] = char.Pos[j], char.Vel[j]
	}
	t0 := time.Now()
	carry, best := q.projectOn(db, l, char, pred, root, 0, 0, l.Projected)
	// As the database's search does (Searcher.search), where the path
	// travels round a steady curve and the root keeps up, a second
	// projection on the path unbent by what the root may turn, dearer by
	// bendCost a radian: the cheaper decides (Bent), so networks trained
	// on captures without the asked curve play a straight run bent round
	// it.
	if bend := q.bend(db, pred, s.Warp.Turn); bend > 0 && sim.GoalTurn != 0 && root.clamped == 0 {
		q.alt.Query = append(q.alt.Query[:0], q.Query...)
		bc, bb := q.projectOn(db, l, char, pred, root, s.Warp.Turn, bendCost*bend, l.bent)
		if min(bc, bb) < min(carry, best) {
			q.Bent, carry, best = true, bc, bb
			copy(l.Projected, l.bent)
		} else {
			q.Query = append(q.Query[:0], q.alt.Query...)
		}
	}
	q.Carry = Candidate{Frame: -1, Cost: carry}
	q.rerank = append(q.rerank[:0], Candidate{Frame: -1, Cost: best})
	q.LastQuery = Query{Features: q.Query, N: 1, Bound: float32(math.Inf(1))}
	q.timed(time.Since(t0).Nanoseconds())
	if !finiteAll(l.Projected) {
		return false
	}
	// A state that is not finite any more is left, whatever the costs.
	return must || !mathx.Finite(carry) || best < (1-s.BiasShare)*carry-s.Bias
}

// projectOn projects the query of the path unbent by turn (rad/s:
// Searcher.features) into out, and returns the costs of carrying on and
// of the projection, each raised by penalty.
func (q *Searcher) projectOn(db *Database, l *Learned, char *animsys.Pose, pred *Trajectory, root *RootSync, turn, penalty float32, out []float32) (carry, best float32) {
	x := l.Nets.Dims()
	q.Query = q.Query[:x]
	l.Nets.normalise(q.features(db, char, pred, root, turn), q.Query)
	l.Nets.Projector.Forward(out, q.Query, l.scratch[2])
	return distance(q.Query, l.State()[:x]) + penalty, distance(q.Query, out[:x]) + penalty
}

// nearest is the database frame of set s whose features are nearest x.
func (q *Searcher) nearest(db *Database, s Set, x []float32) int {
	q.listed = db.Index(s).Search(Query{Features: x, N: 1, Bound: float32(math.Inf(1))}, q.listed[:0])
	if len(q.listed) == 0 {
		return 0
	}
	return q.listed[0].Frame
}

// distance is the squared distance between features a and b.
func distance(a, b []float32) float32 {
	var s float32
	for i, v := range a {
		d := v - b[i]
		s += d * d
	}
	return s
}

// finiteAll reports whether every value of s is finite.
func finiteAll(s []float32) bool {
	for _, v := range s {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return false
		}
	}
	return true
}
