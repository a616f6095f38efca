package body

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx/mathx64"
)

// Winding is the generalised winding number of the mesh about point p: the
// solid angle its triangles span seen from p, over 4 pi. For a closed mesh
// wound counter-clockwise from outside (as GenerateBody makes) it is 1
// inside, 0 outside, and it degrades gracefully near small holes. It costs
// one pass over the triangles.
func (b *Mesh) Winding(p mgl32.Vec3) float64 {
	var sum float64
	for t := 0; t+2 < len(b.Indices); t += 3 {
		var v [3]mathx64.Vec3
		for k := 0; k < 3; k++ {
			i := 3 * int(b.Indices[t+k])
			for a := 0; a < 3; a++ {
				v[k][a] = float64(b.Positions[i+a] - p[a])
			}
		}
		// Van Oosterom and Strackee: tan(omega/2) = det / denominator.
		la, lb, lc := v[0].Len(), v[1].Len(), v[2].Len()
		det := v[0][0]*(v[1][1]*v[2][2]-v[1][2]*v[2][1]) - v[0][1]*(v[1][0]*v[2][2]-v[1][2]*v[2][0]) + v[0][2]*(v[1][0]*v[2][1]-v[1][1]*v[2][0])
		den := la*lb*lc + v[0].Dot(v[1])*lc + v[1].Dot(v[2])*la + v[2].Dot(v[0])*lb
		sum += 2 * math.Atan2(det, den)
	}
	return sum / (4 * math.Pi)
}

// Inside reports whether p is inside the closed mesh (winding number above
// one half).
func (b *Mesh) Inside(p mgl32.Vec3) bool { return b.Winding(p) > 0.5 }
