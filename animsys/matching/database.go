package matching

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"strings"
)

// Source is what a database is built from: a skeleton whose joint 0 is a
// ground-level root carrying the root motion (as kinelab's characters
// have), its clips, and the joints the features read.
type Source struct {
	Skel  animsys.Skeleton
	Clips []animsys.Clip
	// Feet are the left and right foot (ankle) joints; Hips the pelvis.
	Feet [2]int
	Hips int
	// Left and Right are joints on each side (hips and shoulders): the
	// mean of left minus right is the body's lateral axis, from which
	// each frame's facing is read.
	Left, Right []int
	// Legs are the left and right legs' two-bone chains (thigh, knee,
	// ankle; Root -1 where there is none): what foot locking bends.
	Legs [2]animsys.TwoBoneJoints
	// Toes are the left and right toe joints (the feet's Tip on the
	// humanoid figure: the joint each foot points to), 0 or -1 for a
	// foot without one: the second contact definition (Database.Truth)
	// and the toes' sliding read them.
	Toes [2]int
	// Spine are the joints from the hips' child up to the chest (the
	// joint the arms hang from), each the child of the one before:
	// orientation warping turns the hips and unwinds the turn up them
	// (Warps). Empty for none.
	Spine []int
}

// TrajectoryTimes are how far ahead (s) the trajectory features look: a
// third, two thirds and one second.
var TrajectoryTimes = [3]float32{1.0 / 3, 2.0 / 3, 1}

// Feature groups: each is normalised as one (its dimensions share one
// scale) and weighted as one.
const (
	FootPos  = iota // m: both feet in the root's frame (6)
	FootVel         // m/s: their velocities (6)
	HipVel          // m/s: the hips' velocity (3)
	TrajPos         // m: the root at TrajectoryTimes, ground plane (6)
	TrajDir         // the facing at TrajectoryTimes, ground plane (6)
	Inertial        // m·s: 2·pos/y + vel/y² of both feet (6)
	NumGroups
)

// GroupNames names the groups, for panels and tables.
var GroupNames = [NumGroups]string{"foot pos", "foot vel", "hip vel", "traj pos", "traj dir", "inertial"}

var groupDims = [NumGroups]int{6, 6, 3, 6, 6, 6}

// scaleFloor is the least scale a group is normalised by: a database that
// hardly varies in a group (clips that never turn have one trajectory
// direction) would otherwise blow its tiny differences up to dominate the
// cost. Each is a difference too small to see: 1 cm, 5 cm/s, 5 cm, 0.05
// (3° of direction), and the Inertial feature's value for 1 cm at a
// 0.1 s half-life (2·0.01/13.9 m·s).
// For a figure of another size they scale with it (Database.Unit), the
// direction's aside.
var scaleFloor = [NumGroups]float32{0.01, 0.05, 0.05, 0.05, 0.05, 0.0015}

// HumanHips (m) is the median height of the hips above the ground of the
// embedded set's figure, a human of about 1.7 m: the human the settings
// and constants in metres were tuned on (Database.Unit). It is that
// figure's measure to the bit, so its Unit is exactly 1 and its runs are
// as they were before sizes were taken into account.
const HumanHips = 0.903761923

// Set is a way of costing a transition: which features the search uses.
type Set int

// The feature sets.
const (
	Standard Set = iota
	InertialSet
	Exact
	NumSets
)

// SetNames are the sets' names on the command line and in the panel.
var SetNames = [NumSets]string{"standard", "inertial", "exact"}

func (s Set) String() string {
	if s >= 0 && s < NumSets {
		return SetNames[s]
	}
	return fmt.Sprintf("Set(%d)", int(s))
}

// ParseSet reads a set's name.
func ParseSet(name string) (Set, error) {
	for i, n := range SetNames {
		if n == name {
			return Set(i), nil
		}
	}
	return 0, fmt.Errorf("feature set %q: want standard, inertial or exact", name)
}

