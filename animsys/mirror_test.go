package animsys

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/mathx/mathx64"
)

// benchPairs pairs the bench skeleton's Left and Right joints by name (the
// humanoid package, which reads names in general, imports this one).
func benchPairs(sk *Skeleton) []int {
	at := map[string]int{}
	for j, nm := range sk.Names {
		at[nm] = j
	}
	pairs := make([]int, sk.Len())
	for j, nm := range sk.Names {
		pairs[j] = j
		switch {
		case strings.HasPrefix(nm, "Left"):
			pairs[j] = at["Right"+nm[4:]]
		case strings.HasPrefix(nm, "Right"):
			pairs[j] = at["Left"+nm[5:]]
		}
	}
	return pairs
}

// mirrorNormals are the planes the tests mirror across: the bench
// skeleton's own (x), and a vertical plane turned 30 degrees from it, about
// which the skeleton is symmetric only up to a turn, which the fitted
// corrections take up.
var mirrorNormals = []mgl32.Vec3{{1, 0, 0}, {float32(math.Cos(0.52)), 0, float32(math.Sin(0.52))}}

// shortBench is bench clip seed with only its first frames: enough motion
// to test, little to compute.
func shortBench(seed uint32, frames int) Clip {
	c := GenerateBenchClip(seed)
	out := NewClip(c.Name, frames, c.Joints, c.FrameTime)
	for j := 0; j < c.Joints; j++ {
		for f := 0; f < frames; f++ {
			out.Rot[out.At(f, j)] = c.Rot[c.At(f, j)]
			out.SetPos(f, j, c.PosAt(f, j))
			out.SetScl(f, j, c.SclAt(f, j))
		}
	}
	out.Prepare()
	return out
}

func TestMirrorWahba(t *testing.T) {
	r := mathx.NewXorshift32(7)
	rv := func() mathx64.Vec3 {
		return mathx64.Vec3{float64(r.Range(1)), float64(r.Range(1)), float64(r.Range(1))}
	}
	for i := 0; i < 20; i++ {
		q := mathx64.FromQuat32(mathx.QuatFromScaledAngleAxis(mgl32.Vec3{r.Range(3), r.Range(3), r.Range(3)}))
		l := math.Sqrt(q.Dot(q))
		q = mathx64.Quat{W: q.W / l, X: q.X / l, Y: q.Y / l, Z: q.Z / l}
		var m [3][3]float64
		for k := 0; k < 3; k++ {
			a := rv()
			b := q.Rotate(a)
			for x := range 3 {
				for y := range 3 {
					m[x][y] += b[x] * a[y]
				}
			}
		}
		got := wahba(m)
		if d := math.Abs(got.Mul(q.Conj()).W); d < 1-1e-12 {
			t.Errorf("case %d: wahba = %v, want %v", i, got, q)
		}
	}
}

// quatClose reports whether a and b are the same rotation within tol (on
// the components, up to sign).
func quatClose(a, b mgl32.Quat, tol float32) bool {
	d := func(s float32) float32 {
		return max(abs32(a.W-s*b.W), abs32(a.V[0]-s*b.V[0]), abs32(a.V[1]-s*b.V[1]), abs32(a.V[2]-s*b.V[2]))
	}
	return min(d(1), d(-1)) <= tol
}

func TestMirrorClipTwice(t *testing.T) {
	sk := BenchSkeleton()
	c := shortBench(1, 120)
	pairs := benchPairs(&sk)
	for _, n := range mirrorNormals {
		m := MirrorClip(&sk, &c, pairs, n)
		back := MirrorClip(&sk, &m, pairs, n)
		if m.Name != c.Name+" (mirrored)" || back.Frames != c.Frames || back.FrameTime != c.FrameTime {
			t.Fatalf("mirrored clip %q, %d frames at %g s", m.Name, back.Frames, back.FrameTime)
		}
		var rotErr, posErr, sclErr float32
		for f := 0; f < c.Frames; f++ {
			for j := 0; j < c.Joints; j++ {
				a, b := c.Rot[c.At(f, j)], back.Rot[back.At(f, j)]
				for tol := float32(1e-7); !quatClose(a, b, tol); tol *= 2 {
					rotErr = max(rotErr, 2*tol)
				}
				posErr = max(posErr, c.PosAt(f, j).Sub(back.PosAt(f, j)).Len())
				sclErr = max(sclErr, c.SclAt(f, j).Sub(back.SclAt(f, j)).Len())
			}
		}
		t.Logf("normal %v: mirrored twice, max rotation component error %.2g, position error %.2g m, scale %.2g", n, rotErr, posErr, sclErr)
		if rotErr > 1e-5 || posErr > 1e-5 || sclErr != 0 {
			t.Errorf("normal %v: mirrored twice differs: rotation %g, position %g m, scale %g", n, rotErr, posErr, sclErr)
		}
	}
}

