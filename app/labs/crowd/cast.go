package crowd

import (
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/character"
	"kinelab/animsys/crowd"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/assets"
)

// cast is what the crowd is made of: the character whose clips it plays
// or the bench library on the default skeleton, and, for the crowd built
// last, its skeleton, how the skeleton reads as a figure, its mesh and
// its size.
type cast struct {
	ch        *character.Character // whose clips LibraryGait plays (SetCharacter)
	benchSkel animsys.Skeleton     // the bench library's skeleton: the default character's
	bench     []animsys.Clip       // made when first chosen: 64 clips take a moment
	// framed are framedCh's clips sampled from their frames (framedOf);
	// the crowd's characters point into it.
	framed   []animsys.Clip
	framedCh *character.Character
	// The crowd's skeleton (&ch.Skel or &benchSkel), the figure it reads
	// as (the default character's for the bench library, whose skeleton
	// it is), and its hips and head joints (the picking target and the
	// label's anchor).
	skel       *animsys.Skeleton
	fig        *humanoid.Figure
	hips, head int
	// mesh is the crowd's character's own mesh (a glTF character's), nil
	// for generated bodies; size its view's scale (app.ViewScale: 1 for a
	// human, 0.42 for a 0.5 m doll, 39 for a 71-unit animal): the grid's
	// spacing, the camera, the LOD distances and the markers scale with it.
	mesh *body.Mesh
	size float32
	// reach (m) is the figure's length on the ground at the start (the
	// longer side of its body joints' box along x and z): cells are never
	// closer, so a long animal does not stand in its neighbours.
	reach float32
}

// castChoice is one library's makings of a crowd: its skeleton, clips,
// figure, hips and head, and its mesh and size.
type castChoice struct {
	skel       *animsys.Skeleton
	lib        []animsys.Clip
	fig        *humanoid.Figure
	hips, head int
	mesh       *body.Mesh
	size       float32
}

// choice is what library (Library*) makes a crowd of: the character's
// clips on its skeleton, or the bench library on the default skeleton
// (made the first time it is chosen).
func (c *cast) choice(library int32) castChoice {
	if library == LibraryBench {
		if c.bench == nil {
			c.bench = crowd.NewLibrary()
		}
		return castChoice{&c.benchSkel, c.bench, assets.Character().Figure, animsys.BenchHips, animsys.BenchHead, nil, 1}
	}
	return castChoice{&c.ch.Skel, c.framedOf(c.ch), c.ch.Figure, c.ch.Hips, c.ch.Head, c.ch.Mesh, app.ViewScale(c.ch)}
}

// fallback is the default character's clips, for a character whose clips
// do not fit its skeleton: the character becomes the default one.
func (c *cast) fallback() castChoice {
	c.ch = assets.Character()
	return castChoice{&c.ch.Skel, c.ch.Clips, c.ch.Figure, c.ch.Hips, c.ch.Head, nil, 1}
}

// use makes k what the crowd is made of, its first character standing in
// pose p; it reports whether the skeleton changed (its bodies are made
// again).
func (c *cast) use(k castChoice, p *animsys.Pose) (newSkel bool) {
	newSkel = k.skel != c.skel
	c.skel, c.fig, c.hips, c.head = k.skel, k.fig, k.hips, topJoint(k.skel, k.head)
	c.mesh, c.size = k.mesh, k.size
	c.reach = groundReach(p, k.fig)
	return newSkel
}

// scale is the crowd's view scale (size), 1 before a crowd is built.
func (c *cast) scale() float32 {
	if !(c.size > 0) {
		return 1
	}
	return c.size
}

// framedOf returns ch's clips sampled from their frames: the clips
// themselves, or for clips with Curves (a glTF character's, resampled at
// character.GLTFFPS when loaded) copies without them. The crowd ticks the
// bench-spec chain, which samples frames; sampling a glTF robot's curves
// exactly took ten times as long (107 against 14 us a character-tick,
// 200 characters), more than drawing them. The Velocities lab keeps them
// exact.
func (c *cast) framedOf(ch *character.Character) []animsys.Clip {
	if c.framedCh == ch {
		return c.framed
	}
	c.framed, c.framedCh = ch.Clips, ch
	for i := range ch.Clips {
		if ch.Clips[i].Curves != nil {
			c.framed = slices.Clone(ch.Clips)
			for k := range c.framed {
				c.framed[k].Curves = nil
			}
			break
		}
	}
	return c.framed
}

// clipsName names the character's clips: "gait" for the default
// character's, else the loaded character's name.
func (c *cast) clipsName() string {
	switch c.ch.Name {
	case "default":
		return "gait"
	case "":
		return "character"
	}
	return c.ch.Name
}

// topJoint is head if it is a joint of skel, else the joint highest in
// the rest pose (a BVH character without a joint named head).
func topJoint(skel *animsys.Skeleton, head int) int {
	if head >= 0 && head < skel.Len() {
		return head
	}
	rest := skel.RestPose()
	top := 0
	for j, p := range rest.Pos {
		if p[1] > rest.Pos[top][1] {
			top = j
		}
	}
	return top
}

// groundReach is the longer side (m) of the box of pose p's body joints
// (not fig's Ground joints) along x and z; 0 for a non-finite pose.
func groundReach(p *animsys.Pose, fig *humanoid.Figure) float32 {
	var lo, hi mgl32.Vec3
	first := true
	for j, q := range p.Pos {
		if fig != nil && j < len(fig.Ground) && fig.Ground[j] {
			continue
		}
		if first {
			lo, hi, first = q, q, false
		}
		for a := range 3 {
			lo[a], hi[a] = min(lo[a], q[a]), max(hi[a], q[a])
		}
	}
	r := max(hi[0]-lo[0], hi[2]-lo[2])
	if !mathx.Finite(r) {
		return 0
	}
	return r
}
