package mathx

import "math"

// Float32 transcendental functions: polynomial approximations with range
// reduction, accurate to a few float32 ulp over the ranges poses use. The
// polynomials are interpolants at Chebyshev nodes of the reduced range
// (near-minimax), fitted in float64; each states its truncation error.
// The lane types (soa.go) evaluate them on Lanes joints at once; Sincos32
// is the one scalar form left (the bench weights' phase). Series
// coefficients are written as x*(1.0/n), not x/n: Go compiles a division
// by a constant to a division (it is not exact), which takes about four
// times as long as a multiplication.

const (
	ln2hi  = 0.693359375 // ln 2 in 9 bits, so k ln2hi is exact
	ln2lo  = -2.12194440e-4
	log2e  = 1.44269504088896341
	sqrt2  = 1.41421356237309505
	pio2hi = 1.5703125 // pi/2 in 9 bits
	pio2lo = 4.83826794897e-4
	// tan2Pi8 is tan^2(pi/8): atanPolyL's range.
	tan2Pi8 = 0.17157287525381
	// tiny keeps a division by a2 finite at a2 = 0 (ExpAt's C2).
	tiny = 0x1p-100
)

// The polynomials' coefficients, named once.
const (
	// sinPoly: sin(r)/r = sin0 - sin1 r^2 + sin2 r^4 - sin3 r^6.
	sin0, sin1, sin2, sin3 = 0.9999999969177036, 0.16666650673996886, 0.008332035785601707, 0.00019503904251287976
	// cosPoly: cos(r) = cos0 - cos1 r^2 + cos2 r^4 - cos3 r^6 + cos4 r^8.
	cos0, cos1, cos2, cos3, cos4 = 0.9999999999524894, 0.49999999614857515, 0.0416666166925251, 0.0013886617999425682, 2.437983123082832e-05
	// atanPolyL: atan(u)/u = atan0 - atan1 u^2 + atan2 u^4 - atan3 u^6 + atan4 u^8.
	atan0, atan1, atan2, atan3, atan4 = 0.9999999812646112, 0.33332785771926443, 0.19974082415541466, 0.13848490212505918, 0.07976291807322261
	// ToScaledAngleAxisDx's c: (1 - h cot h)/(4 h^2) = 1/12 + h^2/180 + h^4/1890 + h^6/18900 + h^8/187110.
	lrs0, lrs1, lrs2, lrs3, lrs4 = 1.0 / 12, 1.0 / 180, 1.0 / 1890, 1.0 / 18900, 1.0 / 187110
)

// sinPoly is sin(r)/r and cosPoly cos(r) for |r| <= pi/4, as polynomials
// in r^2 of degree 3 (error < 4e-9) and 4 (error < 5e-11); sinPolyL and
// cosPolyL (soa.go) are the same on lanes.
func sinPoly(r2 float32) float32 {
	r4 := r2 * r2
	return (sin0 - sin1*r2) + r4*(sin2-sin3*r2)
}

func cosPoly(r2 float32) float32 {
	r4 := r2 * r2
	return (cos0 - cos1*r2) + r4*((cos2-cos3*r2)+r4*cos4)
}

// Sincos32 is Sincos in float32 arithmetic, reduced by multiples of pi/2;
// beyond |x| = 4096 (where the float32 reduction loses accuracy) and for
// NaN it falls back to float64.
func Sincos32(x float32) (s, c float32) {
	if !(x >= -4096 && x <= 4096) {
		return Sincos(x)
	}
	kf := x * (2 / math.Pi)
	if kf < 0 {
		kf -= 0.5
	} else {
		kf += 0.5
	}
	k := int32(kf)
	r := x - float32(k)*pio2hi - float32(k)*pio2lo
	r2 := r * r
	sr, cr := r*sinPoly(r2), cosPoly(r2)
	switch k & 3 {
	case 0:
		return sr, cr
	case 1:
		return cr, -sr
	case 2:
		return -sr, -cr
	default:
		return -cr, sr
	}
}
