package humanoid

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/internal/fixture"
)

// A runner leaning 18 degrees into its run (its up from feet to head
// leans so) passes a static root on the floor, 6 m ahead of it at the
// start and 1.5 m behind at the end (Bandai dataset-2's joint_Root, whose
// runs pass it so): the root is ground in every frame, and only the root.
// Measured along the leaning up, it stood a metre and more above the feet
// for most of the run and was read as the body's pelvis.
func TestGroundRootBesideLeaningRunner(t *testing.T) {
	for _, run := range []float32{-1, 1} { // along -Z, along +Z
		for _, lean := range []float32{0, 18} {
			bp, names, design := design(fixture.Bandai())
			parents := []int{-1}
			for _, p := range bp {
				parents = append(parents, p+1) // the figure's root (-1) hangs from the static root (0)
			}
			names = append([]string{"joint_Root"}, names...)
			tilt := mgl32.QuatRotate(run*lean*math.Pi/180, mgl32.Vec3{1, 0, 0}) // the head leans the way it runs
			const n = 24
			frames := make([][]mgl32.Vec3, n)
			for i := range frames {
				at := mgl32.Vec3{0, 0, -run * (6 - 7.5*float32(i)/(n-1))}
				frames[i] = []mgl32.Vec3{{}}
				for _, p := range design {
					frames[i] = append(frames[i], tilt.Rotate(p).Add(at))
				}
			}
			f, err := Read(parents, names, frames)
			if err != nil || !f.Human {
				t.Fatalf("run %v, lean %v°: %v, %s", run, lean, err, f.NotHuman)
			}
			if up := f.Up(frames); lean != 0 && (up[1] > 0.96 || up[2]*run < 0.25) {
				t.Fatalf("run %v, lean %v°: the figure's up %v does not lean into the run", run, lean, up)
			}
			for j, g := range f.Ground {
				if g != (j == 0) {
					t.Errorf("run %v, lean %v°: %s is ground: %v; want only joint_Root", run, lean, names[j], g)
				}
			}
		}
	}
}
