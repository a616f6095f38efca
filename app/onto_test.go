package app_test

import (
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/character"
	"kinelab/app"
	"kinelab/internal/gltftest"
)

// charLab records the character it is given.
type charLab struct {
	plainLab
	ch *character.Character
}

func (l *charLab) SetCharacter(ch *character.Character) { l.ch = ch }

// With a character to play on (--onto, the browser's Character choice),
// the labs get the captures retargeted onto it: the character's
// skeleton, the captures' clips, the captures themselves as Source; a
// character that is no human is refused with its reason and the
// captures stay on their own figure; and "" takes the captures back to
// their own figure.
func TestSetOnto(t *testing.T) {
	t.Setenv(app.ConfigDirEnv, t.TempDir())
	dir := t.TempDir()
	robot, dog, walk := filepath.Join(dir, "robot.glb"), filepath.Join(dir, "dog.glb"), filepath.Join(dir, "walk.glb")
	for path, r := range map[string]gltftest.Rig{robot: gltftest.PartRobotRig(1.8), dog: gltftest.QuadrupedRig(71), walk: gltftest.MixamoRig(1.7)} {
		if err := gltftest.WriteRig(path, r, gltftest.Options{GLB: true}); err != nil {
			t.Fatal(err)
		}
	}
	lab := &charLab{plainLab: *newPlainLab()}
	a := app.New(app.Config{}, []app.LabEntry{{Name: "springs", New: func() app.Lab { return lab }}})
	a.Lab()
	if !a.Load([]string{walk}) || lab.ch == nil || lab.ch.Source != nil {
		t.Fatalf("loading %s: the lab got %v", walk, lab.ch)
	}
	captures := lab.ch
	if !a.SetOnto(robot) || lab.ch.Source != captures || lab.ch.Skel.Len() != 1+len(gltftest.PartRobotRig(1.8).Joints) ||
		lab.ch.Clips[0].Name != captures.Clips[0].Name {
		t.Fatalf("onto %s: the lab got %s of %d joints, source %v", robot, lab.ch.Name, lab.ch.Skel.Len(), lab.ch.Source)
	}
	if a.SetOnto(dog) || lab.ch.Source != captures {
		t.Error("a quadruped taken as the character to play on")
	}
	said := false
	for _, m := range a.Messages() {
		said = said || strings.Contains(m.Text, "dog.glb: not read as a human figure: 4 limbs reach the ground") && m.Sticky
	}
	if !said {
		t.Errorf("messages %+v: want the quadruped's refusal, with its reason", a.Messages())
	}
	if !a.SetOnto("") || lab.ch != captures {
		t.Error(`SetOnto(""): the captures did not go back to their own figure`)
	}
}
