package animsys

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/mathx/mathx64"
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
	nn := mathx64.FromVec32(normal)
	if nn.Len() == 0 {
		panic("MirrorClip: a zero normal")
	}
	nn = nn.Normalize()
	normal = nn.F32()
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
func mirrorCorrections(sk *Skeleton, c *Clip, pairs []int, tracked []bool, n mathx64.Vec3) []mgl32.Quat {
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
		c0 := mathx64.FromQuat32(reflQuat(rest[q], n.F32())).Conj().Mul(mathx64.FromQuat32(rest[j]))
		c0 = snapRig(c0, n, q == j)
		var a, b []mathx64.Vec3 // j's children's offsets, their partners' in q's frame
		for _, k := range kids[j] {
			pk := pairs[k]
			if tracked[k] || tracked[pk] || sk.Parents[pk] != q {
				continue
			}
			a, b = append(a, mathx64.FromVec32(c.PosAt(0, k))), append(b, mathx64.FromVec32(c.PosAt(0, pk)))
		}
		var cj mathx64.Quat
		switch {
		case len(kids[j]) > 0 && len(a) == 0:
			cj = mathx64.QuatIdent() // a carrier: its frame is the world's
		case len(a) == 0:
			cj = c0 // a leaf
		case q == j:
			cj = fitCentre(a, b, n, c0)
		default:
			cj = fitSided(a, b, n, c0)
		}
		corr[j] = cj.UnitF32()
		// Partners' maps are inverse (K_q = K_j^T), so C_q = refl(C_j)^-1:
		// mirroring twice is the identity.
		corr[q] = reflQuat(corr[j], n.F32()).Conjugate()
	}
	return corr
}

// mirrorRest returns the global rotations of the rest pose the fit starts
// from: the zero-rotation pose (identity) unless the skeleton's Bind pose
// is clearly more symmetric, as for bones along X; turned so that its
// plane of symmetry is the mirror's, so that it gives the twists of the
// skeleton's own left/right symmetry whatever the plane mirrored across.
func mirrorRest(sk *Skeleton, pairs []int, tracked []bool, n mathx64.Vec3) []mgl32.Quat {
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
	if r.Dot(n.F32()) < 0 { // a plane's normal has no sign
		r = r.Mul(-1)
	}
	turn := mathx.QuatBetween(r, n.F32())
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
		d := mathx64.FromVec32(pos[j].Sub(pos[q]))
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
	n := mathx64.Vec3{1, 0, 0}
	if vals[best] > 0 {
		n = mathx64.Vec3{vecs[0][best], vecs[1][best], vecs[2][best]}
	}
	var diff, total float64
	for j, q := range pairs {
		a, b := parents[j], parents[q]
		if a < 0 || b < 0 || pairs[a] != b || (skip != nil && (skip[j] || skip[q])) {
			continue
		}
		dj := mathx64.FromVec32(pos[j].Sub(pos[a]))
		dq := mathx64.FromVec32(pos[q].Sub(pos[b])).Reflect(n)
		diff += dq.Sub(dj).Len()
		total += dj.Len()
	}
	if total > 0 {
		asym = float32(diff / total)
	}
	return asym, n.F32()
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
func snapRig(c0 mathx64.Quat, n mathx64.Vec3, centre bool) mathx64.Quat {
	var k [3][3]float64 // K = M R(c0), by columns
	for c := range 3 {
		var e mathx64.Vec3
		e[c] = 1
		col := c0.Rotate(e).Reflect(n)
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
		col := mathx64.Vec3{p[0][c], p[1][c], p[2][c]}.Reflect(n)
		for r := range 3 {
			m[r][c] = col[r]
		}
	}
	return mathx64.QuatFromMatrix(m).Abs()
}

// priorWeight is the weight, relative to the children's, of the rest
// pose's map in the fits: small enough to move a fitted bone by about 1e-6
// rad, large enough to settle a single child's twist, which the children
// leave free.
const priorWeight = 1e-6

// fitSided returns the rotation C that best takes a[i] to M b[i] (least
// squares, Wahba's problem) with the rest pose's c0 as a weak prior.
func fitSided(a, b []mathx64.Vec3, n mathx64.Vec3, c0 mathx64.Quat) mathx64.Quat {
	var m [3][3]float64 // sum of target x source^T
	var w float64
	add := func(src, dst mathx64.Vec3, s float64) {
		for r := range 3 {
			for k := range 3 {
				m[r][k] += s * dst[r] * src[k]
			}
		}
	}
	for i := range a {
		add(a[i], b[i].Reflect(n), 1)
		w += a[i].Len() * b[i].Len()
	}
	lam := priorWeight*w + 1e-30
	for k := range 3 {
		var e mathx64.Vec3
		e[k] = 1
		add(e, c0.Rotate(e), lam)
	}
	return wahba(m)
}

// wahba returns the unit quaternion of the rotation R maximizing
// tr(R^T m) for m = sum w target source^T (Davenport's q-method: the
// eigenvector of the largest eigenvalue of a 4x4 symmetric matrix).
func wahba(m [3][3]float64) mathx64.Quat {
	tr := m[0][0] + m[1][1] + m[2][2]
	z := mathx64.Vec3{m[2][1] - m[1][2], m[0][2] - m[2][0], m[1][0] - m[0][1]}
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
	q := mathx64.Quat{W: vecs[0][best], X: vecs[1][best], Y: vecs[2][best], Z: vecs[3][best]}
	return q.Abs()
}

// fitCentre returns C = M M_m for the reflection M_m (K of a centre joint
// takes its children's offsets to their partners', and must be its own
// inverse) that best takes a[i] to b[i]: m minimizes sum |M_m a - b|^2 =
// const + 4 m^T sym(sum a b^T) m, with the rest pose's m0 = Rest^-1 n (from
// c0 = M M_m0) as a weak prior.
func fitCentre(a, b []mathx64.Vec3, n mathx64.Vec3, c0 mathx64.Quat) mathx64.Quat {
	var s [4][4]float64
	var w float64
	for i := range a {
		for r := range 3 {
			for k := range 3 {
				s[r][k] += (a[i][r]*b[i][k] + b[i][r]*a[i][k]) / 2
			}
		}
		w += a[i].Len() * b[i].Len()
	}
	// c0 = n m0 as quaternions (below), so m0 = -n c0 = n^-1 c0.
	m0v := mathx64.Quat{X: n[0], Y: n[1], Z: n[2]}.Conj().Mul(c0).Vec()
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
	m := mathx64.Vec3{vecs[0][best], vecs[1][best], vecs[2][best]}
	// M_n M_m is the rotation of the quaternion product n m (pure unit
	// quaternions; a reflection is v -> u v u).
	return mathx64.Quat{X: n[0], Y: n[1], Z: n[2]}.Mul(mathx64.Quat{X: m[0], Y: m[1], Z: m[2]}).Abs()
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
