package assets

import (
	"math"

	"kinelab/animsys"
	"kinelab/animsys/mathx/mathx64"
)

// The motion-matching database: long "dance card" clips of the default
// humanoid, each a scripted sequence of commands (a desired velocity in the
// character's frame, a facing change) played through a smooth root
// controller, with a footstep planner that plants the feet in the world and
// two-bone IK that puts the legs on them. Everything is computed in float64
// and rounded once into the clip.

// Locomotion returns the motion-matching database's embedded clips: idle,
// walks, runs, curves, turns on the spot (to a new facing, and steady
// spins at 0.8-2.5 rad/s, as the lab's Q and E turn), starts and stops,
// strafes, back steps and sharp direction changes of the Humanoid at 60
// fps, 43,275 frames (12 minutes) in all. Root motion is on the Entity joint: its
// ground-level position and its yaw, the character's facing (forward is
// Entity's +z). The clips do not loop.
func Locomotion() []animsys.Clip {
	clips, _ := buildLocomotion()
	return clips
}

// Foot contact kinds, per frame, of the planner (used by the tests): which
// point of the foot is fixed in the world.
const (
	contactAir  = iota // swing
	contactHeel        // rolling on the heel after heel strike
	contactFlat        // flat: the whole foot (the ankle) is fixed
	contactToe         // rolling on the toe joint before toe-off
)

// locoInfo is what the planner knows about a clip's frames: per frame the
// contact kind of the left and right foot.
type locoInfo struct {
	contact [][2]uint8
}

const (
	locoFPS = 60
	locoDt  = 1.0 / locoFPS

	thighLen = 0.42 // m, hip to knee (BenchSkeleton)
	shinLen  = 0.41 // m, knee to ankle
	ankleH   = 0.05 // m, ankle above the sole
	toeFwd   = 0.13 // m, toe joint ahead of the ankle
	heelBack = 0.05 // m, heel contact behind the ankle
	hipHalf  = 0.10 // m, hip joint beside the hips
	footHalf = 0.09 // m, foot centre beside the root line
	// reach is the longest hip-to-ankle distance the hips allow (m): 99.5%
	// of the straight leg keeps the knee bent by 10 degrees or more, where
	// the knee angle is well conditioned.
	reach = 0.995 * (thighLen + shinLen)
)

// locoCmd is one command of a dance card: for dur seconds, move at fwd
// and side m/s (the desired facing's +z and +x, +x being left), after
// turning the desired facing by turn rad (+ is left, about +y) at its start
// and then at rate rad/s.
type locoCmd struct {
	dur, fwd, side, turn, rate float64
}

func hold(d float64) locoCmd             { return locoCmd{dur: d} }
func move(d, fwd, side float64) locoCmd  { return locoCmd{dur: d, fwd: fwd, side: side} }
func curve(d, fwd, rate float64) locoCmd { return locoCmd{dur: d, fwd: fwd, rate: rate} }
func spin(d, turn float64) locoCmd       { return locoCmd{dur: d, turn: turn} }
func cut(d, fwd, side, turn float64) locoCmd {
	return locoCmd{dur: d, fwd: fwd, side: side, turn: turn}
}
func deg(a float64) float64 { return a * math.Pi / 180 }

func sumDur(cmds []locoCmd) (d float64) {
	for _, c := range cmds {
		d += c.dur
	}
	return d
}