// setGroups are the groups each search reads (Exact searches Inertial's
// features, then re-ranks).
var setGroups = [NumSets][]int{
	Standard:    {FootPos, FootVel, HipVel, TrajPos, TrajDir},
	InertialSet: {Inertial, HipVel, TrajPos, TrajDir},
	Exact:       {Inertial, HipVel, TrajPos, TrajDir},
}

// Weights are the groups' weights. The defaults are the usual motion-
// matching ones; the Inertial feature's is sqrt(0.75² + 1²) = 1.25, so the
// feet weigh as much in both sets.
type Weights [NumGroups]float32

// DefaultWeights are the weights a database starts with.
var DefaultWeights = Weights{FootPos: 0.75, FootVel: 1, HipVel: 1, TrajPos: 1, TrajDir: 1.5, Inertial: 1.25}

// Margins (s) of a clip that searches skip: at its start, where cubic
// sampling clamps, and at its end, so a transition always has room to
// play before the next search.
const (
	StartMargin = 0.05
	EndMargin   = 0.4
)

// rootSmoothing is the standard deviation (s) of the Gaussian that
// smooths each clip's root trajectory: it keeps the turn and the speed of
// a step but not the hips' sway and twist within it.
const rootSmoothing = 0.15

// Database is a motion-matching database: clips re-rooted on a smoothed
// ground-level root (joint 0, facing +z in its own frame), every frame's
// features, and a search index per feature set.
//
// The clips are the source's, shared, not copied: a sample of clip c is
// the source clip's pose with joint 0 replaced by the smoothed root (a
// one-joint clip per source clip) and the body re-expressed under it,
// velocities included (Sample).
type Database struct {
	Skel     animsys.Skeleton
	Clips    []animsys.Clip
	roots    []animsys.Clip // the smoothed root of each clip: one joint
	carriers []int          // the joints between joint 0 and the hips, root first (Sample)
	kids     []int          // the joints hanging from joint 0 or a carrier
	Feet     [2]int
	Hips     int
	Legs     [2]animsys.TwoBoneJoints
	// Toes are the feet's toe joints (Source.Toes), -1 for none.
	Toes [2]int
	// Spine is Source.Spine, each joint checked to be the child of the
	// one before (the first of the hips), or empty.
	Spine []int
	// ToeFloor is how high (m above the ground) a planted toe joint
	// stands: the median over clips and feet of a toe's floor (its 2nd
	// percentile height in the clip, as the lock's labels take it); the
	// toe lock keeps a toe it moves above it. 0 without toes.
	ToeFloor float32
	// AnkleFloor is the same for the ankles: how high a planted ankle
	// joint stands (m above the ground).
	AnkleFloor float32
	// Size (m) is the figure's size: the median height of its hips above
	// the ground over the database. Contact and lock thresholds scale with
	// it.
	Size float32
	// Unit is Size against the human the settings in metres are for
	// (Size / HumanHips): speeds, distances and floors in metres are
	// multiplied by it, so a doll or a giant playing its own captures
	// moves as a human does, in proportion. 1 for the embedded set.
	Unit float32
	// Start[c] is the database index of clip c's first frame; Frames the
	// total; Searchable marks the frames a search may return.
	Start      []int
	Frames     int
	Searchable []bool
	contacts   []uint8   // per frame: bit s set when foot s's ankle is on the ground, bit 2+s when its toe is (the lock's labels)
	truth      truth     // the second definition's labels (Truth) and the joints' floors
	rootSpeed  []float32 // per frame: the smoothed root's ground speed (m/s)
	// IdleFrom and IdleTo are the idle stretch (database frames of one
	// clip, first and last; -1 for none) the matcher starts in and
	// plays, then holds, while the character stands (Rest); stances the
	// frames it may stand in instead, where the feet are: chosen once
	// (findStances).
	IdleFrom, IdleTo int
	stances          []int
	boneLen          []float32 // per joint: its bone's length (m) where every frame agrees, else -1

	raw     [NumGroups][]float32 // per group, frames x dims, unnormalised; Inertial nil (frameRaw)
	mean    [NumGroups][]float32 // per dimension
	scale   [NumGroups]float32   // per group: the mean standard deviation
	weights Weights
	// Halflife (s) of the inertializer the Inertial feature and the exact
	// cost assume.
	Halflife float32

	sets [NumSets]setIndex
}

