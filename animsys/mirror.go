package animsys

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Mirroring a clip left/right, so that a motion database holds every
// motion and its mirror image (a turn left and a turn right) from one
// capture.
//
// Reflecting the world by M = I - 2nn^T, joint j's mirror image moves as
// its partner q = pairs[j] reflected: its global position is M P_q, and its
// global rotation M G_q K_j, where K_j (orthogonal, det -1) takes the
// offsets of j's children, in j's frame, to those of q's children, in q's:
// M G_q K_j puts j's children where M puts q's. As a rotation quaternion
// that is refl(G_q) C_j, with refl(w, v) = (w, -Mv) and C_j = M K_j
// constant per joint. A skeleton whose rest pose (rotations Rest, global)
// is symmetric about the plane has K_j = Rest_q^-1 M Rest_j, i.e. C_j =
// refl(Rest_q)^-1 Rest_j, which is identity for a world-aligned rest (most
// BVH files).
//
// Local values follow without forward kinematics, refl being a
// homomorphism: with a the joint's parent and a' its mirror image's
// (a' = pairs[a] = q's parent),
//
//	rot'_j = C_a^-1 refl(rot_q) C_j
//	pos'_j = C_a^-1 (M pos_q)          (joints with a position track)
//
// with C = identity above a root. Both are fixed linear maps of the
// partner's values, so cubic sampling of the mirrored clip gives the
// mirrored sampled pose and velocities exactly (up to rounding): linear
// velocities reflect as positions, angular velocities as axial vectors,
// w -> -Mw.
//
// K_j is fitted to the offsets, not taken from a rest pose alone, so that
// skeletons whose zero-rotation pose is no figure at all (bones along X:
// LAFAN1, Bandai-Namco, Rokoko) mirror too, and so that any plane can be
// mirrored across: a rest pose (the zero-rotation pose, or the skeleton's
// Bind pose when that is more symmetric), turned so that its own plane of
// symmetry is the mirror's, gives a first K_j, snapped to a rig's (a
// signed permutation) when near one, and the fit keeps its twist about a
// single child's bone, which offsets cannot tell.

// MirrorClip returns clip c of skeleton sk reflected across the plane
// through the origin with unit normal normal, left and right swapped:
// pairs[j] is the joint that mirrors joint j (itself for centre joints;
// humanoid.MirrorPairs reads them from names), an involution. For a
// character facing +Z with +Y up the normal is +X, its lateral axis.
//
// Joint j's rotation is its partner's reflected (see above), its
// position, for joints with a position track (roots, hips) in either
// partner, the partner's track reflected into the mirrored parent's frame;
// other joints (those moving less than 10 µm, trackTol) keep their own
// offsets. Scales are the partner's (exact for uniform scales).
//
// The skeleton is assumed left/right symmetric: partners' bone lengths
// equal and the offsets of each joint's children mirror those of its
// partner's up to a rotation. Then the mirrored clip's global positions
// are the reflection of the original's partners' (to rounding); where the
// skeleton is asymmetric they are off by about the asymmetry. Joints whose
// partners hang from joints that are not partners are mirrored as centre
// joints. A root that carries no bone (a ground-level Entity whose
// children all have position tracks) stays unturned if it was, whatever
// the rest pose. Name is "<name> (mirrored)"; the loop and frame time are
// kept; the result is prepared.
func MirrorClip(sk *Skeleton, c *Clip, pairs []int, normal mgl32.Vec3) Clip {
	n := c.Joints
	if sk.Len() != n || len(pairs) != n {
		panic(fmt.Sprintf("MirrorClip: %d joints in the skeleton, %d in clip %q, %d pairs", sk.Len(), n, c.Name, len(pairs)))
	}
	pairs = checkPairs(sk.Parents, pairs)
	nn := vec64(normal)
	if nn.len() == 0 {
		panic("MirrorClip: a zero normal")
	}
	nn = nn.scale(1 / nn.len())
	normal = nn.vec32()
	tracked := make([]bool, n)
	for j := range tracked {
		tracked[j] = c.moves(j)
	}
	corr := mirrorCorrections(sk, c, pairs, tracked, nn)

	out := NewClip(c.Name+" (mirrored)", c.Frames, n, c.FrameTime)
	out.LoopStart, out.LoopEnd = c.LoopStart, c.LoopEnd
	parentCorr := func(j int) mgl32.Quat {
		if p := sk.Parents[j]; p >= 0 {
			return corr[p].Conjugate()
		}
		return mgl32.Quat{W: 1}
	}
	for j, q := range pairs {
		inv, cj := parentCorr(j), corr[j]
		for f := 0; f < c.Frames; f++ {
			out.Rot[out.At(f, j)] = inv.Mul(reflQuat(c.Rot[c.At(f, q)], normal)).Mul(cj)
		}
		if tracked[j] || tracked[q] {
			out.SetPosAll(j, inv.Rotate(reflVec(c.PosAt(0, q), normal)))
			for f := 1; f < c.Frames; f++ {
				out.SetPos(f, j, inv.Rotate(reflVec(c.PosAt(f, q), normal)))
			}
		} else {
			out.pos.copyJoint(c.Frames, j, &c.pos, j)
		}
		out.scl.copyJoint(c.Frames, j, &c.scl, q)
	}
	out.Prepare()
	return out
}

