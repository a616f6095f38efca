package mathx

// The fast forms' polynomial coefficients and bounds under exported
// names, for loops that write those forms out on components rather than
// call them (animsys's blendRots: inlined code is scheduled after the
// loop's own and leaves NOPs). Each name is its unexported constant, so
// the written-out form rounds it to float32 exactly as the call does.
const (
	// Atan0..Atan4 are atanPoly's, Tan2Pi8 LogFactorShort's bound.
	Atan0, Atan1, Atan2, Atan3, Atan4 = atan0, atan1, atan2, atan3, atan4
	Tan2Pi8                           = tan2Pi8
	// Sin0..Sin3 and Cos0..Cos4 are ExpSmall's (sinPoly, cosPoly), Tiny
	// its addend.
	Sin0, Sin1, Sin2, Sin3       = sin0, sin1, sin2, sin3
	Cos0, Cos1, Cos2, Cos3, Cos4 = cos0, cos1, cos2, cos3, cos4
	Tiny                         = tiny
	// Lrs0..Lrs4 are LogRateSeries's.
	Lrs0, Lrs1, Lrs2, Lrs3, Lrs4 = lrs0, lrs1, lrs2, lrs3, lrs4
)
