//go:build !(goexperiment.simd && amd64)

package mathx

// Vec4 is four float32 lanes across one joint's components: a vector (x,
// y, z and a fourth lane of no meaning) or a quaternion as mgl32.Quat
// holds it (w, x, y, z), with joint_avx2.go's methods, each the same
// operation per lane. (Go keeps a struct of four float32s in registers.)
type Vec4 struct{ a, b, c, d float32 }

// Splat4 is x in every lane.
func Splat4(x float32) Vec4 { return Vec4{x, x, x, x} }

// Add is v + w per lane.
func (v Vec4) Add(w Vec4) Vec4 { return Vec4{v.a + w.a, v.b + w.b, v.c + w.c, v.d + w.d} }

// Sub is v - w per lane.
func (v Vec4) Sub(w Vec4) Vec4 { return Vec4{v.a - w.a, v.b - w.b, v.c - w.c, v.d - w.d} }

// Mul is v w per lane (each product converted, so not fused: see
// soa_portable.go).
func (v Vec4) Mul(w Vec4) Vec4 {
	return Vec4{float32(v.a * w.a), float32(v.b * w.b), float32(v.c * w.c), float32(v.d * w.d)}
}

// Store writes v's lanes to p.
func (v Vec4) Store(p *[4]float32) { p[0], p[1], p[2], p[3] = v.a, v.b, v.c, v.d }

// The lane moves of joint_avx2.go.

func yzx(v Vec4) Vec4   { return Vec4{v.b, v.c, v.a, v.d} }
func zxy(v Vec4) Vec4   { return Vec4{v.c, v.a, v.b, v.d} }
func xyzw(q Vec4) Vec4  { return Vec4{q.b, q.c, q.d, q.a} }
func wwww(q Vec4) Vec4  { return Vec4{q.a, q.a, q.a, q.a} }
func xxxx(q Vec4) Vec4  { return Vec4{q.b, q.b, q.b, q.b} }
func yyyy(q Vec4) Vec4  { return Vec4{q.c, q.c, q.c, q.c} }
func zzzz(q Vec4) Vec4  { return Vec4{q.d, q.d, q.d, q.d} }
func q1032(q Vec4) Vec4 { return Vec4{q.b, q.a, q.d, q.c} }
func q2301(q Vec4) Vec4 { return Vec4{q.c, q.d, q.a, q.b} }
func q3210(q Vec4) Vec4 { return Vec4{q.d, q.c, q.b, q.a} }

func loadVec4(p *[4]float32) Vec4 { return Vec4{p[0], p[1], p[2], p[3]} }
