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
func ExampleCharacter_Tick() {
	skel := animsys.BenchSkeleton()
	a, b := animsys.GenerateBenchClip(1), animsys.GenerateBenchClip(2)
	chain := animsys.BenchChain(skel.Parents)
	c := animsys.NewCharacter(&chain, &a, &b, 1, 0, 0, nil)
	c.Tick(1.0 / 60)
	// Global now holds this tick's world pose, Prev the previous tick's.
	fmt.Println(len(c.Global.Vel), mathx.Vec3Finite(c.FDLocal.Ang[14]))
	// Output: 23 true
}
