package mathx

// Xorshift32 is the seeded random number generator of docs/bench-spec.md:
// x ^= x<<13; x ^= x>>17; x ^= x<<5. One generator for the library and
// the app, so a seed draws the same sequence everywhere. The state X may
// be set directly to seed it another way; a zero state stays zero.
type Xorshift32 struct{ X uint32 }

// NewXorshift32 seeds the generator as bench-spec does: seed*2654435761 + 12345.
func NewXorshift32(seed uint32) Xorshift32 { return Xorshift32{X: seed*2654435761 + 12345} }

// Next advances the state and returns it.
func (r *Xorshift32) Next() uint32 {
	x := r.X
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	r.X = x
	return x
}

// Float returns u = (x>>8) / 2^24 in [0, 1) from the next state.
func (r *Xorshift32) Float() float32 { return float32(r.Next()>>8) / (1 << 24) }

// Range returns a uniform value in [-s, s).
func (r *Xorshift32) Range(s float32) float32 { return s * (2*r.Float() - 1) }
