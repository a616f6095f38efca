package animsys

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// poseNear reports the largest difference between two poses, per channel
// (rotations compared up to sign).
func poseDiff(a, b *Pose) (pos, rot, scl, vel, ang, svl float32) {
	for j := range a.Pos {
		pos = max(pos, a.Pos[j].Sub(b.Pos[j]).Len())
		dq := a.Rot[j].Sub(b.Rot[j]).Len()
		dq = min(dq, a.Rot[j].Add(b.Rot[j]).Len())
		rot = max(rot, dq)
		scl = max(scl, a.Scl[j].Sub(b.Scl[j]).Len())
		vel = max(vel, a.Vel[j].Sub(b.Vel[j]).Len())
		ang = max(ang, a.Ang[j].Sub(b.Ang[j]).Len())
		svl = max(svl, a.Svl[j].Sub(b.Svl[j]).Len())
	}
	return
}

// FK then BK gives back the local pose and its velocities, on clips with
// non-unit, changing scales (joints 7, 11, 17 and everything below them)
// and the bench additive's non-uniform scales on top. Tolerance: float32
// rounding through up to 8 levels of hierarchy and back, with world
// positions up to 12 m: ~1e-5 relative.
func TestFKThenBKRoundTrip(t *testing.T) {
	skel := BenchSkeleton()
	n := skel.Len()
	local, global, back, add := NewPose(n), NewPose(n), NewPose(n), NewPose(n)
	for _, seed := range []uint32{1, 2, 3, 100} {
		c := GenerateBenchClip(seed)
		RandomAdditive(&add, seed)
		for _, tm := range []float32{0.3, 2.71, 6.05, 9.5} {
			SampleCubic(&local, &c, tm)
			Additive(&local, &add, 0.7, 0.4)
			FK(&global, &local, skel.Parents)
			BK(&back, &global, skel.Parents)
			p, r, s, v, a, sv := poseDiff(&local, &back)
			if p > 2e-5 || r > 2e-6 || s > 2e-6 || v > 5e-5 || a > 2e-5 || sv > 1e-6 {
				t.Errorf("seed %d t %v: BK(FK(x)) - x: pos %g rot %g scl %g vel %g ang %g svl %g",
					seed, tm, p, r, s, v, a, sv)
			}
		}
	}
}

// FKStatic computes FK's transforms, to the bit: the same operations.
func TestFKStaticMatchesFK(t *testing.T) {
	skel := BenchSkeleton()
	c := GenerateBenchClip(4)
	local, g1, g2 := NewPose(skel.Len()), NewPose(skel.Len()), NewPose(skel.Len())
	SampleCubic(&local, &c, 3.3)
	FK(&g1, &local, skel.Parents)
	FKStatic(&g2, &local, skel.Parents)
	for j := range g1.Pos {
		if g1.Pos[j] != g2.Pos[j] || g1.Rot[j] != g2.Rot[j] || g1.Scl[j] != g2.Scl[j] {
			t.Fatalf("joint %d: FK %v %v %v, FKStatic %v %v %v", j, g1.Pos[j], g1.Rot[j], g1.Scl[j],
				g2.Pos[j], g2.Rot[j], g2.Scl[j])
		}
	}
}

// The article's listing of op_bk (no division by the parent scale, the
// expansion term rotated) only inverts op_fk for unit parent scales; this
// documents why BK differs from it.
func TestArticleBKListingNeedsUnitScale(t *testing.T) {
	parent := Kform{Pos: mgl32.Vec3{1, 2, 3}, Rot: mathx.QuatFromScaledAngleAxis(mgl32.Vec3{.3, .5, -.2}),
		Scl: mgl32.Vec3{2, 2, 2}, Vel: mgl32.Vec3{.1, 0, 0}, Ang: mgl32.Vec3{0, 1, 0}, Svl: mgl32.Vec3{.5, .5, .5}}
	child := KformFromPosVel(mgl32.Vec3{0, .4, 0}, mgl32.Vec3{.2, 0, 0})
	g := KformMul(parent, child)
	// The listing's local position: quat_inv_mul_vec3(par_rot, pos - par_pos).
	listing := mathx.QuatInvMulVec3(parent.Rot, g.Pos.Sub(parent.Pos))
	if listing.Sub(child.Pos).Len() < 0.1 {
		t.Fatal("expected the listing to be off by the parent scale")
	}
	if got := KformDiv(parent, g); got.Pos.Sub(child.Pos).Len() > 1e-6 || got.Vel.Sub(child.Vel).Len() > 1e-5 {
		t.Fatalf("KformDiv = %+v, want %+v", got, child)
	}
}

// tangentTol bounds the error of world velocities from Catmull-Rom
// tangents against the analytic ones. Each local tangent is off by at most
// (w dt)^2/6 = 4.1e-3 of its velocity (1.5 Hz, the clips' fastest); FK adds
// these errors up the hierarchy, so the bound is taken relative to the
// largest world velocity of the pose vs, plus float32 noise.
func tangentTol(vs []mgl32.Vec3) float32 {
	m := float32(0)
	for _, v := range vs {
		m = max(m, v.Len())
	}
	return 5e-3*m + 1e-3
}

