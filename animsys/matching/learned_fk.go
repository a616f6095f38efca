package matching

import "github.com/go-gl/mathgl/mgl32"

// The decompressor's loss in the character's frame: the joints' positions
// through forward kinematics of the decoded pose against the frame's own,
// as the reference's training weighs its world-space terms, so an error
// near the hips, which moves every joint below it, costs what it moves.
// Written out with its gradient (back through FK and the two axes'
// Gram-Schmidt), on the pose vector's layout (poseDims).

// fkWeight weighs the character-frame position term against the local
// pose's (both L1 in units of the positions' scale).
const fkWeight = 1

// fkScratch holds one row's FK: each joint's rotation (columns) and
// position in the character's frame, and their gradients.
type fkScratch struct {
	rot, drot     []mgl32.Mat3
	pos, dpos     []mgl32.Vec3
	local, dlocal []mgl32.Mat3 // the joints' own rotations, and their gradients
	e             [][3]mgl32.Vec3
}

func newFKScratch(n int) *fkScratch {
	return &fkScratch{rot: make([]mgl32.Mat3, n), drot: make([]mgl32.Mat3, n), pos: make([]mgl32.Vec3, n), dpos: make([]mgl32.Vec3, n),
		local: make([]mgl32.Mat3, n), dlocal: make([]mgl32.Mat3, n), e: make([][3]mgl32.Vec3, n)}
}

// axesToMat is the rotation of axes a and b (Gram-Schmidt: a kept, b
// made square to it): columns e1, e2, e3. Axes too short to give a
// direction (a decoder's output, under 1e-6) are replaced by x, and by
// an axis square to e1; axesGrad is the gradient of the general case.
func axesToMat(a, b mgl32.Vec3) (mgl32.Mat3, [3]mgl32.Vec3) {
	if a.Len() < 1e-6 {
		a = mgl32.Vec3{1, 0, 0}
	}
	e1 := a.Normalize()
	u := b.Sub(e1.Mul(e1.Dot(b)))
	if u.Len() < 1e-6 {
		if u = (mgl32.Vec3{-e1[1], e1[0], 0}); u.Len() < 1e-6 {
			u = mgl32.Vec3{0, -e1[2], e1[1]}
		}
	}
	e2 := u.Normalize()
	e3 := e1.Cross(e2)
	return mgl32.Mat3FromCols(e1, e2, e3), [3]mgl32.Vec3{e1, e2, e3}
}

// axesGrad takes the gradient dR of a rotation made by axesToMat from a
// and b back to a and b.
func axesGrad(a, b mgl32.Vec3, e [3]mgl32.Vec3, dR mgl32.Mat3) (da, db mgl32.Vec3) {
	e1, e2 := e[0], e[1]
	de1, de2, de3 := dR.Col(0), dR.Col(1), dR.Col(2)
	de1 = de1.Add(e2.Cross(de3)) // e3 = e1 × e2
	de2 = de2.Add(de3.Cross(e1))
	u := b.Sub(e1.Mul(e1.Dot(b)))
	nu := max(u.Len(), 1e-6)
	du := de2.Sub(e2.Mul(e2.Dot(de2))).Mul(1 / nu) // e2 = u/|u|
	db = du.Sub(e1.Mul(e1.Dot(du)))                // u = b - (e1·b) e1
	de1 = de1.Sub(du.Mul(e1.Dot(b)).Add(b.Mul(e1.Dot(du))))
	na := max(a.Len(), 1e-6)
	da = de1.Sub(e1.Mul(e1.Dot(de1))).Mul(1 / na) // e1 = a/|a|
	return da, db
}

// fkLoss adds to dy (the gradient at the raw pose vector y) the gradient
// of fkWeight·mean|FK(y)'s positions - want| / scale, and returns the
// term (want: the frame's joints in the character's frame, 15 values a
// joint but the root from its compressor row; parents before children).
func (s *fkScratch) fkLoss(y, want, dy []float32, parents []int, scale, norm float32) float32 {
	n := len(parents)
	vec := func(v []float32) mgl32.Vec3 { return mgl32.Vec3{v[0], v[1], v[2]} }
	s.rot[0], s.pos[0] = mgl32.Ident3(), mgl32.Vec3{}
	for j := 1; j < n; j++ {
		o := 15 * (j - 1)
		s.local[j], s.e[j] = axesToMat(vec(y[o+3:]), vec(y[o+6:]))
		p := parents[j]
		s.pos[j] = s.pos[p].Add(s.rot[p].Mul3x1(vec(y[o:])))
		s.rot[j] = s.rot[p].Mul3(s.local[j])
	}
	var loss float32
	w := fkWeight * norm / scale
	for j := range s.dpos {
		s.dpos[j], s.drot[j] = mgl32.Vec3{}, mgl32.Mat3{}
	}
	for j := 1; j < n; j++ {
		t := vec(want[15*(j-1):])
		for c := 0; c < 3; c++ {
			e := s.pos[j][c] - t[c]
			loss += abs32(e) * w
			s.dpos[j][c] = sign(e) * w
		}
	}
	for j := n - 1; j >= 1; j-- {
		p, o := parents[j], 15*(j-1)
		lp := vec(y[o:])
		// pos[j] = pos[p] + rot[p]·lp
		s.dpos[p] = s.dpos[p].Add(s.dpos[j])
		s.drot[p] = s.drot[p].Add(outer(s.dpos[j], lp))
		dlp := s.rot[p].Transpose().Mul3x1(s.dpos[j])
		// rot[j] = rot[p]·local[j]
		s.drot[p] = s.drot[p].Add(s.drot[j].Mul3(s.local[j].Transpose()))
		dl := s.rot[p].Transpose().Mul3(s.drot[j])
		da, db := axesGrad(vec(y[o+3:]), vec(y[o+6:]), s.e[j], dl)
		for c := 0; c < 3; c++ {
			dy[o+c] += dlp[c]
			dy[o+3+c] += da[c]
			dy[o+6+c] += db[c]
		}
	}
	return loss
}

// outer is the outer product a bᵀ.
func outer(a, b mgl32.Vec3) mgl32.Mat3 {
	return mgl32.Mat3FromCols(a.Mul(b[0]), a.Mul(b[1]), a.Mul(b[2]))
}
