package matching

import (
	"bytes"
	"fmt"
	"math"
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	mm "kinelab/animsys/matching"
	"kinelab/animsys/mathx"
	"kinelab/assets"
)

// The lab's controllers: the database's search (mm.Matcher as made) or
// the learned controller (Matcher.UseNetworks), Settings.Controller's
// values and the panel's and --controller's names.
const (
	databaseController = iota
	learnedController
)

var controllerNames = []string{"database", "learned"}

// embeddedNetworks are the learned controller's networks for the
// embedded locomotion set, read once, the first time a database asks
// whether they fit it (reading them takes a while and most runs never
// ask).
var embeddedNetworks = sync.OnceValues(func() (*mm.Networks, error) {
	return mm.ReadNetworks(bytes.NewReader(assets.LocomotionNetworks()))
})

// readNetworks reads the networks file --networks named (path; "" for
// the embedded set's).
func readNetworks(path string) (*mm.Networks, error) {
	if path == "" {
		return embeddedNetworks()
	}
	return mm.ReadNetworksFile(path)
}

// learned is what the lab keeps to show the learned controller: whether
// its networks fit the database, both controllers' memory, and scratch
// poses for the measures of each tick, made with the database (no tick
// allocates).
type learned struct {
	// path is --networks (Config.Networks), "" for the embedded set's;
	// nets what it read (once), err why it did not.
	path    string
	nets    *mm.Networks
	netsErr error
	read    bool
	// why is why the networks cannot drive the database ("" when they
	// can): another database (the captures'), or a file that did not read.
	why string
	// netBytes and dbBytes are the two controllers' memory (bytes): the
	// networks', and the database's with its clips (as matching eval
	// counts them).
	netBytes, dbBytes int
	// said is the decompressor's own pose (Learned.Said) in the
	// character's frame; fk the database frame's pose it stands for
	// (local, root motion read off), frame its FK, root its root.
	said, frame, fk, root animsys.Pose
}

// fit takes the database the lab made: whether the networks fit it (the
// digest of its clips is checked, so once a database, not each tick),
// the memory of both controllers, and the scratch poses.
func (ln *learned) fit(db *mm.Database) {
	ln.why, ln.netBytes = "", 0
	if !ln.read {
		ln.nets, ln.netsErr = readNetworks(ln.path)
		ln.read = true
	}
	nets, err := ln.nets, ln.netsErr
	switch {
	case err != nil && ln.path == "":
		ln.why = "the embedded networks do not read: " + err.Error()
	case err != nil:
		ln.why = err.Error()
	default:
		ln.netBytes = nets.Bytes()
		if err := nets.Fits(db); err != nil {
			ln.why = err.Error()
		}
	}
	ln.dbBytes = db.Bytes().Total()
	for c := range db.Clips {
		ln.dbBytes += db.Clips[c].Bytes()
	}
	animsys.NewPoses(db.Skel.Len(), &ln.said, &ln.frame, &ln.fk)
	ln.root = animsys.NewPose(1)
}

// use switches the matcher to the controller the settings ask for, when
// it is not that already and the networks fit (the database's
// otherwise), and reports whether it switched (the matcher was reset).
func (ln *learned) use(m *mm.Matcher, controller int32) bool {
	want := controller == learnedController && ln.why == ""
	if want == (m.Play.Learned != nil) {
		return false
	}
	var nets *mm.Networks
	if want {
		nets = ln.nets // read by fit, without an error since why is ""
	}
	if err := m.UseNetworks(nets); err != nil {
		// fit checked them on this database: say so should it change.
		ln.why = err.Error()
		return false
	}
	return true
}

// measure writes into snapshot h what the learned controller of m says
// at this tick, its state standing for database frame: the
// decompressor's velocities placed in the world as the output is (the
// green lines), their mean distance (m/s) from the exact velocities of
// the pose it plays (Matcher.Target), and the mean distance (m) of that
// pose's joints from the frame's, both in the character's frame and over
// every joint but the root, as matching eval's learned figures. With the
// database's controller, or a pose shown on another character (the green
// lines would be the wrong joints'), h shows none.
func (ln *learned) measure(m *mm.Matcher, frame int, shown bool, h *snapshot) {
	l := m.Play.Learned
	h.learned = l != nil && shown
	if !h.learned {
		h.saidErr, h.poseErr = float32(math.NaN()), float32(math.NaN())
		return
	}
	db := m.DB
	animsys.FK(&ln.said, &l.Said, db.Skel.Parents)
	c, f := db.Locate(frame)
	db.Sample(&ln.fk, &ln.root, c, float32(f)*db.Clips[c].FrameTime)
	mm.RootMotion(&ln.fk)
	animsys.FK(&ln.frame, &ln.fk, db.Skel.Parents)
	r := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, m.Root.Yaw, 0})
	var vel, pos float32
	n := db.Skel.Len()
	for j := range n {
		h.green[j] = mathx.QuatMulVec3(r, ln.said.Vel[j])
		if j > 0 {
			vel += ln.said.Vel[j].Sub(m.Target.Vel[j]).Len()
			pos += m.Target.Pos[j].Sub(ln.frame.Pos[j]).Len()
		}
	}
	h.saidErr, h.poseErr = vel/float32(max(n-1, 1)), pos/float32(max(n-1, 1))
}

// memoryText is the readout's line of the two controllers' memory: the
// networks' against the database's and its clips', and their ratio.
func (ln *learned) memoryText(fit func(long, short string) string) string {
	nets, db := megabytes(ln.netBytes), megabytes(ln.dbBytes)
	ratio := ""
	if ln.netBytes > 0 {
		ratio = fmt.Sprintf(" (1/%.0f)", float64(ln.dbBytes)/float64(ln.netBytes))
	}
	return fit(fmt.Sprintf("memory: networks %s, database %s%s", nets, db, ratio),
		fmt.Sprintf("networks %s, db %s", nets, db))
}

// megabytes prints n bytes in MB with a tenth, two significant figures
// under 1 MB (small networks would all read 0.1 MB).
func megabytes(n int) string {
	if mb := float64(n) / 1e6; mb < 1 {
		return fmt.Sprintf("%.2g MB", mb)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