// setIndex is one feature set's search structure, which holds its
// normalised, weighted matrix (Index.Row); offsets are each group's first
// column in it.
type setIndex struct {
	dims    int
	index   *Index
	offsets [NumGroups]int
}

// NewDatabase builds the database of src's clips with the given weights
// and the inertializer half-life (s) the Inertial feature assumes.
func NewDatabase(src Source, w Weights, halflife float32) (*Database, error) {
	if len(src.Clips) == 0 {
		return nil, errors.New("matching: no clips")
	}
	n := src.Skel.Len()
	for _, j := range append([]int{src.Feet[0], src.Feet[1], src.Hips}, append(src.Left, src.Right...)...) {
		if j <= 0 || j >= n {
			return nil, fmt.Errorf("matching: joint %d is not a body joint of a %d-joint skeleton", j, n)
		}
	}
	if len(src.Left) == 0 || len(src.Left) != len(src.Right) {
		return nil, errors.New("matching: no left/right joints to read the facing from")
	}
	db := &Database{Skel: src.Skel, Feet: src.Feet, Hips: src.Hips, Legs: src.Legs, Toes: [2]int{-1, -1}, weights: w}
	if chain(src.Skel.Parents, src.Hips, src.Spine) {
		db.Spine = src.Spine
	}
	if src.Toes[0] > 0 && src.Toes[1] > 0 {
		for s, j := range src.Toes {
			if j >= n || !descends(src.Skel.Parents, j, src.Feet[s]) {
				return nil, fmt.Errorf("matching: toe joint %d is not below foot joint %d", j, src.Feet[s])
			}
		}
		db.Toes = src.Toes
	}
	for c := range src.Clips {
		if src.Clips[c].Joints != n || src.Clips[c].Frames < 2 {
			return nil, fmt.Errorf("matching: clip %q does not fit the skeleton", src.Clips[c].Name)
		}
		db.Start = append(db.Start, db.Frames)
		db.Frames += src.Clips[c].Frames
	}
	for g := range db.raw {
		if g != Inertial { // computed from the feet's, not stored (frameRaw)
			db.raw[g] = make([]float32, db.Frames*groupDims[g])
		}
	}
	db.Searchable = make([]bool, db.Frames)
	db.contacts = make([]uint8, db.Frames)
	db.truth.bits = make([]uint8, db.Frames)
	db.rootSpeed = make([]float32, db.Frames)
	db.Clips = src.Clips
	db.carriers = carriersOf(src.Skel.Parents, src.Hips)
	for j, p := range src.Skel.Parents {
		if (p == 0 || slices.Contains(db.carriers, p)) && !slices.Contains(db.carriers, j) {
			db.kids = append(db.kids, j)
		}
	}
	var hips, ankleFloors, toeFloors []float32
	for c := range src.Clips {
		db.roots = append(db.roots, smoothRoot(&src, &src.Clips[c]))
		hips, ankleFloors, toeFloors = db.features(c, hips, ankleFloors, toeFloors)
	}
	db.AnkleFloor = mathx.Median(ankleFloors)
	if len(toeFloors) > 0 {
		db.ToeFloor = mathx.Median(toeFloors)
	}
	db.Size = mathx.Median(hips)
	db.Unit = db.Size / HumanHips
	if !(db.Unit > 0) || math.IsInf(float64(db.Unit), 0) {
		db.Unit = 1 // hips at or below the ground: no size to go by
	}
	db.sourceTruth()
	db.boneLengths()
	db.findStances()
	if !slices.Contains(db.Searchable, true) {
		return nil, fmt.Errorf("matching: no frame to search: every clip is %.2f s or shorter (the first %.2f s and the last %.2f s of each are skipped): %s",
			StartMargin+EndMargin, float32(StartMargin), float32(EndMargin), db.ShortClips())
	}
	db.SetHalflife(halflife)
	return db, nil
}