// TestMirrorClipSymmetric mirrors the bench clip (on a skeleton whose right
// side mirrors its left) and checks its poses sampled between frames, with
// their velocities, against the reflected partners' of the original:
// positions and linear velocities reflect (M x), angular velocities are
// axial (-M w).
//
// Tolerances: the mirrored clip is a fixed orthogonal linear map of the
// original's local values, so the two differ only by float32 rounding, a
// few ulps per quaternion product, grown through FK's chain of 6 joints:
// about 1e-6 relative. Positions here are within 2.5 m of the origin
// (1e-4 m is some 40 ulps there) and velocities reach about 10 m/s and 10
// rad/s (1e-4 relative).
func TestMirrorClipSymmetric(t *testing.T) {
	sk := BenchSkeleton()
	c := shortBench(2, 120)
	pairs := benchPairs(&sk)
	nj := sk.Len()
	la, lb, ga, gb := NewPose(nj), NewPose(nj), NewPose(nj), NewPose(nj)
	for _, n := range mirrorNormals {
		m := MirrorClip(&sk, &c, pairs, n)
		// M_n M_x is the rotation of the quaternion product n x.
		turn := mgl32.Quat{W: -n[0], V: n.Cross(mgl32.Vec3{1, 0, 0})}
		var posErr, velErr, angErr, rotErr, velMax float32
		for i := 0; i < 60; i++ {
			tm := (float32(i) + 0.37) * 1.9 * c.FrameTime
			SampleCubic(&la, &c, tm)
			SampleCubic(&lb, &m, tm)
			FK(&ga, &la, sk.Parents)
			FK(&gb, &lb, sk.Parents)
			for j, q := range pairs {
				posErr = max(posErr, gb.Pos[j].Sub(reflVec(ga.Pos[q], n)).Len())
				velErr = max(velErr, gb.Vel[j].Sub(reflVec(ga.Vel[q], n)).Len())
				angErr = max(angErr, gb.Ang[j].Add(reflVec(ga.Ang[q], n)).Len())
				velMax = max(velMax, ga.Vel[q].Len(), ga.Ang[q].Len())
				// Rotations: M G_q K with K the skeleton's own reflection
				// (across x), but for the Entity, which carries the rest
				// and stays unturned (K = M).
				want := reflQuat(ga.Rot[q], n)
				if j > 0 {
					want = want.Mul(turn)
				}
				for tol := float32(1e-7); !quatClose(gb.Rot[j], want, tol); tol *= 2 {
					rotErr = max(rotErr, 2*tol)
				}
			}
		}
		t.Logf("normal %v: position error %.2g m, velocity %.2g m/s, angular %.2g rad/s (speeds up to %.1f), rotation %.2g",
			n, posErr, velErr, angErr, velMax, rotErr)
		if posErr > 1e-4 || velErr > 1e-4*velMax || angErr > 1e-4*velMax || rotErr > 1e-5 {
			t.Errorf("normal %v: mirrored pose off: position %g m, velocity %g m/s, angular %g rad/s, rotation %g", n, posErr, velErr, angErr, rotErr)
		}
	}
}