// trackTol (m) is how far a joint's position must move over a clip for
// MirrorClip to treat it as animated: BVH files with position channels on
// every joint (Bandai-Namco) wobble their offsets by a float's last digits,
// which would not survive the reflection's rounding, so that a clip and its
// mirror image would disagree on which joints move.
const trackTol = 1e-5

// moves reports whether joint j's position changes over the clip by more
// than trackTol.
func (c *Clip) moves(j int) bool {
	k := c.pos.slot[j]
	if k < 0 {
		return false
	}
	tr := c.pos.data[k]
	for _, v := range tr {
		if v.Sub(tr[0]).Len() > trackTol {
			return true
		}
	}
	return false
}

// checkPairs panics unless pairs is an involution of the joints, and
// returns it with the partners whose parents are not partners made centre
// joints (a copy when it changes any): their mirror images could not hang
// where the formulas put them.
func checkPairs(parents, pairs []int) []int {
	for j, q := range pairs {
		if q < 0 || q >= len(pairs) || pairs[q] != j {
			panic(fmt.Sprintf("MirrorClip: pairs[%d] = %d is not a partner that pairs back", j, q))
		}
	}
	out := pairs
	for changed := true; changed; {
		changed = false
		for j, q := range out {
			a, b := parents[j], parents[q]
			if q == j || (a < 0 && b < 0) || (a >= 0 && b >= 0 && out[a] == b) {
				continue
			}
			if &out[0] == &pairs[0] {
				out = append([]int(nil), pairs...)
			}
			out[j], out[q], changed = j, q, true
		}
	}
	return out
}

// mirrorCorrections returns C_j for every joint (see the top of this
// file): fitted to the offsets of j's children that have no position
// track, starting from the rest pose's; identity for a joint whose
// children all have tracks (a root that carries the others), the rest
// pose's for a leaf.
func mirrorCorrections(sk *Skeleton, c *Clip, pairs []int, tracked []bool, n v64) []mgl32.Quat {
	nj := len(pairs)
	rest := mirrorRest(sk, pairs, tracked, n)
	kids := make([][]int, nj)
	for j, p := range sk.Parents {
		if p >= 0 {
			kids[p] = append(kids[p], j)
		}
	}
	corr := make([]mgl32.Quat, nj)
	for j, q := range pairs {
		if q < j {
			continue // set with its partner
		}
		// The rest pose's C_j = refl(Rest_q)^-1 Rest_j, its K_j made a
		// rig's if near one.
		c0 := quat64(reflQuat(rest[q], n.vec32())).conj().mul(quat64(rest[j]))
		c0 = snapRig(c0, n, q == j)
		var a, b []v64 // j's children's offsets, their partners' in q's frame
		for _, k := range kids[j] {
			pk := pairs[k]
			if tracked[k] || tracked[pk] || sk.Parents[pk] != q {
				continue
			}
			a, b = append(a, vec64(c.PosAt(0, k))), append(b, vec64(c.PosAt(0, pk)))
		}
		var cj q64
		switch {
		case len(kids[j]) > 0 && len(a) == 0:
			cj = q64{1, 0, 0, 0} // a carrier: its frame is the world's
		case len(a) == 0:
			cj = c0 // a leaf
		case q == j:
			cj = fitCentre(a, b, n, c0)
		default:
			cj = fitSided(a, b, n, c0)
		}
		corr[j] = cj.quat32()
		// Partners' maps are inverse (K_q = K_j^T), so C_q = refl(C_j)^-1:
		// mirroring twice is the identity.
		corr[q] = reflQuat(corr[j], n.vec32()).Conjugate()
	}
	return corr
}