// ShortClips names the clips too short to have a frame to search (at
// most StartMargin + EndMargin long), with their lengths: "walk_01 (0.30
// s), ..." (the first few, and how many more), or "" for none. Such a
// clip is only played, never searched for.
func (db *Database) ShortClips() string {
	var names []string
	short := 0
	for c := range db.Clips {
		lo, hi := db.At(c, 0), db.At(c, db.Clips[c].Frames)
		if slices.Contains(db.Searchable[lo:hi], true) {
			continue
		}
		if short++; short <= 3 {
			names = append(names, fmt.Sprintf("%s (%.2f s)", db.Clips[c].Name, db.Clips[c].Duration()))
		}
	}
	if short > 3 {
		names = append(names, fmt.Sprintf("and %d more", short-3))
	}
	return strings.Join(names, ", ")
}

// Weights are the database's group weights.
func (db *Database) Weights() Weights { return db.weights }

// SetWeights re-weights the features and rebuilds the search structures.
func (db *Database) SetWeights(w Weights) {
	db.weights = w
	db.build()
}

// SetHalflife recomputes the Inertial feature for an inertializer of the
// given half-life (s) and rebuilds the search structures.
func (db *Database) SetHalflife(h float32) {
	db.Halflife = h
	db.build()
}

// halfDamping is y = halflife_to_damping(h)/2 = 2 ln2 / h (1/s), with a
// floor on h so a zero half-life stays finite.
func halfDamping(h float32) float32 { return 2 * mathx.Ln2 / max(h, 1e-3) }

// build normalises every group (mean and mean standard deviation over the
// database) and makes each set's weighted matrix and index.
func (db *Database) build() {
	// Every dimension's sum and sum of squares, in one pass over the
	// frames (each summed in frame order).
	var sum, sum2 [NumGroups][6]float64
	var r rawFeatures
	for i := 0; i < db.Frames; i++ {
		db.frameRaw(i, &r)
		for g := range r {
			for k, v := range r[g][:groupDims[g]] {
				x := float64(v)
				sum[g][k] += x
				sum2[g][k] += x * x
			}
		}
	}
	for g := range db.raw {
		d := groupDims[g]
		mean := make([]float32, d)
		var sd float64
		for k := 0; k < d; k++ {
			s, s2 := sum[g][k], sum2[g][k]
			m := s / float64(db.Frames)
			mean[k] = float32(m)
			sd += math.Sqrt(math.Max(s2/float64(db.Frames)-m*m, 0))
		}
		db.mean[g] = mean
		floor := scaleFloor[g]
		if g != TrajDir {
			floor *= db.Unit
		}
		db.scale[g] = max(float32(sd/float64(d)), floor)
	}
	for s := range db.sets {
		si := &db.sets[s]
		si.dims = 0
		for _, g := range setGroups[s] {
			si.offsets[g] = si.dims
			si.dims += groupDims[g]
		}
		if s == int(Exact) { // the same matrix as InertialSet
			si.index = db.sets[InertialSet].index
			continue
		}
		// The index keeps a copy in its own order: this one is scratch.
		feat := make([]float32, db.Frames*si.dims)
		for i := 0; i < db.Frames; i++ {
			db.normalise(Set(s), db.frameRaw(i, &r), feat[i*si.dims:(i+1)*si.dims])
		}
		si.index = NewIndex(feat, si.dims, db.Searchable)
	}
}

// rawFeatures are one frame's unnormalised features, by group.
type rawFeatures [NumGroups][6]float32