// TestMirrorClipRestFrames gives every joint of the bench skeleton a rest
// frame turned as rigs turn them (bones along X and the like: offsets and
// rotations expressed in those frames, the motion unchanged) and a Bind
// pose that is the old symmetric rest with every joint turned up to 6
// degrees per axis more, in the world (as a straightened captured frame
// is): the
// mirrored clip must move as the old skeleton's mirrored clip, its
// rotations turned by the same rest frames. Rig frames: a left joint's at
// random and its partner's mirrored from it ("behavior": R_q = -M R_j, so
// K = -I), a centre joint's turned about the lateral axis and its axes
// permuted (K a reflection across a frame plane). The Entity keeps its
// frame: a root that carries the others is taken to be world-aligned
// (MirrorClip keeps it unturned).
func TestMirrorClipRestFrames(t *testing.T) {
	sk := BenchSkeleton()
	c := shortBench(3, 40)
	pairs := benchPairs(&sk)
	nj := sk.Len()
	r := mathx.NewXorshift32(11)
	x := mgl32.Vec3{1, 0, 0}
	perms := []mgl32.Quat{{W: 1}, mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 0, math.Pi / 2}), mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, math.Pi / 2, 0})}
	rest := make([]mgl32.Quat, nj) // joint j's new frame in its old one
	for j, q := range pairs {
		switch {
		case j == 0:
			rest[j] = mgl32.Quat{W: 1}
		case q == j:
			rest[j] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{r.Range(3), 0, 0}).Mul(perms[j%3])
		case q > j:
			rest[j] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{r.Range(3), r.Range(3), r.Range(3)})
			rest[q] = reflQuat(rest[j], x).Mul(mgl32.Quat{V: x})
		}
	}
	inv := func(j int) mgl32.Quat {
		if p := sk.Parents[j]; p >= 0 {
			return rest[p].Conjugate()
		}
		return mgl32.Quat{W: 1}
	}
	turned := Skeleton{Names: sk.Names, Parents: sk.Parents, Offsets: make([]mgl32.Vec3, nj)}
	bind := NewPose(nj)
	wobbled := make([]mgl32.Quat, nj) // the bind's global rotations
	tc := NewClip(c.Name, c.Frames, nj, c.FrameTime)
	for j, p := range sk.Parents {
		turned.Offsets[j] = inv(j).Rotate(sk.Offsets[j])
		wobbled[j] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{r.Range(0.1), r.Range(0.1), r.Range(0.1)}).Mul(rest[j])
		bind.Pos[j], bind.Rot[j] = turned.Offsets[j], wobbled[j]
		if p >= 0 {
			bind.Rot[j] = wobbled[p].Conjugate().Mul(wobbled[j])
		}
		for f := 0; f < c.Frames; f++ {
			tc.Rot[tc.At(f, j)] = inv(j).Mul(c.Rot[c.At(f, j)]).Mul(rest[j])
			tc.SetPos(f, j, inv(j).Rotate(c.PosAt(f, j)))
			tc.SetScl(f, j, c.SclAt(f, j))
		}
	}
	tc.Prepare()
	turned.Bind = &bind
	la, lb, ga, gb := NewPose(nj), NewPose(nj), NewPose(nj), NewPose(nj)
	for _, n := range mirrorNormals {
		m, tm := MirrorClip(&sk, &c, pairs, n), MirrorClip(&turned, &tc, pairs, n)
		var posErr, rotErr float32
		for f := 0; f < c.Frames; f++ {
			m.Frame(&la, f)
			tm.Frame(&lb, f)
			FKStatic(&ga, &la, sk.Parents)
			FKStatic(&gb, &lb, sk.Parents)
			for j := range nj {
				posErr = max(posErr, ga.Pos[j].Sub(gb.Pos[j]).Len())
				for tol := float32(1e-7); !quatClose(ga.Rot[j].Mul(rest[j]), gb.Rot[j], tol); tol *= 2 {
					rotErr = max(rotErr, 2*tol)
				}
			}
		}
		// Without the Bind pose, twists about single bones are lost, not
		// positions: the fit to the offsets places every joint.
		bare := turned
		bare.Bind = nil
		bm := MirrorClip(&bare, &tc, pairs, n)
		var bareErr float32
		for f := 0; f < c.Frames; f++ {
			m.Frame(&la, f)
			bm.Frame(&lb, f)
			FKStatic(&ga, &la, sk.Parents)
			FKStatic(&gb, &lb, sk.Parents)
			for j := range nj {
				bareErr = max(bareErr, ga.Pos[j].Sub(gb.Pos[j]).Len())
			}
		}
		t.Logf("normal %v: turned rest frames: position error %.2g m, rotation %.2g; without Bind: position %.2g m", n, posErr, rotErr, bareErr)
		if posErr > 1e-4 || rotErr > 1e-4 || bareErr > 1e-4 {
			t.Errorf("normal %v: turned rest frames mirror otherwise: position %g m, rotation %g; without Bind: position %g m", n, posErr, rotErr, bareErr)
		}
	}
}

func TestMirrorAsymmetry(t *testing.T) {
	sk := BenchSkeleton()
	pairs := benchPairs(&sk)
	pos := sk.RestPose().Pos
	turn := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.3, -1.2, 0.5})
	for j := range pos {
		pos[j] = turn.Rotate(pos[j]).Add(mgl32.Vec3{1, 2, 3})
	}
	a, n := MirrorAsymmetry(sk.Parents, pairs, pos, nil)
	if want := turn.Rotate(mgl32.Vec3{1, 0, 0}); a > 1e-6 || abs32(abs32(n.Dot(want))-1) > 1e-6 {
		t.Errorf("turned bench rest pose: asymmetry %g about %v, want 0 about %v", a, n, want)
	}
	pos[4] = pos[4].Add(turn.Rotate(mgl32.Vec3{0, 0, 0.1})) // a foot 10 cm ahead
	if a, _ := MirrorAsymmetry(sk.Parents, pairs, pos, nil); a < 0.02 {
		t.Errorf("bench rest pose with a foot moved: asymmetry %g, want some", a)
	}
}
