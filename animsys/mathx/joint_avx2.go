//go:build goexperiment.simd && amd64

package mathx

import "simd/archsimd"

// Vec4 is four float32 lanes across one joint's components: a vector (x,
// y, z and a fourth lane of no meaning) or a quaternion as mgl32.Quat
// holds it (w, x, y, z). In this build an archsimd.Float32x4, with its
// methods Add, Sub, Mul and Store; joint_portable.go's does the same per
// lane. (A joint at a time is how FK walks the hierarchy: a joint needs
// its parent's result, so its lanes are its components, not joints.)
type Vec4 = archsimd.Float32x4

// Splat4 is x in every lane.
func Splat4(x float32) Vec4 { return archsimd.BroadcastFloat32x4(x) }

// The lane moves the joint forms need, each one shuffle: yzx and zxy of
// a vector (for cross products), a quaternion's vector part into lanes x,
// y, z (xyzw), its w in every lane, and the three lane orders of a
// quaternion product.

func yzx(v Vec4) Vec4   { return v.SelectFromPair(1, 2, 0, 3, v) }
func zxy(v Vec4) Vec4   { return v.SelectFromPair(2, 0, 1, 3, v) }
func xyzw(q Vec4) Vec4  { return q.SelectFromPair(1, 2, 3, 0, q) }
func wwww(q Vec4) Vec4  { return q.SelectFromPair(0, 0, 0, 0, q) }
func xxxx(q Vec4) Vec4  { return q.SelectFromPair(1, 1, 1, 1, q) }
func yyyy(q Vec4) Vec4  { return q.SelectFromPair(2, 2, 2, 2, q) }
func zzzz(q Vec4) Vec4  { return q.SelectFromPair(3, 3, 3, 3, q) }
func q1032(q Vec4) Vec4 { return q.SelectFromPair(1, 0, 3, 2, q) }
func q2301(q Vec4) Vec4 { return q.SelectFromPair(2, 3, 0, 1, q) }
func q3210(q Vec4) Vec4 { return q.SelectFromPair(3, 2, 1, 0, q) }

func loadVec4(p *[4]float32) Vec4 { return archsimd.LoadFloat32x4(p) }