// mirrorRest returns the global rotations of the rest pose the fit starts
// from: the zero-rotation pose (identity) unless the skeleton's Bind pose
// is clearly more symmetric, as for bones along X; turned so that its
// plane of symmetry is the mirror's, so that it gives the twists of the
// skeleton's own left/right symmetry whatever the plane mirrored across.
func mirrorRest(sk *Skeleton, pairs []int, tracked []bool, n v64) []mgl32.Quat {
	rest := sk.RestPose()
	asym, r := MirrorAsymmetry(sk.Parents, pairs, rest.Pos, tracked)
	// Below 5% the zero-rotation pose is a symmetric figure: it wins, its
	// frames (a T-pose's, world-aligned) give mirror-image twists.
	if sk.Bind != nil && sk.Bind.Len() == sk.Len() && asym > 0.05 {
		bind := sk.BindPose()
		if ab, rb := MirrorAsymmetry(sk.Parents, pairs, bind.Pos, tracked); ab < asym {
			rest, r = bind, rb
		}
	}
	if r.Dot(n.vec32()) < 0 { // a plane's normal has no sign
		r = r.Mul(-1)
	}
	turn := mathx.QuatBetween(r, n.vec32())
	for j := range rest.Rot {
		rest.Rot[j] = turn.Mul(rest.Rot[j])
	}
	return rest.Rot
}

// MirrorAsymmetry measures how far a pose (global joint positions, m) is
// from left/right symmetric, pairs[j] being joint j's partner: the plane
// it is most symmetric about is the one whose normal (returned, unit) is
// along the partners' differences P_j - P_q, and asym is the sum over
// bones of |M d_q - d_j|, d a bone's vector from its parent, q its
// partner and M the reflection across that plane, over the sum of |d_j|: 0
// for a symmetric pose. Bones whose partners hang from non-partners are
// left out, as are those of joints marked in skip (nil for none): pass the
// joints with position tracks, which MirrorClip mirrors whole, so that a
// root metres from the hips in the pose does not count. Without partners
// the normal is +X.
func MirrorAsymmetry(parents, pairs []int, pos []mgl32.Vec3, skip []bool) (asym float32, normal mgl32.Vec3) {
	var s [4][4]float64
	for j, q := range pairs {
		if q <= j || (skip != nil && skip[j]) {
			continue
		}
		d := vec64(pos[j].Sub(pos[q]))
		for r := range 3 {
			for k := range 3 {
				s[r][k] += d[r] * d[k]
			}
		}
	}
	vals, vecs := symEigen(s, 3)
	best := 0
	for i := 1; i < 3; i++ {
		if vals[i] > vals[best] {
			best = i
		}
	}
	n := v64{1, 0, 0}
	if vals[best] > 0 {
		n = v64{vecs[0][best], vecs[1][best], vecs[2][best]}
	}
	var diff, total float64
	for j, q := range pairs {
		a, b := parents[j], parents[q]
		if a < 0 || b < 0 || pairs[a] != b || (skip != nil && (skip[j] || skip[q])) {
			continue
		}
		dj := vec64(pos[j].Sub(pos[a]))
		dq := n.refl(vec64(pos[q].Sub(pos[b])))
		diff += dq.sub(dj).len()
		total += dj.len()
	}
	if total > 0 {
		asym = float32(diff / total)
	}
	return asym, n.vec32()
}

