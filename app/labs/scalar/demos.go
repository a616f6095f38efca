package scalar

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// The lab's four demos on the ground, each a small type that owns its
// state and advances it; the Lab holds them, ticks them in Update and
// marks their plots.

// growth grows two objects from scalarFrom to scalarTo in a set time, by
// a naive (additive) and a natural (log/exp) scalar velocity, then rests
// at scalarTo and starts again.
type growth struct {
	t              float32 // s into the current growth
	Naive, Natural float32 // the two scales
}

// restart puts both objects back at scalarFrom.
func (g *growth) restart() { g.t, g.Naive, g.Natural = 0, scalarFrom, scalarFrom }

// naiveVel is the naive scalar velocity (scale units/s) of a growth of
// T seconds: constant, so the object gains the same size every second.
func naiveVel(T float32) float32 {
	return spring.ScaleDifferentiateVelocityNaive(scalarTo, scalarFrom, T)
}

// naturalVel is the natural scalar velocity (1/s) of a growth of T
// seconds: constant, so the object gains the same ratio every second.
func naturalVel(T float32) float32 {
	return spring.ScaleDifferentiateVelocityNatural(scalarTo, scalarFrom, T)
}

// update integrates both growths of T seconds over dt, stepping exactly
// onto the end of the growth and of the rest so both land on 10 at the
// same time. It returns how many times the growth started again.
func (g *growth) update(dt, T float32) (restarts int) {
	for i := 0; dt > 0 && i < 8; i++ {
		if g.t >= T {
			step := min(dt, T+scalarRest-g.t)
			g.t += step
			dt -= step
			if g.t >= T+scalarRest {
				g.restart()
				restarts++
			}
			continue
		}
		step := min(dt, T-g.t)
		g.Naive = spring.ScaleIntegrateVelocityNaive(naiveVel(T), g.Naive, step)
		g.Natural = spring.ScaleIntegrateVelocityNatural(naturalVel(T), g.Natural, step)
		g.t += step
		dt -= step
	}
	return restarts
}

// interp interpolates scalarFrom -> scalarTo at alpha, by lerp and by
// eerp, with alpha animated 0 -> 1 -> 0 when the settings say so.
type interp struct {
	t          float32 // s into the alpha cycle
	Alpha      float32
	Lerp, Eerp float32
}

// update moves alpha (when animated: the settings' Alpha follows it) and
// interpolates.
func (e *interp) update(dt float32, s *Settings) {
	if s.AnimAlpha {
		e.t = float32(math.Mod(float64(e.t+dt), float64(scalarAlphaPeriod)))
		s.Alpha = 0.5 - 0.5*float32(math.Cos(2*math.Pi*float64(e.t/scalarAlphaPeriod)))
	}
	e.Alpha = mathx.Clamp(s.Alpha, 0, 1)
	e.Lerp = mathx.Lerp(scalarFrom, scalarTo, e.Alpha)
	e.Eerp = spring.EerpPow(scalarFrom, scalarTo, e.Alpha)
}

// base2 is an object moved by a base-2 scalar velocity (doublings/s),
// wrapped by a factor of 100 to stay within [0.1, 10], timing each
// doubling (or halving) between crossings of a power of 2.
type base2 struct {
	Scale     float32
	octave    int     // floor(log2(Scale)) after the last update
	crossed   bool    // Scale crossed a power of 2 since the last wrap
	lastCross float64 // s, when it did
	DoubledIn float32 // s between the last two crossings (0: none yet)
}

// restart puts the object back at scale 1, with no doubling timed.
func (b *base2) restart() { b.Scale, b.octave, b.crossed, b.DoubledIn = 1, 0, false, 0 }