// Teleport: on the very frame the root jumps, FK's propagated world
// velocities are the analytic ones (the jump does not enter them), while a
// finite difference against the previous frame is off by jump/dt.
func TestTeleportFrame(t *testing.T) {
	skel := BenchSkeleton()
	n := skel.Len()
	c := GenerateBenchClip(1)
	m := NewBenchMotion(1)
	const dt = float32(1.0 / 60)
	const f = 200 // teleport on frame 200
	local, prevG, currG, fd, exact, exactG := NewPose(n), NewPose(n), NewPose(n), NewPose(n), NewPose(n), NewPose(n)

	SampleCubic(&local, &c, (f-1)*dt)
	FK(&prevG, &local, skel.Parents)
	SampleCubic(&local, &c, f*dt)
	jump := mgl32.Vec3{3, 0, -5}
	local.Pos[0] = local.Pos[0].Add(jump)
	FK(&currG, &local, skel.Parents)
	FiniteDiff(&fd, &currG, &prevG, dt)

	// Analytic: the motion's exact local velocities at t = f/60 through FK.
	m.Eval(&exact, float64(f)/60)
	exact.Pos[0] = exact.Pos[0].Add(jump)
	FK(&exactG, &exact, skel.Parents)

	for j := 0; j < n; j++ {
		// Cubic sampling at a frame reproduces the frame; its velocity is the
		// Catmull-Rom tangent (x(t+dt) - x(t-dt))/2dt, which for a sine of
		// angular frequency w is off by (w dt)^2/6 of the velocity: 4e-3 at
		// the clips' fastest 1.5 Hz.
		if d := currG.Vel[j].Sub(exactG.Vel[j]).Len(); d > tangentTol(exactG.Vel) {
			t.Errorf("joint %d: propagated %v, analytic %v (off %g m/s)", j, currG.Vel[j], exactG.Vel[j], d)
		}
		if d := currG.Ang[j].Sub(exactG.Ang[j]).Len(); d > tangentTol(exactG.Ang) {
			t.Errorf("joint %d: propagated ang %v, analytic %v", j, currG.Ang[j], exactG.Ang[j])
		}
		// The finite difference sees the jump: analytic + jump/dt, up to its
		// own first-order error (dt/2 x acceleration, < 0.7 m/s here).
		want := exactG.Vel[j].Add(jump.Mul(1 / dt))
		if d := fd.Vel[j].Sub(want).Len(); d > 0.7 {
			t.Errorf("joint %d: finite difference %v, want ~%v", j, fd.Vel[j], want)
		}
		if d := fd.Vel[j].Sub(exactG.Vel[j]).Len(); math.Abs(float64(d-jump.Len()/dt)) > 0.7 {
			t.Errorf("joint %d: finite difference off by %g, want ~|jump|/dt = %g", j, d, jump.Len()/dt)
		}
	}
}

// Reset: switching on one frame to another clip at another time, the
// propagated velocities are those of the new clip (its analytic motion);
// the finite difference against the previous frame is the pose jump / dt.
func TestResetFrame(t *testing.T) {
	skel := BenchSkeleton()
	n := skel.Len()
	a, b := GenerateBenchClip(1), GenerateBenchClip(2)
	const dt = float32(1.0 / 60)
	local, prevG, currG, exactG, fd := NewPose(n), NewPose(n), NewPose(n), NewPose(n), NewPose(n)

	SampleCubic(&local, &a, 3.0)
	FK(&prevG, &local, skel.Parents)
	SampleCubic(&local, &b, 7.5) // reset: clip B at 7.5 s
	FK(&currG, &local, skel.Parents)
	FiniteDiff(&fd, &currG, &prevG, dt)

	// Reference: clip B's analytic motion at 7.5 s.
	mb := NewBenchMotion(2)
	mb.Eval(&local, 7.5)
	FK(&exactG, &local, skel.Parents)

	bigJump := false
	for j := 0; j < n; j++ {
		jump := currG.Pos[j].Sub(prevG.Pos[j])
		if jump.Len() > 0.5 {
			bigJump = true
		}
		// As in TestTeleportFrame: within the O(dt^2) Catmull-Rom tangent error.
		if d := currG.Vel[j].Sub(exactG.Vel[j]).Len(); d > tangentTol(exactG.Vel) {
			t.Errorf("joint %d: propagated %v, analytic %v", j, currG.Vel[j], exactG.Vel[j])
		}
		if d := currG.Ang[j].Sub(exactG.Ang[j]).Len(); d > tangentTol(exactG.Ang) {
			t.Errorf("joint %d: propagated ang %v, analytic %v", j, currG.Ang[j], exactG.Ang[j])
		}
		// The finite difference is the jump over one frame, nothing else.
		if d := fd.Vel[j].Sub(jump.Mul(1 / dt)).Len(); d > 1e-3*jump.Len()/dt+1e-3 {
			t.Errorf("joint %d: finite difference %v, want jump/dt %v", j, fd.Vel[j], jump.Mul(1/dt))
		}
		if d := fd.Vel[j].Sub(exactG.Vel[j]).Len(); d < 10 {
			t.Errorf("joint %d: finite difference within %g m/s of the true velocity despite the reset", j, d)
		}
	}
	if !bigJump {
		t.Fatal("the reset should move the character (clips walk 1.2 m/s from different times)")
	}
}

// RestPose puts every joint at the sum of the offsets down its chain,
// unrotated and unscaled.
func TestRestPose(t *testing.T) {
	s := BenchSkeleton()
	rest := s.RestPose()
	for j, p := range s.Parents {
		want := s.Offsets[j]
		if p >= 0 {
			want = rest.Pos[p].Add(s.Offsets[j])
		}
		if rest.Pos[j].Sub(want).Len() > 1e-5 || rest.Rot[j] != mgl32.QuatIdent() || rest.Scl[j] != (mgl32.Vec3{1, 1, 1}) {
			t.Fatalf("joint %d: %v %v %v, want position %v", j, rest.Pos[j], rest.Rot[j], rest.Scl[j], want)
		}
	}
}
