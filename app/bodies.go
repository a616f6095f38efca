package app

import (
	"fmt"
	"kinelab/animsys/words"
	"os"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/character"
	"kinelab/render"
)

// bodyStore keeps the skinned body of each character set, made (generated
// and uploaded) when the character is set, never while drawing: labs look
// bodies up by skeleton (View.BodyFor).
type bodyStore struct {
	bodies map[bodyKey]BodyDrawer
	errs   map[bodyKey]string // why a skeleton has no body
}

// bodyKey names a skeleton by its data, not by the Skeleton value's
// address: labs keep copies of the character's Skeleton, which share its
// slices, and a lab that starts over on a new character keeps its
// Skeleton field where it was, with new joints in it.
type bodyKey struct {
	parents *int
	bind    *animsys.Pose
}

func keyOf(sk *animsys.Skeleton) bodyKey {
	k := bodyKey{bind: sk.Bind}
	if len(sk.Parents) > 0 {
		k.parents = &sk.Parents[0]
	}
	return k
}

// get returns the body of skeleton sk, nil when it has none.
func (s *bodyStore) get(sk *animsys.Skeleton) BodyDrawer { return s.bodies[keyOf(sk)] }

// makeBody generates character ch's skinned body for its figure in its
// bind pose and uploads it, when a window is open and it has none yet.
// When it cannot be made, the reason is kept for the Mocap section and
// said on stderr and in the messages; labs then draw the skeleton alone.
func (a *App) makeBody(ch *character.Character) {
	s := &a.bodies
	k := keyOf(&ch.Skel)
	if _, ok := s.bodies[k]; ok || !rl.IsWindowReady() {
		return
	}
	if s.bodies == nil {
		s.bodies, s.errs = map[bodyKey]BodyDrawer{}, map[bodyKey]string{}
	}
	b, fallback, err := newBody(ch)
	if fallback != "" {
		fmt.Fprintln(os.Stderr, "kinelab:", ch.Name+":", fallback)
		a.sayErr(ch.Name + ": " + fallback)
	}
	if err != nil {
		s.errs[k] = err.Error()
		fmt.Fprintln(os.Stderr, "kinelab: no skinned body:", err)
		a.sayErr("no skinned body: " + err.Error())
	}
	if m, ok := b.(interface{ Note() string }); ok && m.Note() != "" {
		// Its own mesh is drawn, but not all of it (a texture that does
		// not decode): say what is missing.
		fmt.Fprintln(os.Stderr, "kinelab:", ch.Name+":", m.Note())
		a.sayErr(ch.Name + ": " + m.Note())
	}
	s.bodies[k] = b
}

// newBody uploads ch's own mesh, or else generates and uploads a skinned
// body for its figure, with why its own mesh is not drawn (fallback). It
// returns nil and why when no body can be drawn (no bone to dress, too
// many joints for the skinning shader).
func newBody(ch *character.Character) (BodyDrawer, string, error) {
	fallback := ""
	if ch.Mesh != nil { // its own (glTF) mesh; a generated body if it cannot be drawn
		m, err := render.NewSkinnedMesh(ch.Mesh)
		if err == nil {
			return m, "", nil
		}
		fallback = "its own mesh is not drawn, a generated body is: " + err.Error()
	}
	sk := &ch.Skel
	bind := sk.BindPose()
	mesh := body.Generate(ch.Figure, bind.Pos, bind.Rot)
	if mesh.VertexCount() == 0 {
		return nil, fallback, fmt.Errorf("the skeleton of %s has no bone to dress (all its joints at one place?)", words.Count(sk.Len(), "joint"))
	}
	m, err := render.NewSkinnedMesh(&mesh)
	if err != nil {
		return nil, fallback, err
	}
	return m, fallback, nil
}

// unload frees the bodies' GPU resources.
func (s *bodyStore) unload() {
	for _, b := range s.bodies {
		if m, ok := b.(interface{ Unload() }); ok && b != nil {
			m.Unload()
		}
	}
	s.bodies = nil
}
