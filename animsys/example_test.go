package animsys_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// A parent spinning at 1 rad/s about y carries a child 2 m along x: FK
// gives the child the "leverage" velocity, 2 m/s along -z.
func ExampleFK() {
	parents := []int{-1, 0}
	local, global := animsys.NewPose(2), animsys.NewPose(2)
	local.Ang[0] = mgl32.Vec3{0, 1, 0}
	local.Pos[1] = mgl32.Vec3{2, 0, 0}
	animsys.FK(&global, &local, parents)
	fmt.Printf("child velocity %.1f m/s\n", global.Vel[1])
	// Output: child velocity [0.0 0.0 -2.0] m/s
}

// Kineforms compose moving frames: a point 1 m in front of a parent that
// grows at 0.5 (log-scale) per second moves away at 0.5 m/s ("expansion").
func ExampleKformMul() {
	parent := animsys.KformIdentity()
	parent.Svl = mgl32.Vec3{0.5, 0.5, 0.5}
	point := animsys.KformFromPosVel(mgl32.Vec3{0, 0, 1}, mgl32.Vec3{})
	world := animsys.KformMul(parent, point)
	fmt.Printf("%.2f m/s\n", world.Vel)
	// Output: [0.00 0.00 0.50] m/s
}

// Sampling a clip gives the pose and its velocities at once.
func ExampleSampleCubic() {
	clip := animsys.GenerateBenchClip(1)
	pose := animsys.NewPose(clip.Joints)
	animsys.SampleCubic(&pose, &clip, 2.5)
	fmt.Printf("root walks at %.2f m/s forward\n", pose.Vel[0][2])
	// Output: root walks at 1.20 m/s forward
}

// One bench-spec tick of a character, the work `kinelab bench` times.
func ExampleBenchCharacter_Tick() {
	skel := animsys.BenchSkeleton()
	a, b := animsys.GenerateBenchClip(1), animsys.GenerateBenchClip(2)
	chain := animsys.NewBenchChain(skel.Parents)
	s := animsys.NewBenchScratch(skel.Len()) // the poses a tick computes and drops
	c := animsys.NewBenchCharacter(&chain, &a, &b, 1, 0, 0, s)
	c.TickWith(1.0/60, s)
	// Global now holds this tick's world pose, Prev the previous tick's,
	// and s the finite difference of the two and its BK.
	fmt.Println(len(c.Global.Vel), mathx.Vec3Finite(s.FDLocal.Ang[14]))
	// Output: 23 true
}

// A transition between clips: a spring inertialization starts exactly on
// the pose that was playing (velocities included) and decays the offset
// to the new clip with the given half-life.
func ExampleTransition() {
	walk, run := animsys.GenerateBenchClip(1), animsys.GenerateBenchClip(2)
	playing, next, out := animsys.NewPose(walk.Joints), animsys.NewPose(run.Joints), animsys.NewPose(run.Joints)
	animsys.SampleCubic(&playing, &walk, 2)
	animsys.SampleCubic(&next, &run, 0)
	animsys.RemoveGlobalRoot(&playing) // both in place: the root is the character's
	animsys.RemoveGlobalRoot(&next)

	tr := animsys.NewTransition(walk.Joints)
	tr.Start(animsys.TransitionSpring, &playing, &next)
	p := animsys.TransitionParams{Halflife: 0.1}
	parents := animsys.BenchSkeleton().Parents
	g1, g2 := animsys.NewPose(walk.Joints), animsys.NewPose(walk.Joints)
	for tick := 0; tick <= 30; tick++ { // 0.5 s at 60 Hz
		animsys.SampleCubic(&next, &run, tr.Time())
		animsys.RemoveGlobalRoot(&next)
		tr.Apply(&out, &next, nil, p)
		if tick%10 == 0 {
			animsys.FKStatic(&g1, &out, parents)
			animsys.FKStatic(&g2, &next, parents)
			foot := g1.Pos[animsys.BenchLeftFoot].Sub(g2.Pos[animsys.BenchLeftFoot])
			fmt.Printf("%.2f s: left foot %4.1f cm off the run\n", tr.Time(), 100*foot.Len())
		}
		tr.Advance(1.0 / 60)
	}
	// Output:
	// 0.00 s: left foot 19.9 cm off the run
	// 0.17 s: left foot  6.1 cm off the run
	// 0.33 s: left foot  1.8 cm off the run
	// 0.50 s: left foot  0.3 cm off the run
}