// frameRaw gathers frame i's raw features into r: the Inertial feature
// from the feet's position and velocity at Halflife, as the matcher
// computes a query's.
func (db *Database) frameRaw(i int, r *rawFeatures) *rawFeatures {
	for g := range db.raw {
		if g == Inertial {
			continue
		}
		d := groupDims[g]
		copy(r[g][:d], db.raw[g][i*d:(i+1)*d])
	}
	y := halfDamping(db.Halflife)
	for d := 0; d < 6; d++ {
		r[Inertial][d] = 2*r[FootPos][d]/y + r[FootVel][d]/(y*y)
	}
	return r
}

// normalise writes raw features r as set s's query: each group minus its
// mean, over its scale, times its weight.
func (db *Database) normalise(s Set, r *rawFeatures, out []float32) {
	si := &db.sets[s]
	for _, g := range setGroups[s] {
		k := db.weights[g] / db.scale[g]
		o := out[si.offsets[g]:]
		for d := 0; d < groupDims[g]; d++ {
			o[d] = (r[g][d] - db.mean[g][d]) * k
		}
	}
}

// Index is set s's search structure.
func (db *Database) Index(s Set) *Index { return db.sets[s].index }

// Dims is the number of features set s searches.
func (db *Database) Dims(s Set) int { return db.sets[s].dims }

// Locate returns the clip and frame of database index i.
func (db *Database) Locate(i int) (clip, frame int) {
	c := sort.SearchInts(db.Start, i+1) - 1
	return c, i - db.Start[c]
}

// Index of frame f of clip c.
func (db *Database) At(c, f int) int { return db.Start[c] + f }

// GroupCost is group g's contribution to the cost of frame i for query q
// of set s (its squared, weighted, normalised distance).
func (db *Database) GroupCost(s Set, g int, q []float32, i int) float32 {
	si := &db.sets[s]
	if si.dims == 0 || !inSet(s, g) {
		return 0
	}
	f := si.index.Row(i)[si.offsets[g]:]
	qq := q[si.offsets[g]:]
	var c float32
	for d := 0; d < groupDims[g]; d++ {
		x := qq[d] - f[d]
		c += x * x
	}
	return c
}

func inSet(s Set, g int) bool {
	for _, h := range setGroups[s] {
		if h == g {
			return true
		}
	}
	return false
}

// FootState is frame i's feet in its root's frame: positions (m) and
// velocities (m/s), left then right.
func (db *Database) FootState(i int) (pos, vel [2]mgl32.Vec3) {
	p, v := db.raw[FootPos][i*6:], db.raw[FootVel][i*6:]
	for s := 0; s < 2; s++ {
		pos[s] = mgl32.Vec3{p[3*s], p[3*s+1], p[3*s+2]}
		vel[s] = mgl32.Vec3{v[3*s], v[3*s+1], v[3*s+2]}
	}
	return pos, vel
}

// RootMotion reads a sampled database pose's root (joint 0, the smoothed
// ground root) as the character's root motion: its velocity (m/s) and
// angular velocity (rad/s) in its own frame; then sets joint 0 to the
// origin, unturned, moving with them, so FK gives every joint in the
// character's frame with its velocity relative to the ground.
func RootMotion(p *animsys.Pose) {
	r := p.Rot[0]
	v, w := mathx.QuatInvMulVec3(r, p.Vel[0]), mathx.QuatInvMulVec3(r, p.Ang[0])
	p.SetKform(0, animsys.KformIdentity())
	p.Vel[0], p.Ang[0] = v, w
}

