package matching

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// Contact truth: a second definition of the feet's contacts, labelled
// from the source clips' own frames, by which Meter measures sliding. The
// lock's labels (Database.Contact, clipContacts) drive the lock, so
// sliding measured on them reads how well the lock holds what it holds,
// not whether the feet stand when the captured feet stood. These labels
// follow the reference motion-matching demo's database generator instead
// (a foot stands while its toe is still, median-filtered), with a height
// test added so a foot held in the air never counts, and they never touch
// the lock's thresholds, its floor or its exact sampled velocities: each
// source frame is posed as stored (FK of the clip's keys, no cubic
// sampling, no re-rooting) and a toe's speed on a frame is its step
// from the frame before over the frame time (the first frame takes the
// second's), as the demo differences its frames.
//
// On source frame f, foot s's
//   - ankle is in contact when its toe moves slower than truthSpeed and the
//     ankle stands less than truthAnkleRise above its floor,
//   - toe is in contact when the toe moves slower than truthSpeed and
//     stands less than truthToeRise above its floor,
//
// each then median-filtered over truthWindow frames (a majority vote, the
// ends held), which drops blips and fills gaps shorter than half the
// window. A joint's floor is the 5th percentile of its heights over the
// whole database (both feet, every clip): the figure's own ground, since
// rigs place their joints differently (a planted ankle stands 5 cm high
// on the embedded figure and 11.7 cm on the Bandai captures of
// ../shared/locomotion, a planted toe 0 and 4.2 cm). Without a toe joint
// (Database.Toes) neither is labelled: the ankle's test needs the toe's
// speed.
//
// The values are a human's (times Database.Unit for another figure),
// chosen on the embedded set and the 50 Bandai captures of
// ../shared/locomotion (30 fps), mirrored:
//   - truthSpeed 0.15 m/s is the demo's threshold. A planted toe of the
//     embedded set stands still; the captures' toes move under 1 cm/s on a
//     fifth of their frames, under 0.12 m/s on 40%, and 0.46 m/s at the
//     median (a swinging toe over 1 m/s).
//   - truthAnkleRise 0.03 m: the heel's lift for toe-off. While its toe
//     is still, an ankle stands within 7 mm of its floor 80% of the time in
//     both sets; the embedded set then lifts its heel (the top 10% of those
//     frames rise 3-7 cm), the captures within 2.4 cm (98%): this keeps the
//     heel-down stance and drops the embedded set's toe-off.
//   - truthToeRise 0.03 m: a still toe stands within 1 cm of its floor
//     (98% of the captures', all of the embedded set's); 3 cm leaves room
//     for an uneven capture floor and labels no toe in the air.
//   - truthWindow 5 frames at 60 fps (1/12 s: the demo filters 6 frames at
//     60 fps, an even window this makes odd); at another rate the same
//     time, rounded to an odd count of at least 3 (3 at 30 fps).
//
// They label 51% of the embedded set's foot-frames for the ankle and 57%
// for the toe (the lock's labels 53%), 42% and 42% of the captures' (the
// lock's 39%). On the source clips themselves, posed as stored, a joint
// so labelled moves (mean ground speed, TestTruthStandsInSource): the
// embedded set's ankles 2.1 cm/s and toes 0.07, the captures' 6.4 and
// 2.3. An ankle's label is its toe's stillness, and an ankle turning
// about a planted toe or settling as the heel lands moves; that is the
// floor of Meter's figures on these labels.
const (
	truthSpeed     = 0.15
	truthAnkleRise = 0.03
	truthToeRise   = 0.03
	truthWindow    = 5.0 / 60
	truthFloor     = 0.05 // the quantile of a joint's heights taken for its floor
)

// Truth reports whether database frame i has foot s's (0 left, 1 right)
// ankle and toe in contact by the second definition (above). Both are
// false for a figure without toes (HasToes).
func (db *Database) Truth(i, s int) (ankle, toe bool) {
	b := db.truth.bits[i]
	return b&(1<<s) != 0, b&(4<<s) != 0
}

