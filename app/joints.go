package app

import (
	"sort"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/render"
	"kinelab/ui"
)

// Joints of a drawn character: hover one to see its name, click to pick it
// (the lab shows its values), and label as many as can be read on request
// (the View section's "Label every joint"): the picked joint's chain first,
// no label over another.

// pickRadius is how near (units) the mouse must be to a joint's screen
// point to hover or pick it.
const pickRadius = 14

// JointAt returns the index of the joint of pos (m, each shifted by shift)
// whose screen point is nearest to at (units) within the pick radius, or
// -1. Joint 0, the ground-level root, is left out.
func (v *View) JointAt(pos []mgl32.Vec3, shift mgl32.Vec3, at rl.Vector2) int {
	best, bestD := -1, float32(pickRadius*pickRadius)
	if at.X < 0 || at.Y < 0 {
		return -1
	}
	for i := 1; i < len(pos); i++ {
		p := pos[i].Add(shift)
		if !v.inFront(p) {
			continue
		}
		s := v.Project(p)
		dx, dy := s.X-at.X, s.Y-at.Y
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// inFront reports whether world point p is in front of the camera.
func (v *View) inFront(p mgl32.Vec3) bool {
	e, t := v.Camera.Position, v.Camera.Target
	fwd := mgl32.Vec3{t.X - e.X, t.Y - e.Y, t.Z - e.Z}
	return p.Sub(mgl32.Vec3{e.X, e.Y, e.Z}).Dot(fwd) > 0
}

// DrawJointLabels names the joints of skeleton sk (positions pos in m,
// shifted by shift): the one under the mouse, the picked one (ringed), and
// when the user asked for every label, as many more as can be read (see
// jointLabels), none of those but the hovered and picked over the
// rectangles in avoid (the lab's plots and readouts: call it before
// drawing them, so they cover those two). It returns the joint under the
// mouse, or -1.
func (v *View) DrawJointLabels(sk *animsys.Skeleton, pos []mgl32.Vec3, shift mgl32.Vec3, picked int, avoid ...rl.Rectangle) int {
	hover := v.JointAt(pos, shift, v.Mouse)
	const size = ui.SmallText
	labels := v.jointLabels(sk, pos, shift, picked, hover, func(s string) float32 { return ui.Measure(s, size) }, avoid...)
	// Least important first, so the hovered and the picked are on top.
	for i := len(labels) - 1; i >= 0; i-- {
		l := labels[i]
		col := render.DimText
		switch l.joint {
		case picked:
			rl.DrawCircleLinesV(v.Project(pos[picked].Add(shift)), 9, render.TargetColor)
			col = render.TargetColor
		case hover:
			col = render.TextColor
		}
		ui.DrawText(sk.Names[l.joint], l.rect.X, l.rect.Y, size, col)
	}
	return hover
}

// jointLabel is a joint's name placed on the screen (units).
type jointLabel struct {
	joint int
	rect  rl.Rectangle
}

// labelGap is the room (units) a joint label keeps from its joint and
// from other labels.
const labelGap = 2

// jointLabels places the labels DrawJointLabels draws, most important
// first, each in the first of four spots beside its joint (up right, down
// right, up left, down left) that overlaps no label placed before it: the
// hovered joint, the picked one, and with View.LabelJoints the picked
// joint's chain (its ancestors to the root and the path down to its end
// while the path does not branch), then the rest from the root outwards
// (nearest the centre of the screen first among joints as deep in the
// tree). A label with no free spot, or none in the lab's area, is left
// out, but for the hovered and the picked: on a skeleton of 73 joints the
// labels drawn are the ones that can be read. Joints behind the camera and
// the root are not labelled; width measures a name (units).
func (v *View) jointLabels(sk *animsys.Skeleton, pos []mgl32.Vec3, shift mgl32.Vec3, picked, hover int, width func(string) float32, avoid ...rl.Rectangle) []jointLabel {
	n := min(len(pos), sk.Len(), len(sk.Names))
	ok := func(i int) bool { return i > 0 && i < n && v.inFront(pos[i].Add(shift)) }
	order := []int{}
	seen := make([]bool, n)
	add := func(i int) {
		if ok(i) && !seen[i] {
			seen[i] = true
			order = append(order, i)
		}
	}
	add(hover)
	add(picked)
	must := len(order)
	if v.LabelJoints {
		if picked > 0 && picked < n {
			for i := sk.Parents[picked]; i > 0; i = sk.Parents[i] {
				add(i)
			}
			children := make([][]int, n)
			for i := 1; i < n; i++ {
				if p := sk.Parents[i]; p >= 0 && p < n {
					children[p] = append(children[p], i)
				}
			}
			for i := picked; len(children[i]) == 1; {
				i = children[i][0]
				add(i)
			}
		}
		depth := make([]int, n)
		centre := rl.Vector2{X: float32(v.Width) / 2, Y: float32(v.Height) / 2}
		dist := make([]float32, n)
		var rest []int
		for i := 1; i < n; i++ {
			if p := sk.Parents[i]; p >= 0 && p < i {
				depth[i] = depth[p] + 1
			}
			if ok(i) && !seen[i] {
				s := v.Project(pos[i].Add(shift))
				dist[i] = (s.X-centre.X)*(s.X-centre.X) + (s.Y-centre.Y)*(s.Y-centre.Y)
				rest = append(rest, i)
			}
		}
		sort.SliceStable(rest, func(a, b int) bool {
			i, j := rest[a], rest[b]
			if depth[i] != depth[j] {
				return depth[i] < depth[j]
			}
			return dist[i] < dist[j]
		})
		for _, i := range rest {
			add(i)
		}
	}
	// The labels only asked for stay in the lab's area, off the panels.
	screen := v.Area
	if screen.Width <= 0 || screen.Height <= 0 {
		screen = rl.Rectangle{Width: float32(v.Width), Height: float32(v.Height)}
	}
	const size = ui.SmallText
	var out []jointLabel
	for k, i := range order {
		s := v.Project(pos[i].Add(shift))
		w := width(sk.Names[i])
		spots := [...]rl.Rectangle{
			{X: s.X + 8, Y: s.Y - size - 2, Width: w, Height: size},
			{X: s.X + 8, Y: s.Y + 2, Width: w, Height: size},
			{X: s.X - 8 - w, Y: s.Y - size - 2, Width: w, Height: size},
			{X: s.X - 8 - w, Y: s.Y + 2, Width: w, Height: size},
		}
		placed := false
		for _, r := range spots {
			if k >= must && (!inside(r, screen) || overlapsRect(r, avoid)) {
				continue
			}
			if !overlapsAny(r, out) {
				out, placed = append(out, jointLabel{i, r}), true
				break
			}
		}
		if !placed && k < must {
			out = append(out, jointLabel{i, spots[0]})
		}
	}
	return out
}

// overlapsAny reports whether r, grown by labelGap, overlaps a label of ls.
func overlapsAny(r rl.Rectangle, ls []jointLabel) bool {
	g := rl.Rectangle{X: r.X - labelGap, Y: r.Y - labelGap, Width: r.Width + 2*labelGap, Height: r.Height + 2*labelGap}
	for _, l := range ls {
		if rl.CheckCollisionRecs(g, l.rect) {
			return true
		}
	}
	return false
}

// overlapsRect reports whether r overlaps one of rs.
func overlapsRect(r rl.Rectangle, rs []rl.Rectangle) bool {
	for _, b := range rs {
		if b.Width > 0 && b.Height > 0 && rl.CheckCollisionRecs(r, b) {
			return true
		}
	}
	return false
}

// inside reports whether r lies within box.
func inside(r, box rl.Rectangle) bool {
	return r.X >= box.X && r.Y >= box.Y && r.X+r.Width <= box.X+box.Width && r.Y+r.Height <= box.Y+box.Height
}

// JointAt returns the joint of pos (m, shifted by shift) the click is on,
// or -1 (see View.JointAt); -1 when the pointer is not a click.
func (ptr Pointer) JointAt(pos []mgl32.Vec3, shift mgl32.Vec3) int {
	if !ptr.Click || ptr.view == nil {
		return -1
	}
	return ptr.view.JointAt(pos, shift, ptr.At)
}