// locoScripts are the dance cards. Every card starts and ends standing.
func locoScripts() []struct {
	name string
	cmds []locoCmd
} {
	type card = struct {
		name string
		cmds []locoCmd
	}
	return []card{
		{"loco idle", []locoCmd{
			hold(12), spin(3, deg(25)), hold(6), spin(3, deg(-40)), hold(5),
			move(1.2, 0.35, 0), hold(5), move(1.2, 0, 0.3), hold(4), move(1.2, -0.3, 0), hold(6),
			spin(3, deg(15)), hold(8),
		}},
		{"loco walk", []locoCmd{
			hold(2), move(6, 0.7, 0), move(6, 1.0, 0), move(7, 1.35, 0), move(6, 1.7, 0), move(6, 2.0, 0),
			move(5, 1.35, 0), move(5, 0.8, 0), move(5, 1.8, 0), move(4, 1.1, 0), move(4, 2.0, 0),
			move(4, 0.7, 0), curve(5, 1.2, 0.2), curve(5, 1.2, -0.2), move(5, 1.5, 0), move(3, 0.9, 0), hold(3),
		}},
		{"loco run", []locoCmd{
			hold(2), move(3, 1.4, 0), move(5, 2.6, 0), move(5, 3.2, 0), move(5, 3.8, 0), move(5, 4.5, 0),
			move(4, 3.0, 0), move(4, 4.2, 0), move(4, 2.5, 0), move(4, 3.6, 0), curve(4, 3.5, 0.15),
			curve(4, 3.5, -0.15), move(4, 4.5, 0), move(4, 2.8, 0), move(3, 1.3, 0), hold(3),
		}},
		{"loco curves", []locoCmd{
			hold(2), move(2, 1.2, 0), curve(8, 1.2, 0.8), curve(8, 1.2, -0.8), curve(7, 1.3, 0.43),
			curve(7, 1.3, -0.43), curve(7, 1.5, 0.25), curve(7, 1.5, -0.25), move(2, 1.0, 0),
			curve(6, 0.8, 0.55), curve(6, 0.8, -0.55), move(2, 2.8, 0), curve(6, 3.2, 1.0), curve(6, 3.2, -1.0),
			curve(6, 3.6, 0.6), curve(6, 3.6, -0.6), curve(5, 4.2, 0.35), curve(5, 4.2, -0.35),
			move(3, 2.0, 0), curve(5, 1.8, 0.7), curve(5, 1.8, -0.7), move(2, 0.8, 0), hold(3),
		}},
		{"loco turns", []locoCmd{
			hold(2), spin(3, deg(90)), hold(1.5), spin(3, deg(-90)), hold(1.5), spin(3, deg(180)), hold(1.5),
			spin(3.5, deg(-180)), hold(1.5), spin(3, deg(-90)), hold(1), spin(3, deg(90)), hold(1),
			spin(3, deg(135)), hold(1), spin(3, deg(-135)), hold(1), spin(3.5, deg(180)), spin(3.5, deg(180)),
			hold(1), spin(3, deg(45)), spin(3, deg(-45)), spin(3, deg(-180)), hold(1), spin(3, deg(90)),
			spin(3, deg(90)), hold(1), spin(3.5, deg(-180)), hold(1.5),
			curve(4, 0, 1.5), hold(1), curve(4, 0, -1.5), hold(1), curve(3, 0, 2.5), hold(1),
			curve(3, 0, -2.5), hold(1), curve(5, 0, 0.8), curve(5, 0, -0.8), hold(2),
		}},
		{"loco starts-stops", []locoCmd{
			hold(2), move(4, 1.3, 0), hold(3), move(3, 0.8, 0), hold(3), move(5, 1.9, 0), hold(3),
			move(5, 3.5, 0), hold(3), move(5, 4.5, 0), hold(3), move(4, 1.3, 0), move(4, 3.5, 0), move(4, 1.3, 0),
			move(4, 4.0, 0), move(4, 1.0, 0), hold(2.5), cut(4, 1.3, 0, deg(90)), hold(2.5),
			cut(4, 1.3, 0, deg(-90)), hold(2.5), cut(4, 3.2, 0, deg(180)), hold(3), move(2, 2.8, 0),
			move(3, 1.5, 0), hold(2), move(3, 2.4, 0), hold(3),
		}},
		{"loco strafe", []locoCmd{
			hold(2), move(4, 0, 0.5), hold(1.5), move(4, 0, -0.5), hold(1.5), move(4, 0, 0.8), move(4, 0, -0.8),
			move(4, 0, 1.2), move(4, 0, -1.2), hold(1.5), move(4, 0.6, 0.6), move(4, -0.6, -0.6),
			move(4, 0.6, -0.6), move(4, -0.6, 0.6), hold(1.5), move(4, 0.9, 0.5), move(4, 0.9, -0.5),
			move(4, 1.0, 0.8), move(4, 1.0, -0.8), move(3, 0, 1.0), move(3, 0, -1.0), move(3, 1.2, 0),
			move(3, 0, 1.0), hold(3),
		}},
		{"loco back", []locoCmd{
			hold(2), move(5, -0.5, 0), hold(1.5), move(5, -0.8, 0), move(5, -1.2, 0), hold(1.5),
			move(4, -0.8, 0.5), move(4, -0.8, -0.5), move(4, -0.6, 0.8), move(4, -0.6, -0.8), hold(1.5),
			move(3, 1.2, 0), move(4, -1.0, 0), move(3, 1.0, 0), move(4, -0.7, 0), curve(5, -0.8, 0.35),
			curve(5, -0.8, -0.35), hold(3),
		}},
		{"loco sharp", []locoCmd{
			hold(2), move(3, 1.3, 0), cut(3, 1.3, 0, deg(90)), cut(3, 1.3, 0, deg(-90)), cut(3, 1.3, 0, deg(135)),
			cut(3, 1.3, 0, deg(-135)), cut(3, 1.3, 0, deg(180)), move(2, 1.3, 0), move(3, 1.3, 0.8), move(3, 1.3, -0.8),
			move(2, 3.2, 0), cut(3, 3.2, 0, deg(90)), cut(3, 3.2, 0, deg(-90)), cut(4, 3.0, 0, deg(180)),
			cut(3, 3.5, 0, deg(-120)), move(2, 1.5, 0), cut(3, 1.5, 0, deg(-180)), move(2, 0.9, 0),
			cut(3, 0, 1.0, 0), cut(3, 1.2, 0, 0), cut(3, 0, -1.0, 0), cut(3, -0.9, 0, 0), cut(3, 1.4, 0, deg(45)),
			hold(3),
		}},
	}
}

// --- float64 helpers (on mathx64's vectors) -------------------------------

// qBasis is the rotation taking the orthonormal right-handed frame (a0, a1,
// a0 x a1) onto (b0, b1, b0 x b1).
func qBasis(a0, a1, b0, b1 mathx64.Vec3) mathx64.Quat {
	a2, b2 := a0.Cross(a1), b0.Cross(b1)
	// m = B A^T, column k of A (B) being a_k (b_k).
	var m [3][3]float64
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			m[r][c] = b0[r]*a0[c] + b1[r]*a1[c] + b2[r]*a2[c]
		}
	}
	return mathx64.QuatFromMatrix(m).Normalize()
}

