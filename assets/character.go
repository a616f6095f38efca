package assets

import (
	"fmt"
	"os"
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
)

// Character is the embedded humanoid with its procedural clips, as the
// labs animate it: it opens on walk and faces +Z; its figure, IK and
// look-at paths are read and fitted as a loaded character's are
// (character.Assemble). It is one value for the whole process, made on
// first use: read it, never change it (a lab that starts over on another
// character replaces its pointer).
func Character() *character.Character { return defaultCharacter() }

var defaultCharacter = sync.OnceValue(func() *character.Character {
	return character.Assemble(&character.Character{Name: "default", Skel: Humanoid(), Clips: Clips(), Start: 1,
		Additive: Additives()[0], Hips: Hips, Head: Head,
		Facing: mgl32.Vec3{0, 0, 1}, HeadFwd: mgl32.Vec3{0, 0, 1},
		Leg: animsys.TwoBoneJoints{Root: LeftUpLeg, Mid: LeftLeg, End: LeftFoot},
		Arm: animsys.TwoBoneJoints{Root: RightArm, Mid: RightForeArm, End: RightHand}})
})

// LocomotionCharacter is the default character playing the embedded
// locomotion set (Locomotion) in place of its five clips: the
// Motion-matching lab's database when no captures are loaded. Each call
// makes the clips anew (about 0.2 s), held only as long as the caller
// holds them.
func LocomotionCharacter() *character.Character {
	ch := *Character()
	ch.Clips = Locomotion()
	return &ch
}

// DefaultName names the embedded character where a character file is
// asked for (kinelab --onto default, retarget --onto default).
const DefaultName = "default"

// OpenCharacter is the character named by a command line's --onto: the
// embedded one (Character) for DefaultName, else the glTF character at
// path (character.LoadGLTF). A file of that name wins over the embedded
// character.
func OpenCharacter(path string) (*character.Character, error) {
	if path == DefaultName {
		if _, err := os.Stat(path); err != nil {
			return Character(), nil
		}
	}
	if !character.IsGLTF(path) {
		return nil, fmt.Errorf("%s: not a glTF character (.glb, .gltf), nor %q, the embedded one", path, DefaultName)
	}
	return character.LoadGLTF(path)
}