// features computes clip c's features, frame by frame, from its exact
// sampled velocities (cubic sampling at the frame, FK with velocities),
// and its feet's (and toes') contact labels; it appends the hips' heights
// (m above the ground) to hips and the ankles' and the toes' floors in the
// clip to ankleFloors and toeFloors.
func (db *Database) features(c int, hips, ankleFloors, toeFloors []float32) ([]float32, []float32, []float32) {
	clip, root := &db.Clips[c], &db.roots[c]
	n := db.Skel.Len()
	local, global, scratch := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(1)
	// The root's ground position and facing at every frame, for the
	// trajectory features.
	rootPos := make([]mgl32.Vec3, clip.Frames)
	rootRot := make([]mgl32.Quat, clip.Frames)
	for f := 0; f < clip.Frames; f++ {
		rootPos[f], rootRot[f] = root.PosAt(f, 0), root.Rot[root.At(f, 0)]
	}
	lo := int(math.Ceil(float64(StartMargin / clip.FrameTime)))
	hi := clip.Frames - int(math.Ceil(float64(EndMargin/clip.FrameTime)))
	var height, speed, toeHeight, toeSpeed [2][]float32
	hipsFrom := len(hips)
	for f := 0; f < clip.Frames; f++ {
		i := db.Start[c] + f
		db.Searchable[i] = f >= lo && f < hi
		db.Sample(&local, &scratch, c, float32(f)*clip.FrameTime)
		RootMotion(&local)
		db.rootSpeed[i] = mgl32.Vec2{local.Vel[0][0], local.Vel[0][2]}.Len()
		animsys.FK(&global, &local, db.Skel.Parents)
		for s, j := range db.Feet {
			copy(db.raw[FootPos][i*6+3*s:], global.Pos[j][:])
			copy(db.raw[FootVel][i*6+3*s:], global.Vel[j][:])
			height[s] = append(height[s], global.Pos[j][1])
			speed[s] = append(speed[s], global.Vel[j].Len())
			if t := db.Toes[s]; t > 0 {
				toeHeight[s] = append(toeHeight[s], global.Pos[t][1])
				toeSpeed[s] = append(toeSpeed[s], global.Vel[t].Len())
			}
		}
		hips = append(hips, global.Pos[db.Hips][1])
		copy(db.raw[HipVel][i*3:], global.Vel[db.Hips][:])
		inv := mathx.QuatInv(rootRot[f])
		for k, tau := range TrajectoryTimes {
			p, fwd := rootAt(clip, rootPos, rootRot, float32(f)*clip.FrameTime+tau)
			d := mathx.QuatMulVec3(inv, p.Sub(rootPos[f]))
			fl := mathx.QuatMulVec3(inv, fwd)
			db.raw[TrajPos][i*6+2*k], db.raw[TrajPos][i*6+2*k+1] = d[0], d[2]
			db.raw[TrajDir][i*6+2*k], db.raw[TrajDir][i*6+2*k+1] = fl[0], fl[2]
		}
	}
	size := mathx.Median(hips[hipsFrom:])
	fl := db.clipContacts(c, 0, height, speed, size)
	ankleFloors = append(ankleFloors, fl[:]...)
	if db.HasToes() {
		fl := db.clipContacts(c, 2, toeHeight, toeSpeed, size)
		toeFloors = append(toeFloors, fl[:]...)
	}
	return hips, ankleFloors, toeFloors
}

// boneLengths finds each joint's bone length (its local position's length,
// m) where every frame of every clip agrees within a millimetre (for a
// human: Database.Unit of one), for the
// bones of the body: not joint 0, not a carrier, nor a joint hanging from
// them (whose offset carries the travel). Others get -1.
func (db *Database) boneLengths() {
	n := db.Skel.Len()
	db.boneLen = make([]float32, n)
	for j, p := range db.Skel.Parents {
		db.boneLen[j] = -1
		if p <= 0 || slices.Contains(db.carriers, p) || slices.Contains(db.carriers, j) {
			continue
		}
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for c := range db.Clips {
			clip := &db.Clips[c]
			for f := 0; f < clip.Frames; f++ {
				l := clip.PosAt(f, j).Len()
				lo, hi = min(lo, l), max(hi, l)
			}
		}
		if hi-lo <= 1e-3*db.Unit {
			db.boneLen[j] = (lo + hi) / 2
		}
	}
}

// BoneLengthError is the largest difference (m) between a bone's length in
// global pose g (FK of a sample) and its length in the database, over the
// bones whose length every frame agrees on (the body's bones).
func (db *Database) BoneLengthError(g *animsys.Pose) float32 {
	var worst float32
	for j, l := range db.boneLen {
		if l < 0 {
			continue
		}
		d := g.Pos[j].Sub(g.Pos[db.Skel.Parents[j]]).Len() - l
		worst = max(worst, d, -d)
	}
	return worst
}