// HasToes reports whether both feet have a toe joint (Toes), which the
// second contact definition and the toe's sliding need.
func (db *Database) HasToes() bool { return db.Toes[0] > 0 && db.Toes[1] > 0 }

// TruthShare is the share of frames and feet whose ankle, and whose toe,
// the second definition labels in contact.
func (db *Database) TruthShare() (ankle, toe float64) {
	var a, t int
	for _, b := range db.truth.bits {
		a += int(b&1) + int(b>>1&1)
		t += int(b>>2&1) + int(b>>3&1)
	}
	n := float64(2 * max(len(db.truth.bits), 1))
	return float64(a) / n, float64(t) / n
}

// truth is a database's labels by the second definition, per frame: bit
// s when foot s's ankle, bit 2+s when its toe, is in contact; and the
// floors (m) the labels and the foot skating (Meter) measure heights
// from: a joint's truthFloor quantile over the database, both feet.
type truth struct {
	bits                 []uint8
	ankleFloor, toeFloor float32
}

// sourceTruth labels every frame by the second definition into
// db.truth (no labels without toes; the ankles' floor still).
func (db *Database) sourceTruth() {
	// Every source frame posed as stored: each foot's ankle and toe (m,
	// world), clip after clip.
	n := db.Skel.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	toes := db.HasToes()
	var ankle, toe [2][]mgl32.Vec3
	var ankleY, toeY []float32
	for c := range db.Clips {
		clip := &db.Clips[c]
		for f := 0; f < clip.Frames; f++ {
			clip.Frame(&local, f)
			animsys.FKStatic(&global, &local, db.Skel.Parents)
			for s := range ankle {
				a := global.Pos[db.Feet[s]]
				ankle[s], ankleY = append(ankle[s], a), append(ankleY, a[1])
				if toes {
					t := global.Pos[db.Toes[s]]
					toe[s], toeY = append(toe[s], t), append(toeY, t[1])
				}
			}
		}
	}
	db.truth.ankleFloor = mathx.Quantile(ankleY, truthFloor)
	if !toes {
		return
	}
	db.truth.toeFloor = mathx.Quantile(toeY, truthFloor)
	u := db.Unit
	ankleTop := db.truth.ankleFloor + truthAnkleRise*u
	toeTop := db.truth.toeFloor + truthToeRise*u
	for c := range db.Clips {
		lo, hi := db.At(c, 0), db.At(c, db.Clips[c].Frames)
		for s := range ankle {
			a, t := truthLabels(ankle[s][lo:hi], toe[s][lo:hi], db.Clips[c].FrameTime, truthSpeed*u, ankleTop, toeTop)
			for f := range a {
				if a[f] {
					db.truth.bits[lo+f] |= 1 << s
				}
				if t[f] {
					db.truth.bits[lo+f] |= 4 << s
				}
			}
		}
	}
}

// truthLabels are one foot's labels by the second definition, from its
// ankle's and toe's positions (m, y up) on frames frameTime seconds
// apart: speed (m/s) the toe's limit, ankleTop and toeTop (m) the heights
// each must stay below.
func truthLabels(ankle, toe []mgl32.Vec3, frameTime, speed, ankleTop, toeTop float32) (a, t []bool) {
	n := len(toe)
	a, t = make([]bool, n), make([]bool, n)
	for f := range toe {
		lo := max(f-1, 0) // the first frame: its step to the second
		still := n > 1 && toe[lo+1].Sub(toe[lo]).Len()/frameTime < speed
		a[f] = still && ankle[f][1] < ankleTop
		t[f] = still && toe[f][1] < toeTop
	}
	w := int(truthWindow/frameTime + 0.5)
	w = max(w|1, 3) // odd: a vote has a majority
	return medianFilter(a, w), medianFilter(t, w)
}

// medianFilter is on filtered by a median (majority) over an odd window
// of w frames centred on each, the end values held beyond the ends.
func medianFilter(on []bool, w int) []bool {
	out := make([]bool, len(on))
	h := w / 2
	for f := range on {
		votes := 0
		for k := f - h; k <= f+h; k++ {
			if on[min(max(k, 0), len(on)-1)] {
				votes++
			}
		}
		out[f] = 2*votes > w
	}
	return out
}