func clamp64(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
func smooth64(x float64) float64 {
	x = clamp64(x, 0, 1)
	return x * x * (3 - 2*x)
}
func mix(a, b, t float64) float64 { return a + (b-a)*t }

// wrapPi wraps an angle (rad) into [-pi, pi).
func wrapPi(a float64) float64 { return a - 2*math.Pi*math.Floor((a+math.Pi)/(2*math.Pi)) }

// hermite is the cubic Hermite curve from p0 to p1 with end tangents m0, m1
// (per unit s) at s in [0, 1].
func hermite(p0, m0, p1, m1, s float64) float64 {
	s2, s3 := s*s, s*s*s
	return (2*s3-3*s2+1)*p0 + (s3-2*s2+s)*m0 + (-2*s3+3*s2)*p1 + (s3-s2)*m1
}

func hermite3(p0, m0, p1, m1 mathx64.Vec3, s float64) mathx64.Vec3 {
	return mathx64.Vec3{hermite(p0[0], m0[0], p1[0], m1[0], s), hermite(p0[1], m0[1], p1[1], m1[1], s),
		hermite(p0[2], m0[2], p1[2], m1[2], s)}
}

// minJerk eases from 0 to 1 with zero velocity and acceleration at both ends.
func minJerk(s float64) float64 { return s * s * s * (10 + s*(-15+6*s)) }

// --- root controller ---------------------------------------------------------

// rootTraj is a clip's root motion per frame: ground position (m), world
// velocity (m/s) and acceleration (m/s^2), yaw (rad, unwrapped) and yaw
// rate (rad/s).
type rootTraj struct {
	pos, vel, acc []mathx64.Vec3
	yaw, yawRate  []float64
}

// spring advances a critically damped spring (x, v) towards goal by dt,
// exactly for a goal held over the step; omega (1/s) is half its damping.
func spring(x, v *float64, goal, omega, dt float64) {
	j0 := *x - goal
	j1 := *v + j0*omega
	e := math.Exp(-omega * dt)
	*x = e*(j0+j1*dt) + goal
	*v = e * (*v - j1*omega*dt)
}

// Controller half-lives (s) of each of the two springs in series that
// smooth the commanded velocity and facing: the root's velocity is then C1
// in time (its acceleration continuous) and so is its yaw rate.
const (
	velHalfLife = 0.2
	yawHalfLife = 0.17
)

func halfLifeOmega(h float64) float64 { return 2 * math.Ln2 / h }

// simulateRoot plays cmds through the controller into n frames. The desired
// world velocity is the command's, turned by the desired facing, so a
// facing change turns the path as sharply as the springs allow.
func simulateRoot(cmds []locoCmd, n int) rootTraj {
	rt := rootTraj{pos: make([]mathx64.Vec3, n), vel: make([]mathx64.Vec3, n), acc: make([]mathx64.Vec3, n),
		yaw: make([]float64, n), yawRate: make([]float64, n)}
	wv, wy := halfLifeOmega(velHalfLife), halfLifeOmega(yawHalfLife)
	var vx, vz, vxA, vzA [2]float64 // [value, rate] of the outer and inner springs
	var yw, ywA [2]float64
	var pos mathx64.Vec3
	goalYaw := 0.0
	ci, cEnd := -1, 0.0
	for f := 0; f < n; f++ {
		t := float64(f) * locoDt
		rt.pos[f], rt.vel[f], rt.acc[f] = pos, mathx64.Vec3{vx[0], 0, vz[0]}, mathx64.Vec3{vx[1], 0, vz[1]}
		rt.yaw[f], rt.yawRate[f] = yw[0], yw[1]
		for ci+1 < len(cmds) && t >= cEnd-1e-9 {
			ci++
			cEnd += cmds[ci].dur
			goalYaw += cmds[ci].turn
		}
		c := cmds[min(ci, len(cmds)-1)]
		if t >= cEnd-1e-9 { // past the script: stand
			c = locoCmd{}
		}
		goalYaw += c.rate * locoDt
		g := mathx64.Vec3{c.side, 0, c.fwd}.RotateY(goalYaw)
		v0 := mathx64.Vec3{vx[0], 0, vz[0]}
		spring(&vxA[0], &vxA[1], g[0], wv, locoDt)
		spring(&vzA[0], &vzA[1], g[2], wv, locoDt)
		spring(&vx[0], &vx[1], vxA[0], wv, locoDt)
		spring(&vz[0], &vz[1], vzA[0], wv, locoDt)
		spring(&ywA[0], &ywA[1], goalYaw, wy, locoDt)
		spring(&yw[0], &yw[1], ywA[0], wy, locoDt)
		pos = pos.Add(v0.Add(mathx64.Vec3{vx[0], 0, vz[0]}).Scale(locoDt / 2))
	}
	return rt
}

// at interpolates the trajectory at time t (s), clamped to the clip.
func (rt *rootTraj) at(t float64) (pos, vel mathx64.Vec3, yaw, yawRate float64) {
	n := len(rt.pos)
	u := clamp64(t/locoDt, 0, float64(n-1))
	i := min(int(u), n-2)
	a := u - float64(i)
	return rt.pos[i].Lerp(rt.pos[i+1], a), rt.vel[i].Lerp(rt.vel[i+1], a),
		mix(rt.yaw[i], rt.yaw[i+1], a), mix(rt.yawRate[i], rt.yawRate[i+1], a)
}

func fwdAxis(yaw float64) mathx64.Vec3  { return mathx64.Vec3{math.Sin(yaw), 0, math.Cos(yaw)} }
func leftAxis(yaw float64) mathx64.Vec3 { return mathx64.Vec3{math.Cos(yaw), 0, -math.Sin(yaw)} }

// --- footstep planner -----------------------------------------------------------

// footState is one foot: planted (its stance) or in swing towards the
// stance it lands in, which the stance fields already describe.
type footState struct {
	side float64 // +1 left, -1 right

	// Stance: the ground point under the ankle, the foot's yaw, the landing
	// time and planned stance length (s), the heel-strike roll (toe-up
	// pitch, rad, over heelDur s), and the lift-off (liftT, +Inf while not
	// planned) after a roll onto the toe from rollT up to pitch toe (rad).
	p                    mathx64.Vec3
	yaw                  float64
	landT, stanceT       float64
	heel, heelDur        float64
	liftT, rollT, toe    float64
	swinging             bool
	t0, t1               float64      // swing start and landing (s)
	a0, v0, a1, v1       mathx64.Vec3 // ankle at lift-off and landing (m, m/s)
	th0, dth0, th1, dth1 float64      // foot pitch (rad, rad/s) at both ends
	tb0, dtb0            float64      // toe bend (rad, rad/s) at lift-off
	yaw0                 float64      // foot yaw at lift-off
	lift, peak           float64      // arc height (m) and its time fraction
}

// footPose is a foot in the world at one time: ankle position, yaw and
// pitch (positive lifts the heel), toe joint bend and contact kind.
type footPose struct {
	ankle           mathx64.Vec3
	yaw, pitch, toe float64
	contact         uint8
}

// pivoted is the ankle of a foot of yaw whose point off (in the foot's
// frame, from the ankle) rests at pivot, the foot pitched by pitch.
func pivoted(pivot mathx64.Vec3, yaw, pitch float64, off mathx64.Vec3) mathx64.Vec3 {
	return pivot.Sub(off.RotateX(pitch).RotateY(yaw))
}

func (fs *footState) stance(t float64) footPose {
	fp := footPose{yaw: fs.yaw, contact: contactFlat, ankle: fs.p.Add(mathx64.Vec3{0, ankleH, 0})}
	switch {
	case fs.heel > 0 && t < fs.landT+fs.heelDur:
		// Heel strike: the foot rolls down about its heel, toe up.
		u := clamp64((t-fs.landT)/fs.heelDur, 0, 1)
		fp.pitch = -fs.heel * (1 - u) * (1 - u)
		off := mathx64.Vec3{0, -ankleH, -heelBack}
		fp.ankle = pivoted(fs.p.Add(mathx64.Vec3{0, 0, -heelBack}.RotateY(fs.yaw)), fs.yaw, fp.pitch, off)
		fp.contact = contactHeel
	case fs.toe > 0 && t > fs.rollT:
		// Push-off: the heel rises, the foot rolling about its toe joint,
		// which bends to keep the toes on the ground.
		u := clamp64((t-fs.rollT)/(fs.liftT-fs.rollT), 0, 1)
		fp.pitch = fs.toe * u * u
		fp.toe = -fp.pitch
		off := mathx64.Vec3{0, -ankleH, toeFwd}
		fp.ankle = pivoted(fs.p.Add(mathx64.Vec3{0, 0, toeFwd}.RotateY(fs.yaw)), fs.yaw, fp.pitch, off)
		fp.contact = contactToe
	}
	return fp
}

func (fs *footState) swing(t float64) footPose {
	T := fs.t1 - fs.t0
	s := clamp64((t-fs.t0)/T, 0, 1)
	a := hermite3(fs.a0, fs.v0.Scale(T), fs.a1, fs.v1.Scale(T), s)
	// The lift arc, s^2 (1-s)^b peaking at s = peak, zero and flat at both ends.
	b := 2 * (1 - fs.peak) / fs.peak
	arc := math.Pow(s, 2) * math.Pow(1-s, b) / (math.Pow(fs.peak, 2) * math.Pow(1-fs.peak, b))
	a[1] += fs.lift * arc
	fp := footPose{ankle: a, contact: contactAir}
	fp.yaw = mix(fs.yaw0, fs.yaw, minJerk(s))
	// Pitch eases between the ends, the toes raised a little mid-swing to
	// clear the ground.
	fp.pitch = hermite(fs.th0, fs.dth0*T, fs.th1, fs.dth1*T, s) - 0.15*16*s*s*(1-s)*(1-s)
	if u := s / 0.6; u < 1 { // the toe straightens over the first 60% of the swing
		fp.toe = hermite(fs.tb0, fs.dtb0*0.6*T, 0, 0, u)
	}
	return fp
}

func (fs *footState) at(t float64) footPose {
	if fs.swinging && t < fs.t1 {
		return fs.swing(t)
	}
	return fs.stance(t)
}

// gaitParams are the timings and shape of a step at a given motion.
type gaitParams struct {
	ts, tsw, tst float64 // s: step period, swing and stance lengths
	lam          float64 // stance fraction at which the hips pass over the landed ankle
	lift, peak   float64 // m, swing arc height; its time fraction
	heel, toe    float64 // rad, heel-strike and push-off pitch
	heelDur      float64 // s
	rollFrac     float64 // stance fraction rolling on the toe
	reachFwd     float64 // m, furthest a foot lands from where it stands under the root at landing
}

// gaitAt derives the step from the root's motion a little ahead of t (it
// is where the body will be during the step that matters): cadence rises
// with speed (sideways and backwards steps are shorter), the duty factor
// falls, and above about 2.3 m/s forward the gait becomes a run, with a
// flight phase (duty below one half).
func gaitAt(rt *rootTraj, t float64) gaitParams {
	// The faster of now and 0.2 s ahead: cadence rises early when starting
	// and stays up while stopping, keeping the steps short in both.
	_, vel, yaw, yawRate := rt.at(t)
	if _, v2, y2, r2 := rt.at(t + 0.2); v2.Len() > vel.Len() {
		vel, yaw, yawRate = v2, y2, r2
	}
	fwd, side := vel.Dot(fwdAxis(yaw)), vel.Dot(leftAxis(yaw))
	g := smooth64((fwd - 2.1) / 0.5) // 0 walk, 1 run
	back := math.Max(-fwd, 0)
	vlong := math.Min(math.Hypot(math.Max(fwd, 0), 1.4*back)+0.25*math.Abs(yawRate), 2.4)
	veff := math.Min(math.Hypot(vlong, 1.5*side), 2.4)
	// Sideways, the feet cannot cross, so the trailing foot only closes up
	// to the leading one: short quick steps keep the stance narrow.
	cadence := mix(math.Min(1.55+0.38*vlong+1.5*math.Abs(side), 3.6), 2.45+0.16*math.Max(fwd, 0), g) // steps/s
	duty := mix(0.62-0.035*veff, 0.34-0.015*math.Max(fwd-2.5, 0), g)
	ts := 1 / cadence
	fwdFrac := clamp64(fwd/0.8, 0, 1)
	gp := gaitParams{ts: ts, tsw: 2 * ts * (1 - duty), tst: 2 * ts * duty,
		lam:  mix(mix(0.5, 0.33, fwdFrac), 0.3, g),
		lift: mix(0.045+0.03*veff, 0.1+0.045*math.Max(fwd, 0), g), peak: mix(0.5, 0.4, g),
		heel: 0.22 * clamp64((fwd-0.3)/0.8, 0, 1) * (1 - g),
		toe:  mix(0.12+0.95*clamp64(fwd/1.8, 0, 1), 1.05, g), rollFrac: mix(0.5, 0.55, g),
		reachFwd: mix(0.42, 0.38, g)}
	gp.heelDur = math.Min(0.1, 0.2*gp.tst)
	return gp
}

// planner places the steps. It alternates feet at the gait's cadence while
// the root moves or turns, or while a foot is away from where it should
// stand, and stands still otherwise; each step lands where the root will
// be when the hips pass over the foot.
type planner struct {
	rt    *rootTraj
	feet  [2]footState
	next  int // foot of the next planned lift-off, -1 when standing
	nextT float64
}

// ideal is where foot i should stand under the root at time t. Moving
// sideways, both feet aim further the way the root goes: the trailing foot
// only closes up to the leading one (they never cross), so it lags behind
// its place; aiming both ahead shares the lag between them.
func (pl *planner) ideal(i int, t float64) (mathx64.Vec3, float64) {
	pos, vel, yaw, _ := pl.rt.at(t)
	la := leftAxis(yaw)
	off := pl.feet[i].side*footHalf + clamp64(0.12*vel.Dot(la), -0.15, 0.15)
	return pos.Add(la.Scale(off)), yaw
}

// offBy reports whether foot i, as planted, is more than dist m or ang
// rad from where it should stand at time t.
func (pl *planner) offBy(i int, t, dist, ang float64) bool {
	p, yaw := pl.ideal(i, t)
	f := &pl.feet[i]
	return p.Sub(f.p).Len() > dist || math.Abs(wrapPi(yaw+f.side*toeOut-f.yaw)) > ang
}

// moving reports whether the root moves or turns at t.
func (pl *planner) moving(t float64) bool {
	_, vel, _, yr := pl.rt.at(t)
	return vel.Len() > 0.08 || math.Abs(yr) > 0.25
}

const (
	toeOut = 0.06 // rad, each foot turned outwards
	// maxBehind (m) is how far behind its hip a planted foot may be left
	// (its flat position, before it rolls onto the toe): further, the legs
	// reach only with the hips sunk low.
	maxBehind = 0.5
)

// step lifts foot i at time s and plans its landing, then plans the other
// foot's next lift-off if one is needed.
func (pl *planner) step(i int, s float64) {
	f, o := &pl.feet[i], &pl.feet[1-i]
	gp := gaitAt(pl.rt, s)
	const h = 1e-4 // s, for the finite-difference end velocities
	start, before := f.stance(s), f.stance(s-h)

	t1 := s + gp.tsw
	tm := t1 + gp.lam*gp.tst
	p, yaw := pl.ideal(i, tm)
	// Never cross the other foot: keep 12 cm of width between them.
	lat := leftAxis(yaw)
	if gap := p.Sub(o.p).Dot(lat) * f.side; gap < 0.12 {
		p = p.Add(lat.Scale(f.side * (0.12 - gap)))
	}
	// Land within reach: no further than reachFwd from the foot's place
	// under the root at landing (a start or a stop would otherwise plant it
	// where the body will only be later, or was earlier).
	home, _ := pl.ideal(i, t1)
	if q := p.Sub(home); q.Len() > gp.reachFwd {
		p = home.Add(q.Scale(gp.reachFwd / q.Len()))
	}
	p[1] = 0
	dist := p.Sub(f.p).Len()
	yaw = f.yaw + wrapPi(yaw+f.side*toeOut-f.yaw)

	f.swinging, f.t0, f.t1 = true, s, t1
	f.a0, f.v0 = start.ankle, start.ankle.Sub(before.ankle).Scale(1/h)
	f.th0, f.dth0 = start.pitch, (start.pitch-before.pitch)/h
	f.tb0, f.dtb0 = start.toe, (start.toe-before.toe)/h
	f.yaw0 = f.yaw
	f.lift, f.peak = math.Min(gp.lift, 0.025+0.3*dist), gp.peak

	f.p, f.yaw, f.landT, f.stanceT = p, yaw, t1, gp.tst
	f.heel, f.heelDur = gp.heel*clamp64(dist/0.4, 0, 1), gp.heelDur
	f.liftT, f.rollT, f.toe = math.Inf(1), math.Inf(1), 0
	land, after := f.stance(t1), f.stance(t1+h)
	f.a1, f.v1 = land.ankle, after.ankle.Sub(land.ankle).Scale(1/h)
	f.th1, f.dth1 = land.pitch, (after.pitch-land.pitch)/h

	// The other foot lifts one step period later if the root still moves
	// or it is not where it should stand; it must have landed first.
	s2 := math.Max(s+gp.ts, o.t1+0.1)
	// ... or earlier, if the body would leave it too far behind to reach.
	earliest := math.Max(s+0.6*gp.ts, o.t1+0.1)
	for t := earliest; t < s2; t += locoDt {
		pos, _, yaw, _ := pl.rt.at(t)
		hip := pos.Add(leftAxis(yaw).Scale(o.side * hipHalf))
		if o.p.Sub(hip).Dot(fwdAxis(yaw)) < -maxBehind || o.p.Sub(hip).Len() > maxBehind+0.1 {
			s2 = t
			break
		}
	}
	gp2 := gaitAt(pl.rt, s2)
	if !(pl.moving(s2) || pl.moving(s2+0.3) || pl.offBy(1-i, s2+gp2.tsw+gp2.lam*gp2.tst, 0.04, 0.15)) {
		pl.next = -1
		return
	}
	pl.next, pl.nextT = 1-i, s2
	o.liftT = s2
	// It pushes off its toe the more the body moves forward over it: a
	// step back or sideways lifts it nearly flat.
	_, _, yaw2, _ := pl.rt.at(s2)
	o.toe = 0.08 + (gp2.toe-0.08)*clamp64(p.Sub(o.p).Dot(fwdAxis(yaw2))/0.5, 0, 1)
	o.rollT = math.Max(math.Max(s2-gp2.rollFrac*(s2-o.landT), o.landT+o.heelDur), s)
}

// standCheck, when standing at t, starts stepping if the root is about to
// move or a foot will be out of place: with the foot on the side the root
// moves or turns to, else the one further out.
func (pl *planner) standCheck(t float64) {
	const ahead = 0.4 // s
	if !(pl.moving(t+0.2) || pl.offBy(0, t+ahead, 0.05, 0.2) || pl.offBy(1, t+ahead, 0.05, 0.2)) {
		return
	}
	pos0, _, yaw0, _ := pl.rt.at(t)
	pos1, _, yaw1, _ := pl.rt.at(t + 0.5)
	score := pos1.Sub(pos0).Dot(leftAxis(yaw0)) + 0.3*(yaw1-yaw0)
	lead := 0
	if math.Abs(score) < 0.02 {
		pa, _ := pl.ideal(0, t+ahead)
		pb, _ := pl.ideal(1, t+ahead)
		if pb.Sub(pl.feet[1].p).Len() > pa.Sub(pl.feet[0].p).Len()+0.01 {
			lead = 1
		}
	} else if score < 0 {
		lead = 1
	}
	pl.step(lead, t)
}

// --- clip synthesis --------------------------------------------------------------

// locoFrame is what the first pass over a clip's frames leaves for the
// second: the feet, the root, the body's style and the hip joints' places
// with the hips at height 0.
type locoFrame struct {
	feet                                      [2]footPose
	blend                                     [2]float64
	hip0                                      [2]mathx64.Vec3
	root                                      mathx64.Vec3
	yaw, sway, twist, lean, bank, g, still, v float64
	hipsRot                                   mathx64.Quat
}

// Hips height smoothing: the height is a soft minimum (within hipsSoft m)
// of parabolas of curvature 2 hipsAcc m/s^2 hung from each frame's bound
// within hipsWindow frames, so it never exceeds a bound (the planted legs
// always reach), and comes down to one smoothly and in time instead of
// dropping as a landing foot suddenly asks for it.
const (
	hipsAcc    = 5
	hipsSoft   = 0.004
	hipsWindow = 30
)

func hipsHeights(bound []float64) []float64 {
	n := len(bound)
	y := make([]float64, n)
	for f := range y {
		lo, hi := max(0, f-hipsWindow), min(n-1, f+hipsWindow)
		m := math.Inf(1)
		for k := lo; k <= hi; k++ {
			dt := float64(k-f) * locoDt
			m = math.Min(m, bound[k]+hipsAcc*dt*dt)
		}
		sum := 0.0
		for k := lo; k <= hi; k++ {
			dt := float64(k-f) * locoDt
			if a := (bound[k] + hipsAcc*dt*dt - m) / hipsSoft; a < 30 { // else below 1e-13
				sum += math.Exp(-a)
			}
		}
		y[f] = m - hipsSoft*math.Log(sum)
	}
	return y
}

func buildLocomotion() ([]animsys.Clip, []locoInfo) {
	scripts := locoScripts()
	clips := make([]animsys.Clip, len(scripts))
	infos := make([]locoInfo, len(scripts))
	for k, sc := range scripts {
		clips[k], infos[k] = locoClip(sc.name, sc.cmds)
	}
	return clips, infos
}

func locoClip(name string, cmds []locoCmd) (animsys.Clip, locoInfo) {
	n := int(math.Round(sumDur(cmds)*locoFPS)) + 1
	rt := simulateRoot(cmds, n)
	sk := Humanoid()
	c := animsys.NewClip(name, n, NumJoints, locoDt)
	for j := 2; j < NumJoints; j++ {
		c.SetPosAll(j, sk.Offsets[j])
	}
	info := locoInfo{contact: make([][2]uint8, n)}

	pl := planner{rt: &rt, next: -1}
	for i := range pl.feet {
		f := &pl.feet[i]
		f.side = float64(1 - 2*i)
		f.p, f.yaw = pl.ideal(i, 0)
		f.yaw += f.side * toeOut
		f.landT, f.liftT, f.rollT, f.t1 = -10, math.Inf(1), math.Inf(1), -10
	}

	frames := make([]locoFrame, n)
	yRaw := make([]float64, n)
	var sway, swayV float64 // m, m/s: the hips' sideways shift (spring state)
	swayOmega := halfLifeOmega(0.12)
	var g, gV float64 // run blend (0 walk, 1 run), spring state
	gOmega := halfLifeOmega(0.15)
	prev := make([]mathx64.Quat, NumJoints)
	for f := 0; f < n; f++ {
		t := float64(f) * locoDt
		for pl.next >= 0 && pl.nextT <= t+1e-9 {
			pl.step(pl.next, pl.nextT)
		}
		if pl.next < 0 && !pl.feet[0].swinging && !pl.feet[1].swinging {
			pl.standCheck(t)
		}
		for i := range pl.feet {
			if fs := &pl.feet[i]; fs.swinging && t >= fs.t1 {
				fs.swinging = false
			}
		}
		feet := [2]footPose{pl.feet[0].at(t), pl.feet[1].at(t)}
		info.contact[f] = [2]uint8{feet[0].contact, feet[1].contact}

		root, vel, acc, yaw := rt.pos[f], rt.vel[f], rt.acc[f], rt.yaw[f]
		fa, la := fwdAxis(yaw), leftAxis(yaw)
		v, fwd := vel.Len(), vel.Dot(fa)
		// Walk-to-run blend of the body's style, smoothed: the forward
		// speed swings fast when the facing cuts across the velocity.
		spring(&g, &gV, smooth64((fwd-2.1)/0.5), gOmega, locoDt)
		still := 1 - smooth64(v/0.3)

		// Sideways weight shift: the hips move towards the feet bearing
		// weight (each foot's weight ramps in after landing and out before
		// lift-off), plus a slow idle sway when standing.
		var wsum float64
		var centre mathx64.Vec3
		for i := range pl.feet {
			fs := &pl.feet[i]
			if fs.swinging && t < fs.t1 {
				continue
			}
			w := smooth64((t - fs.landT) / 0.15)
			if !math.IsInf(fs.liftT, 1) {
				w *= smooth64((fs.liftT - t) / math.Max(0.05, 0.3*(fs.liftT-fs.landT)))
			}
			wsum += w
			centre = centre.Add(fs.p.Scale(w))
		}
		target := 0.0
		if wsum > 1e-6 {
			target = clamp64(mix(0.4, 0.1, g)*centre.Scale(1/wsum).Sub(root).Dot(la), -0.06, 0.06)
		}
		target += still * 0.022 * (math.Sin(2*math.Pi*t/6.3) + 0.5*math.Sin(2*math.Pi*t/2.7+1)) / 1.5
		spring(&sway, &swayV, target, swayOmega, locoDt)

		// Pelvis twist with the forward leg, lean into acceleration and
		// speed, bank into turns (towards the sideways acceleration).
		d := feet[0].ankle.Sub(feet[1].ankle).Dot(fa)
		twist := -math.Min(0.18, 0.04+0.035*v) * math.Tanh(d/0.35)
		lean := 0.03 + 0.035*clamp64(fwd, 0, 4.5) - 0.03*clamp64(-fwd, 0, 1.2) + clamp64(0.02*acc.Dot(fa), -0.1, 0.1)
		bank := clamp64(0.025*acc.Dot(la), -0.15, 0.15)
		hipsRot := mathx64.QuatY(twist).Mul(mathx64.QuatX(0.35 * lean)).Mul(mathx64.QuatZ(-0.5*bank + 1.5*sway))
		world := mathx64.QuatY(yaw)

		// Hips height: the gait's nominal height (a run sinks into each
		// stance), then no higher than lets both legs reach their ankles.
		hN := mix(0.925-0.015*math.Min(v, 2), 0.875-0.01*math.Max(fwd-2.5, 0), g) - 0.004*still*math.Sin(2*math.Pi*t/4)
		for i := range pl.feet {
			fs := &pl.feet[i]
			if !(fs.swinging && t < fs.t1) {
				s := clamp64((t-fs.landT)/fs.stanceT, 0, 1)
				b := math.Sin(math.Pi * s)
				hN -= g * 0.045 * b * b
			}
		}
		// The planted feet bound the hips' height (hipsHeights smooths the
		// bound in time); a swinging foot out of reach is drawn in instead
		// (blend, 0 at its lift-off and landing, when it is on the ground).
		fr := &frames[f]
		fr.feet, fr.root, fr.yaw, fr.sway = feet, root, yaw, sway
		fr.twist, fr.lean, fr.bank, fr.g, fr.still, fr.v, fr.hipsRot = twist, lean, bank, g, still, v, hipsRot
		yRaw[f] = hN
		for i := range feet {
			fr.hip0[i] = root.Add(world.Rotate(mathx64.Vec3{sway, 0, 0}.Add(hipsRot.Rotate(mathx64.Vec3{pl.feet[i].side * hipHalf, -0.05, 0}))))
			if fs := &pl.feet[i]; fs.swinging && t < fs.t1 {
				s := (t - fs.t0) / (fs.t1 - fs.t0)
				fr.blend[i] = smooth64(s/0.35) * smooth64((1-s)/0.35)
				continue
			}
			dv := feet[i].ankle.Sub(fr.hip0[i])
			dh := math.Hypot(dv[0], dv[2])
			yRaw[f] = math.Min(yRaw[f], feet[i].ankle[1]+math.Sqrt(math.Max(reach*reach-dh*dh, 0))-fr.hip0[i][1])
		}
	}

	heights := hipsHeights(yRaw)
	for f := 0; f < n; f++ {
		t := float64(f) * locoDt
		fr := &frames[f]
		feet, root, yaw, sway := fr.feet, fr.root, fr.yaw, fr.sway
		twist, lean, bank, g, still, v, hipsRot := fr.twist, fr.lean, fr.bank, fr.g, fr.still, fr.v, fr.hipsRot
		world := mathx64.QuatY(yaw)
		hip0, blend := fr.hip0, fr.blend
		y := heights[f]
		d := feet[0].ankle.Sub(feet[1].ankle).Dot(fwdAxis(yaw))

		set := func(j int, q mathx64.Quat) {
			if prev[j].Dot(q) < 0 {
				q = q.Scale(-1)
			}
			prev[j] = q
			c.Rot[c.At(f, j)] = q.F32()
		}
		c.SetPos(f, Entity, root.F32())
		set(Entity, world)
		c.SetPos(f, Hips, mathx64.Vec3{sway, y, 0}.F32())
		set(Hips, hipsRot)
		hipsWorld := world.Mul(hipsRot)

		// Legs: analytic two-bone IK, the knee hinging about the lateral
		// axis of a heading between the pelvis's and the foot's.
		for i, j := range [2][4]int{{LeftUpLeg, LeftLeg, LeftFoot, LeftToe}, {RightUpLeg, RightLeg, RightFoot, RightToe}} {
			fp := feet[i]
			hip := hip0[i].Add(mathx64.Vec3{0, y, 0})
			w := fp.ankle.Sub(hip)
			if l, r0 := w.Len(), reach-0.03; l > r0 && blend[i] > 0 {
				soft := r0 + (reach-r0)*math.Tanh((l-r0)/(reach-r0))
				w = w.Scale(mix(l, soft, blend[i]) / l)
			}
			// Never straighter than reach: near straight the knee angle
			// goes as the square root of the slack and would snap.
			dist := clamp64(w.Len(), thighLen-shinLen+1e-3, reach)
			cosIn := (thighLen*thighLen + shinLen*shinLen - dist*dist) / (2 * thighLen * shinLen)
			knee := math.Pi - math.Acos(clamp64(cosIn, -1, 1))
			sk, ck := math.Sincos(knee)
			u := mathx64.Vec3{0, -thighLen - shinLen*ck, -shinLen * sk}.Normalize()
			hy := yaw + twist
			ky := hy + 0.6*wrapPi(fp.yaw-hy)
			wn := w.Normalize()
			nrm := leftAxis(ky)
			nrm = nrm.Sub(wn.Scale(nrm.Dot(wn))).Normalize()
			thighW := qBasis(mathx64.Vec3{1, 0, 0}, u, nrm, wn)
			shinW := thighW.Mul(mathx64.QuatX(knee))
			set(j[0], hipsWorld.Conj().Mul(thighW))
			set(j[1], mathx64.QuatX(knee))
			set(j[2], shinW.Conj().Mul(mathx64.QuatY(fp.yaw).Mul(mathx64.QuatX(fp.pitch))))
			set(j[3], mathx64.QuatX(fp.toe))
		}

		// Spine counter-twists and carries most of the lean; the head stays
		// level and faces the way the root does; breathing when standing.
		breath := 0.02 * math.Sin(2*math.Pi*t/4.1) * mix(1, 0.4, 1-still)
		set(Spine, mathx64.QuatY(-0.4*twist).Mul(mathx64.QuatX(0.3*lean)).Mul(mathx64.QuatZ(-0.2*bank)))
		set(Spine1, mathx64.QuatY(-0.4*twist).Mul(mathx64.QuatX(0.2*lean-breath)))
		set(Spine2, mathx64.QuatY(-0.4*twist).Mul(mathx64.QuatX(0.15*lean+breath)).Mul(mathx64.QuatZ(-0.1*bank)))
		set(Neck, mathx64.QuatY(0.1*twist).Mul(mathx64.QuatX(-0.5*lean)).Mul(mathx64.QuatZ(0.3*bank)))
		set(Head, mathx64.QuatY(0.1*twist).Mul(mathx64.QuatX(-0.45*lean+0.5*breath)).Mul(mathx64.QuatZ(0.5*bank-0.5*sway)))

		// Arms swing against the legs, more with speed; a run bends the
		// elbows; the forward-swinging arm bends a little more.
		armAmp := math.Min(0.6, 0.05+0.13*v)
		sw := math.Tanh(d / 0.35)
		down := mix(1.32, 1.22, g)
		elbow := mix(0.22, 1.3, g)
		for i, j := range [2][3]int{{LeftShoulder, LeftArm, LeftForeArm}, {RightShoulder, RightArm, RightForeArm}} {
			side := pl.feet[i].side
			a := armAmp * sw * side // + swings the arm back
			set(j[0], mathx64.QuatZ(0.04*side*bank))
			set(j[1], mathx64.QuatX(a+0.01*math.Sin(2*math.Pi*t/4.1)).Mul(mathx64.QuatZ(-side*(down+0.3*bank*side))))
			set(j[2], mathx64.QuatY(-side*(elbow+0.2*math.Max(0, -a/0.6))))
		}
	}
	c.Prepare()
	return c, info
}