// rootAt is the root's position (m) and facing (unit, ground plane) at
// time t (s) into the clip: interpolated between frames, and past the end
// carried on at the last frame's velocity with its last facing.
func rootAt(clip *animsys.Clip, pos []mgl32.Vec3, rot []mgl32.Quat, t float32) (mgl32.Vec3, mgl32.Vec3) {
	last := clip.Frames - 1
	x := t / clip.FrameTime
	if x >= float32(last) {
		v := pos[last].Sub(pos[last-1]).Mul(1 / clip.FrameTime)
		return pos[last].Add(v.Mul(t - float32(last)*clip.FrameTime)), facing(rot[last])
	}
	f := int(x)
	a := x - float32(f)
	p := mathx.Vec3Lerp(pos[f], pos[f+1], a)
	d := mathx.Vec3Lerp(facing(rot[f]), facing(rot[f+1]), a)
	return p, mathx.Vec3Normalize(d)
}

// facing is the +z axis of rotation r: the way a root faces.
func facing(r mgl32.Quat) mgl32.Vec3 { return mathx.QuatMulVec3(r, mgl32.Vec3{0, 0, 1}) }

// yawQuat is the rotation about +y that turns +z to ground direction d.
func yawQuat(d mgl32.Vec3) mgl32.Quat {
	a := math.Atan2(float64(d[0]), float64(d[2]))
	return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, float32(a), 0})
}

// smoothRoot is clip c's smoothed ground root, a one-joint clip: the
// hips' ground projection and the body's facing (the lateral axis from
// src.Left and src.Right crossed with up), each smoothed by a Gaussian of
// rootSmoothing seconds, so a step's sway and twist do not turn it.
func smoothRoot(src *Source, c *animsys.Clip) animsys.Clip {
	n := src.Skel.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	pos := make([]mgl32.Vec3, c.Frames)
	fwd := make([]mgl32.Vec3, c.Frames)
	for f := 0; f < c.Frames; f++ {
		c.Frame(&local, f)
		animsys.FKStatic(&global, &local, src.Skel.Parents)
		h := global.Pos[src.Hips]
		pos[f] = mgl32.Vec3{h[0], 0, h[2]}
		d := src.lateral(&global).Cross(mgl32.Vec3{0, 1, 0})
		d[1] = 0
		if d.Len() < 1e-6 {
			d = mgl32.Vec3{0, 0, 1}
			if f > 0 {
				d = fwd[f-1]
			}
		}
		fwd[f] = d.Normalize()
	}
	pos = gaussian(pos, rootSmoothing/c.FrameTime)
	fwd = gaussian(fwd, rootSmoothing/c.FrameTime)
	out := animsys.NewClip(c.Name+" root", c.Frames, 1, c.FrameTime)
	for f := 0; f < c.Frames; f++ {
		out.SetPos(f, 0, pos[f])
		out.Rot[out.At(f, 0)] = yawQuat(fwd[f])
	}
	out.Prepare()
	return out
}

// lateral is the body's left-to-right axis in global pose g: the sum of
// Left minus Right (not normalised).
func (src *Source) lateral(g *animsys.Pose) mgl32.Vec3 {
	var lat mgl32.Vec3
	for k := range src.Left {
		lat = lat.Add(g.Pos[src.Left[k]].Sub(g.Pos[src.Right[k]]))
	}
	return lat
}