// update integrates velocity vel (doublings/s) over dt; now (s) is the
// lab's time after it. It reports whether the scale wrapped.
func (b *base2) update(vel, dt float32, now float64) (wrapped bool) {
	b.Scale = spring.ScaleIntegrateVelocity(vel, b.Scale, dt)
	for i := 0; i < 64 && b.Scale > scalarTo; i++ {
		b.Scale, wrapped = b.Scale/100, true
	}
	for i := 0; i < 64 && b.Scale < scalarFrom; i++ {
		b.Scale, wrapped = b.Scale*100, true
	}
	oct := int(math.Floor(math.Log2(float64(b.Scale))))
	switch {
	case wrapped:
		b.crossed = false
	case oct != b.octave:
		if b.crossed {
			b.DoubledIn = float32(now - b.lastCross)
		}
		b.crossed, b.lastCross = true, now
	}
	b.octave = oct
	return wrapped
}

// springs are the scale spring (base-2 scalar velocity, per axis) and the
// quaternion spring (angular velocity, rad/s, world frame) with their
// goals, and the tour of goals they step through.
type springs struct {
	SclX, SclV, SclGoal mgl32.Vec3
	QuatX, QuatGoal     mgl32.Quat
	QuatV               mgl32.Vec3
	goalT               float32 // s since the last goal change
	goalStep            int
}

// reset puts both springs at rest at the identity, their goals with them.
func (s *springs) reset() {
	s.SclX, s.SclV, s.SclGoal = mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}
	s.QuatX, s.QuatV, s.QuatGoal = mathx.QuatIdentity(), mgl32.Vec3{}, mathx.QuatIdentity()
	s.goalT, s.goalStep = 0, 0
}

// update moves both springs toward their goals over dt with half-life
// halflife (s).
func (s *springs) update(halflife, dt float32) {
	s.SclX, s.SclV = spring.ScaleSpringDamperExact(s.SclX, s.SclV, s.SclGoal, halflife, dt)
	s.QuatX, s.QuatV = spring.QuatSpringDamperExact(s.QuatX, s.QuatV, s.QuatGoal, halflife, dt)
	s.QuatX = mathx.QuatNormalize(s.QuatX)
}

// goalTour is the scale goals the springs step through first (grow x4,
// shrink /4, stretch, back to 1); tourGoal reports the next, if the tour
// is not done.
var goalTour = []mgl32.Vec3{{4, 4, 4}, {0.25, 0.25, 0.25}, {2, 0.5, 1}, {1, 1, 1}}

func (s *springs) tourGoal() (mgl32.Vec3, bool) {
	if s.goalStep < len(goalTour) {
		return goalTour[s.goalStep], true
	}
	return mgl32.Vec3{}, false
}

// scaleGoalBy multiplies the scale goal by k (clamped to [1/8, 8] per
// axis).
func (s *springs) scaleGoalBy(k float32) {
	for i := range 3 {
		s.SclGoal[i] = mathx.Clamp(s.SclGoal[i]*k, 1.0/8, 8)
	}
}

// randomScaleGoal picks a scale goal with log2 in [-2, 2] per axis, or
// the same on every axis when uniform.
func (s *springs) randomScaleGoal(rng *mathx.Xorshift32, uniform bool) {
	for i := range 3 {
		s.SclGoal[i] = float32(math.Exp2(float64(4*rng.Float() - 2)))
	}
	if uniform {
		s.SclGoal = mgl32.Vec3{s.SclGoal[0], s.SclGoal[0], s.SclGoal[0]}
	}
}

// turnGoal turns the quaternion goal by angle (rad) about y.
func (s *springs) turnGoal(angle float32) {
	s.QuatGoal = mathx.QuatNormalize(mathx.QuatMul(mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, angle, 0}), s.QuatGoal))
}

// randomTurnGoal turns the quaternion goal by a random rotation 0.5 to 3
// rad.
func (s *springs) randomTurnGoal(rng *mathx.Xorshift32) {
	axis := mathx.Vec3Normalize(mgl32.Vec3{rng.Float()*2 - 1, rng.Float()*2 - 1 + 0.5, rng.Float()*2 - 1})
	turn := mathx.QuatFromScaledAngleAxis(axis.Mul(0.5 + 2.5*rng.Float()))
	s.QuatGoal = mathx.QuatNormalize(mathx.QuatMul(turn, s.QuatGoal))
}

// quatAngle is the quaternion spring's angle to its goal (rad).
func (s *springs) quatAngle() float32 {
	return mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(s.QuatX, s.QuatGoal))).Len()
}
