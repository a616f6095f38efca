package matching

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
	mm "kinelab/animsys/matching"
	"kinelab/animsys/retarget"
	"kinelab/assets"
)

// onto shows the matcher on another character (kinelab --onto, the file
// browser's Character choice): the database stays the captures'
// (character.Character.Source), and each tick the matcher's output pose
// (Matcher.World, with its velocities) is retargeted onto the character
// (retarget.Map.Pose) for what is drawn, red and blue, and the sliding of
// the character's feet. The floor's marks (paths, rings, locks) are the
// matcher's, scaled as the map scales the hips' motion.
type onto struct {
	ch           *character.Character // the character shown; nil: the captures' own figure
	m            *retarget.Map
	s            *retarget.Scratch
	on           bool // the database is the captures' (not the embedded set, the captures refused)
	local, world animsys.Pose
	slide        sliding
}

// set takes the lab's character and returns the one its database is made
// of: for a character playing captures (ch.Source), the captures, ch
// being shown; else ch itself.
func (o *onto) set(ch *character.Character) *character.Character {
	*o = onto{}
	if ch == nil || ch.Source == nil {
		return ch
	}
	m, err := retarget.New(ch.Source, ch)
	if err != nil { // Onto made ch with this map: it cannot fail now
		return ch
	}
	n := ch.Skel.Len()
	o.ch, o.m, o.s = ch, m, m.NewScratch()
	o.local, o.world = animsys.NewPose(n), animsys.NewPose(n)
	return ch.Source
}

// use switches the character on when the database db is the captures'
// (the embedded set when they are the embedded character); it returns
// the ground joints of what is shown (ground: the database's).
func (o *onto) use(db *mm.Database, ground []bool) []bool {
	src := o.source()
	o.on = src != nil && len(db.Skel.Parents) > 0 && len(src.Skel.Parents) == len(db.Skel.Parents) &&
		&src.Skel.Parents[0] == &db.Skel.Parents[0]
	o.slide = sliding{}
	if !o.on {
		return ground
	}
	return o.ch.Figure.Ground
}

// source is the captures the character plays, nil for none.
func (o *onto) source() *character.Character {
	if o.ch == nil {
		return nil
	}
	return o.ch.Source
}

// pose is the pose shown for the matcher's world pose w: w retargeted
// onto the character, or w.
func (o *onto) pose(w *animsys.Pose) *animsys.Pose {
	if !o.on {
		return w
	}
	o.m.Pose(&o.local, &o.world, w, o.s)
	return &o.world
}

// skel and hips are the skeleton shown and its hips; db's without a
// character.
func (o *onto) skel(db *mm.Database) *animsys.Skeleton {
	if !o.on {
		return &db.Skel
	}
	return &o.ch.Skel
}

func (o *onto) hips(db *mm.Database) int {
	if !o.on {
		return db.Hips
	}
	return o.ch.Figure.Hips
}

// camera is the character the camera frames: the one shown, or ch.
func (o *onto) camera(ch *character.Character) *character.Character {
	if o.on {
		return o.ch
	}
	if ch == nil {
		return assets.Character()
	}
	return ch
}

// floor is where a mark of the matcher's on the floor goes: scaled as
// the hips' motion is.
func (o *onto) floor(p mgl32.Vec3) mgl32.Vec3 {
	if !o.on {
		return p
	}
	return p.Mul(o.m.Scale)
}

// sliding measures the feet's ground speed where the database's own
// contact labels (Database.Truth: the captured feet stood) say an ankle
// stands: the character's ankles and the captures' (the matcher's
// output), cm/s, as matching eval's ankle sliding measures the latter.
type sliding struct {
	char, caps [2]float64    // ground distance (m) while labelled
	secs       [2]float64    // time labelled (s)
	prevChar   [2]mgl32.Vec3 // last tick's ankles
	prevCaps   [2]mgl32.Vec3
	t          float64
	have       bool
}

// measure adds a tick at time t (s): the character's pose shown and the
// matcher's.
func (o *onto) measure(m *mm.Matcher, t float64) {
	if !o.on || !m.DB.HasToes() {
		return
	}
	sl := &o.slide
	dt := t - sl.t
	frame := m.Frame()
	for s := range 2 {
		c, p := o.world.Pos[o.ch.Figure.Legs[s].End], m.World.Pos[m.DB.Feet[s]]
		if ankle, _ := m.DB.Truth(frame, s); ankle && sl.have && dt > 0 {
			sl.char[s] += float64(ground(c.Sub(sl.prevChar[s])))
			sl.caps[s] += float64(ground(p.Sub(sl.prevCaps[s])))
			sl.secs[s] += dt
		}
		sl.prevChar[s], sl.prevCaps[s] = c, p
	}
	sl.t, sl.have = t, true
}

// ground is the length of d along the ground.
func ground(d mgl32.Vec3) float32 { return mgl32.Vec2{d[0], d[2]}.Len() }

// readout is the readout's line naming the character and its feet's
// sliding against the captures' (scaled by the map, as the character's
// strides are): none without a character.
func (o *onto) readout(fit func(long, short string) string) []string {
	if !o.on {
		return nil
	}
	sl := &o.slide
	secs := sl.secs[0] + sl.secs[1]
	if secs <= 0 {
		return []string{fit(fmt.Sprintf("on %s: motion scaled %.2f; feet sliding: no contact yet", o.ch.Name, o.m.Scale),
			fmt.Sprintf("on %s, x%.2f", o.ch.Name, o.m.Scale))}
	}
	char := 100 * (sl.char[0] + sl.char[1]) / secs
	caps := 100 * (sl.caps[0] + sl.caps[1]) / secs
	return []string{fit(fmt.Sprintf("on %s: its feet slide %.1f cm/s where the captures' stood (theirs %.1f, x%.2f: %.1f)",
		o.ch.Name, char, caps, o.m.Scale, caps*float64(o.m.Scale)),
		fmt.Sprintf("on %s: slide %.1f cm/s (captures' %.1f)", o.ch.Name, char, caps))}
}