// reflVec is v reflected across the plane with unit normal n: Mv.
func reflVec(v, n mgl32.Vec3) mgl32.Vec3 { return v.Sub(n.Mul(2 * n.Dot(v))) }

// reflQuat is the rotation M R M for the rotation R of q: (w, -Mv).
func reflQuat(q mgl32.Quat, n mgl32.Vec3) mgl32.Quat {
	return mgl32.Quat{W: q.W, V: reflVec(q.V, n).Mul(-1)}
}

// snapAngle (rad) is how near a rest pose's map K_j must be to a signed
// permutation for snapRig to take the permutation: 35 degrees, beyond the
// twists of the straightened captured frames that Bind poses are (up to 29
// degrees measured, a neck, on Bandai-Namco's), well short of the 63
// degrees that no rotation is farther from the nearest of them.
const snapAngle = 35 * math.Pi / 180

// snapRig returns the map C = M K of a rest pose, c0, with K replaced by
// the nearest signed permutation matrix (det -1; symmetric for a centre
// joint) when that is within snapAngle: rigs set up their joints' frames
// world-aligned (K = M_x) or mirrored from the other side's (K = -I,
// Maya's "behavior"), so their K is one, while the rest pose (a captured
// frame for bones along X) gives it only up to the capture's left/right
// twist difference.
func snapRig(c0 q64, n v64, centre bool) q64 {
	var k [3][3]float64 // K = M R(c0), by columns
	for c := range 3 {
		var e v64
		e[c] = 1
		col := n.refl(c0.rotate(e))
		for r := range 3 {
			k[r][c] = col[r]
		}
	}
	var p [3][3]float64
	used := [3]bool{}
	for r := range 3 {
		best := 0
		for c := 1; c < 3; c++ {
			if math.Abs(k[r][c]) > math.Abs(k[r][best]) {
				best = c
			}
		}
		if used[best] {
			return c0
		}
		used[best] = true
		p[r][best] = math.Copysign(1, k[r][best])
	}
	det := p[0][0]*(p[1][1]*p[2][2]-p[1][2]*p[2][1]) - p[0][1]*(p[1][0]*p[2][2]-p[1][2]*p[2][0]) + p[0][2]*(p[1][0]*p[2][1]-p[1][1]*p[2][0])
	if det > 0 || (centre && (p[0][1] != p[1][0] || p[0][2] != p[2][0] || p[1][2] != p[2][1])) {
		return c0
	}
	// The angle of the rotation K P^T: cos = (tr(K P^T) - 1) / 2.
	var tr float64
	for r := range 3 {
		for c := range 3 {
			tr += k[r][c] * p[r][c]
		}
	}
	if (tr-1)/2 < math.Cos(snapAngle) {
		return c0
	}
	// C = M P, a rotation: its quaternion from its matrix.
	var m [3][3]float64
	for c := range 3 {
		col := n.refl(v64{p[0][c], p[1][c], p[2][c]})
		for r := range 3 {
			m[r][c] = col[r]
		}
	}
	return matQuat(m)
}

