package character

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/humanoid"
	"kinelab/internal/mocap"
)

// locomotionFiles returns the .bvh files of ../shared/locomotion (the
// motion-matching captures, beside ../shared/mocap), nil when absent.
func locomotionFiles() []string {
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		if paths, _ := filepath.Glob(filepath.Join(d, "shared", "locomotion", "*.bvh")); len(paths) > 0 {
			return paths
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// TestMirrorCaptures mirrors real captures, loaded as characters, across
// their lateral axis (Facing x up; a reflection's normal has no sign) and
// checks that every joint's mirrored position is its partner's reflected,
// up to what the skeleton's asymmetry allows.
//
// The bound: a joint's mirrored position is off from its partner's
// reflection by its parent's error plus |K a - b|, a its offset, b its
// partner's and K the parent's fitted map (animsys/mirror.go). The fit
// minimizes the sum of those squares over the parent's children, so each
// is at most the root of that sum for any other map K, such as the one of
// a pose that is the skeleton's rest for symmetry, where |K a - b| is
// |M d_a - d_b| for the bones' vectors d in that pose: the bound sums, down
// each chain, that root at the parent (the least over the zero-rotation
// and the bind pose). Joints with position tracks mirror exactly relative
// to their parents. 0.1 mm is float32 rounding on a figure within a few
// metres of the origin.
func TestMirrorCaptures(t *testing.T) {
	paths := append(mocap.Need(t), locomotionFiles()...)
	up := mgl32.Vec3{0, 1, 0}
	for _, path := range paths {
		name := mocap.Base(path)
		ch, err := Load([]string{path}, bvh.ReadOptions{})
		if ch == nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		sk, c := &ch.Skel, &ch.Clips[0]
		n := ch.Facing.Cross(up).Normalize()
		pairs := humanoid.MirrorPairs(sk.Names)
		m := animsys.MirrorClip(sk, c, pairs, n)
		refl := func(v mgl32.Vec3) mgl32.Vec3 { return v.Sub(n.Mul(2 * n.Dot(v))) }

		zero, bind := sk.RestPose(), sk.BindPose()
		bound := mirrorBound(sk, c, pairs, zero.Pos, bind.Pos)
		nj := sk.Len()
		la, lb, ga, gb := animsys.NewPose(nj), animsys.NewPose(nj), animsys.NewPose(nj), animsys.NewPose(nj)
		var worst, worstBound, over float32
		worstJoint := 0
		frames := min(c.Frames, 120)
		var ahead, aheadM float32 // how far the root goes forward
		for i := range frames {
			f := i * (c.Frames - 1) / max(frames-1, 1)
			c.Frame(&la, f)
			m.Frame(&lb, f)
			animsys.FKStatic(&ga, &la, sk.Parents)
			animsys.FKStatic(&gb, &lb, sk.Parents)
			for j, q := range pairs {
				e := gb.Pos[j].Sub(refl(ga.Pos[q])).Len()
				if e > worst {
					worst, worstJoint = e, j
				}
				worstBound = max(worstBound, bound[j])
				over = max(over, e-bound[j])
			}
			if i == 0 {
				ahead, aheadM = -ga.Pos[0].Dot(ch.Facing), -gb.Pos[0].Dot(ch.Facing)
			} else if i == frames-1 {
				ahead, aheadM = ahead+ga.Pos[0].Dot(ch.Facing), aheadM+gb.Pos[0].Dot(ch.Facing)
			}
		}
		moves := moving(c)
		az, nz := animsys.MirrorAsymmetry(sk.Parents, pairs, zero.Pos, moves)
		ab, nb := animsys.MirrorAsymmetry(sk.Parents, pairs, bind.Pos, moves)
		t.Logf("%s: rest asymmetry %.3f (zero-rotation, about %.2f) %.3f (bind, about %.2f); mirrored off by %.5f m at most (%s), bound %.4f m; %.2f m ahead, mirrored %.2f m",
			name, az, nz, ab, nb, worst, sk.Names[worstJoint], worstBound, ahead, aheadM)
		if over > 1e-4 {
			t.Errorf("%s: mirrored positions off by %.4f m more than the skeleton's asymmetry allows", name, over)
		}
		// And within a few cm: the captures at hand reach 3.1 cm (CMU's
		// cgspeed and 3ds Max skeletons, the asymmetric ones).
		if worst > 0.05 {
			t.Errorf("%s: mirrored positions off by %.3f m (%s)", name, worst, sk.Names[worstJoint])
		}
		// Across the lateral plane the mirror image walks the same way.
		if math.Abs(float64(ahead-aheadM)) > 1e-3 {
			t.Errorf("%s: the root goes %.3f m forward, mirrored %.3f m", name, ahead, aheadM)
		}
		if back := animsys.MirrorClip(sk, &m, pairs, n); !sameClip(c, &back, 1e-5) {
			t.Errorf("%s: mirrored twice is not the clip", name)
		}
	}
}

// mirrorBound returns, per joint, how far (m) its mirrored position may be
// from its partner's reflection (see TestMirrorCaptures), from the global
// joint positions of poses, each reflected across its own plane of
// symmetry (a pose turned to have the mirror's plane as its own gives the
// same residuals).
func mirrorBound(sk *animsys.Skeleton, c *animsys.Clip, pairs []int, poses ...[]mgl32.Vec3) []float32 {
	nj := sk.Len()
	moves := moving(c)
	// fit[p]: the bound on each fitted child's residual under joint p.
	fit := make([]float32, nj)
	for p := range nj {
		best := float32(math.Inf(1))
		for _, pos := range poses {
			_, n := animsys.MirrorAsymmetry(sk.Parents, pairs, pos, moves)
			refl := func(v mgl32.Vec3) mgl32.Vec3 { return v.Sub(n.Mul(2 * n.Dot(v))) }
			var sum float32
			for k, a := range sk.Parents {
				if a != p || moves[k] || moves[pairs[k]] || sk.Parents[pairs[k]] != pairs[p] {
					continue
				}
				d := refl(pos[pairs[k]].Sub(pos[pairs[p]])).Sub(pos[k].Sub(pos[p]))
				sum += d.Dot(d)
			}
			best = min(best, float32(math.Sqrt(float64(sum))))
		}
		fit[p] = best
	}
	bound := make([]float32, nj)
	for j, p := range sk.Parents {
		if p < 0 {
			continue
		}
		bound[j] = bound[p]
		if !moves[j] && !moves[pairs[j]] {
			bound[j] += fit[p]
		}
	}
	return bound
}

// moving marks the joints whose position moves over clip c, as MirrorClip
// tells them: by more than 10 µm.
func moving(c *animsys.Clip) []bool {
	moves := make([]bool, c.Joints)
	for j := range moves {
		for f := 1; f < c.Frames && !moves[j]; f++ {
			moves[j] = c.PosAt(f, j).Sub(c.PosAt(0, j)).Len() > 1e-5
		}
	}
	return moves
}

// sameClip reports whether two clips of one skeleton have the same local
// rotations (up to sign) and positions, within tol.
func sameClip(a, b *animsys.Clip, tol float32) bool {
	for f := 0; f < a.Frames; f++ {
		for j := 0; j < a.Joints; j++ {
			p, q := a.Rot[a.At(f, j)], b.Rot[b.At(f, j)]
			if d := p.W*q.W + p.V.Dot(q.V); d < 0 {
				q = mgl32.Quat{W: -q.W, V: q.V.Mul(-1)}
			}
			dq := mgl32.Vec4{p.W - q.W, p.V[0] - q.V[0], p.V[1] - q.V[1], p.V[2] - q.V[2]}
			if dq.Len() > tol || a.PosAt(f, j).Sub(b.PosAt(f, j)).Len() > tol {
				return false
			}
		}
	}
	return true
}