// Sample writes clip c at time t (s) into p, cubic with exact velocities:
// the source clip's pose with joint 0 replaced by the smoothed root, the
// joints between it and the hips (carriers, such as a capture's
// origin-bound joint_Root whose child, the hips, holds the travel) laid
// onto the root, and every joint hanging from them re-expressed under the
// root so it stays where it was (kform_mul down the old chain, kform_div
// by the new root, velocities propagated). So the hips hang from the root
// by their height and sway, not by metres of travel that a transition
// between clips would blend through a turning carrier. root is one-joint
// scratch.
func (db *Database) Sample(p, root *animsys.Pose, c int, t float32) {
	animsys.SampleCubic(p, &db.Clips[c], t)
	animsys.SampleCubic(root, &db.roots[c], t)
	r := root.Kform(0)
	parents := db.Skel.Parents
	// Each kid's world kineform, from the old chain (carriers are
	// overwritten only after every kid is done).
	for _, j := range db.kids {
		w := p.Kform(j)
		for k := parents[j]; k >= 0; k = parents[k] {
			w = animsys.KformMul(p.Kform(k), w)
		}
		p.SetKform(j, animsys.KformDiv(r, w))
	}
	for _, k := range db.carriers {
		p.SetKform(k, animsys.KformIdentity())
	}
	p.SetKform(0, r)
}

// chain reports whether joints, each a joint of the skeleton, are each
// the child of the one before, the first of from.
func chain(parents []int, from int, joints []int) bool {
	for _, j := range joints {
		if j <= 0 || j >= len(parents) || parents[j] != from {
			return false
		}
		from = j
	}
	return true
}

// descends reports whether joint j hangs (at any depth) from joint a.
func descends(parents []int, j, a int) bool {
	for k := parents[j]; k >= 0; k = parents[k] {
		if k == a {
			return true
		}
	}
	return false
}

// carriersOf are the joints strictly between joint 0 and hips on hips'
// chain of parents, from joint 0's child down: none when the hips hang
// from joint 0.
func carriersOf(parents []int, hips int) []int {
	var chain []int
	for k := parents[hips]; k > 0; k = parents[k] {
		chain = append([]int{k}, chain...)
	}
	return chain
}

// gaussian smooths a series with a Gaussian of standard deviation sigma
// (frames), holding the end values beyond the ends.
func gaussian(x []mgl32.Vec3, sigma float32) []mgl32.Vec3 {
	r := int(math.Ceil(3 * float64(sigma)))
	if r < 1 {
		return x
	}
	w := make([]float32, 2*r+1)
	var sum float32
	for k := -r; k <= r; k++ {
		w[k+r] = float32(math.Exp(-0.5 * float64(k*k) / float64(sigma*sigma)))
		sum += w[k+r]
	}
	for k := range w { // the same quotients as dividing at each use
		w[k] /= sum
	}
	// Summed in scalars (a Vec3 accumulator lives in memory: 6 times
	// slower), each product rounded before it is added (the conversions
	// forbid fusing them), as Vec3's Mul then Add round them.
	out := make([]mgl32.Vec3, len(x))
	for i := range x {
		var sx, sy, sz float32
		if i >= r && i+r < len(x) { // no end to hold: no clamping
			for k, v := range x[i-r : i+r+1] {
				sx += float32(v[0] * w[k])
				sy += float32(v[1] * w[k])
				sz += float32(v[2] * w[k])
			}
		} else {
			for k := -r; k <= r; k++ {
				v := x[min(max(i+k, 0), len(x)-1)]
				sx += float32(v[0] * w[k+r])
				sy += float32(v[1] * w[k+r])
				sz += float32(v[2] * w[k+r])
			}
		}
		out[i] = mgl32.Vec3{sx, sy, sz}
	}
	return out
}

// SetGroups are the feature groups set s's cost sums.
func (db *Database) SetGroups(s Set) []int { return setGroups[s] }

// Trajectory is frame i's trajectory features: the root's position (m)
// and facing at TrajectoryTimes, (x, z) in the frame's root frame.
func (db *Database) Trajectory(i int) (pos, dir [3]mgl32.Vec2) {
	p, d := db.raw[TrajPos][i*6:], db.raw[TrajDir][i*6:]
	for k := range pos {
		pos[k] = mgl32.Vec2{p[2*k], p[2*k+1]}
		dir[k] = mgl32.Vec2{d[2*k], d[2*k+1]}
	}
	return pos, dir
}