// matQuat is the unit quaternion of rotation matrix m (w >= 0).
func matQuat(m [3][3]float64) q64 {
	// The largest of 1 + tr, 1 + 2 m_ii - tr gives the best conditioned
	// component; the others follow from the off-diagonals.
	tr := m[0][0] + m[1][1] + m[2][2]
	var q q64
	switch {
	case tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]:
		w := math.Sqrt(1+tr) / 2
		q = q64{w, (m[2][1] - m[1][2]) / (4 * w), (m[0][2] - m[2][0]) / (4 * w), (m[1][0] - m[0][1]) / (4 * w)}
	case m[0][0] >= m[1][1] && m[0][0] >= m[2][2]:
		x := math.Sqrt(1+2*m[0][0]-tr) / 2
		q = q64{(m[2][1] - m[1][2]) / (4 * x), x, (m[0][1] + m[1][0]) / (4 * x), (m[0][2] + m[2][0]) / (4 * x)}
	case m[1][1] >= m[2][2]:
		y := math.Sqrt(1+2*m[1][1]-tr) / 2
		q = q64{(m[0][2] - m[2][0]) / (4 * y), (m[0][1] + m[1][0]) / (4 * y), y, (m[1][2] + m[2][1]) / (4 * y)}
	default:
		z := math.Sqrt(1+2*m[2][2]-tr) / 2
		q = q64{(m[1][0] - m[0][1]) / (4 * z), (m[0][2] + m[2][0]) / (4 * z), (m[1][2] + m[2][1]) / (4 * z), z}
	}
	return q.positive()
}

// priorWeight is the weight, relative to the children's, of the rest
// pose's map in the fits: small enough to move a fitted bone by about 1e-6
// rad, large enough to settle a single child's twist, which the children
// leave free.
const priorWeight = 1e-6

// fitSided returns the rotation C that best takes a[i] to M b[i] (least
// squares, Wahba's problem) with the rest pose's c0 as a weak prior.
func fitSided(a, b []v64, n v64, c0 q64) q64 {
	var m [3][3]float64 // sum of target x source^T
	var w float64
	add := func(src, dst v64, s float64) {
		for r := range 3 {
			for k := range 3 {
				m[r][k] += s * dst[r] * src[k]
			}
		}
	}
	for i := range a {
		add(a[i], n.refl(b[i]), 1)
		w += a[i].len() * b[i].len()
	}
	lam := priorWeight*w + 1e-30
	for k := range 3 {
		var e v64
		e[k] = 1
		add(e, c0.rotate(e), lam)
	}
	return wahba(m)
}

// wahba returns the unit quaternion of the rotation R maximizing
// tr(R^T m) for m = sum w target source^T (Davenport's q-method: the
// eigenvector of the largest eigenvalue of a 4x4 symmetric matrix).
func wahba(m [3][3]float64) q64 {
	tr := m[0][0] + m[1][1] + m[2][2]
	z := v64{m[2][1] - m[1][2], m[0][2] - m[2][0], m[1][0] - m[0][1]}
	var k [4][4]float64
	k[0][0] = tr
	for r := range 3 {
		k[0][r+1], k[r+1][0] = z[r], z[r]
		for c := range 3 {
			k[r+1][c+1] = m[r][c] + m[c][r]
		}
		k[r+1][r+1] -= tr
	}
	vals, vecs := symEigen(k, 4)
	best := 0
	for i := 1; i < 4; i++ {
		if vals[i] > vals[best] {
			best = i
		}
	}
	q := q64{vecs[0][best], vecs[1][best], vecs[2][best], vecs[3][best]}
	return q.positive()
}

// fitCentre returns C = M M_m for the reflection M_m (K of a centre joint
// takes its children's offsets to their partners', and must be its own
// inverse) that best takes a[i] to b[i]: m minimizes sum |M_m a - b|^2 =
// const + 4 m^T sym(sum a b^T) m, with the rest pose's m0 = Rest^-1 n (from
// c0 = M M_m0) as a weak prior.
func fitCentre(a, b []v64, n v64, c0 q64) q64 {
	var s [4][4]float64
	var w float64
	for i := range a {
		for r := range 3 {
			for k := range 3 {
				s[r][k] += (a[i][r]*b[i][k] + b[i][r]*a[i][k]) / 2
			}
		}
		w += a[i].len() * b[i].len()
	}
	// c0 = n m0 as quaternions (below), so m0 = -n c0 = n^-1 c0.
	m0 := q64{0, n[0], n[1], n[2]}.conj().mul(c0)
	m0v := v64{m0[1], m0[2], m0[3]}
	lam := priorWeight*w + 1e-30
	for r := range 3 {
		for k := range 3 {
			s[r][k] -= lam * m0v[r] * m0v[k]
		}
	}
	vals, vecs := symEigen(s, 3)
	best := 0
	for i := 1; i < 3; i++ {
		if vals[i] < vals[best] {
			best = i
		}
	}
	m := v64{vecs[0][best], vecs[1][best], vecs[2][best]}
	// M_n M_m is the rotation of the quaternion product n m (pure unit
	// quaternions; a reflection is v -> u v u).
	return q64{0, n[0], n[1], n[2]}.mul(q64{0, m[0], m[1], m[2]}).positive()
}

// symEigen diagonalizes the leading d x d block of the symmetric matrix a
// by cyclic Jacobi rotations: eigenvalues, and eigenvectors as columns.
func symEigen(a [4][4]float64, d int) (vals [4]float64, vecs [4][4]float64) {
	for i := range d {
		vecs[i][i] = 1
	}
	for sweep := 0; sweep < 50; sweep++ {
		var off float64
		for p := range d {
			for q := p + 1; q < d; q++ {
				off += a[p][q] * a[p][q]
			}
		}
		if off == 0 {
			break
		}
		for p := range d {
			for q := p + 1; q < d; q++ {
				if a[p][q] == 0 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range d { // a = a J
					akp, akq := a[k][p], a[k][q]
					a[k][p], a[k][q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := range d { // a = J^T a
					apk, aqk := a[p][k], a[q][k]
					a[p][k], a[q][k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := range d {
					vkp, vkq := vecs[k][p], vecs[k][q]
					vecs[k][p], vecs[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	for i := range d {
		vals[i] = a[i][i]
	}
	return vals, vecs
}

// v64 and q64 (w, x, y, z) are float64 vectors and quaternions for the
// fits, which run once per joint.
type (
	v64 [3]float64
	q64 [4]float64
)

func vec64(v mgl32.Vec3) v64    { return v64{float64(v[0]), float64(v[1]), float64(v[2])} }
func (v v64) vec32() mgl32.Vec3 { return mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])} }
func (v v64) dot(w v64) float64 { return v[0]*w[0] + v[1]*w[1] + v[2]*w[2] }
func (v v64) len() float64      { return math.Sqrt(v.dot(v)) }
func (v v64) scale(s float64) v64 {
	return v64{v[0] * s, v[1] * s, v[2] * s}
}
func (v v64) sub(w v64) v64 { return v64{v[0] - w[0], v[1] - w[1], v[2] - w[2]} }

// refl reflects w across the plane whose unit normal is v.
func (v v64) refl(w v64) v64 { return w.sub(v.scale(2 * v.dot(w))) }

func quat64(q mgl32.Quat) q64 {
	return q64{float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])}
}

func (q q64) quat32() mgl32.Quat {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	return mgl32.Quat{W: float32(q[0] / l), V: mgl32.Vec3{float32(q[1] / l), float32(q[2] / l), float32(q[3] / l)}}
}

func (q q64) conj() q64 { return q64{q[0], -q[1], -q[2], -q[3]} }

func (q q64) mul(r q64) q64 {
	return q64{
		q[0]*r[0] - q[1]*r[1] - q[2]*r[2] - q[3]*r[3],
		q[0]*r[1] + q[1]*r[0] + q[2]*r[3] - q[3]*r[2],
		q[0]*r[2] - q[1]*r[3] + q[2]*r[0] + q[3]*r[1],
		q[0]*r[3] + q[1]*r[2] - q[2]*r[1] + q[3]*r[0],
	}
}

func (q q64) rotate(v v64) v64 {
	r := q.mul(q64{0, v[0], v[1], v[2]}).mul(q.conj())
	return v64{r[1], r[2], r[3]}
}

// positive is q or -q, whichever has w >= 0.
func (q q64) positive() q64 {
	if q[0] < 0 {
		return q64{-q[0], -q[1], -q[2], -q[3]}
	}
	return q
}
