package humanoid

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The joint tree Classify and Read measure: children, depths, and bone
// lengths taken as medians over posed frames, with the walks along it.

// tree is a joint hierarchy with lengths measured on posed frames.
type tree struct {
	parents []int
	names   []string // lower case, without a namespace prefix ("mixamorig:")
	raw     []string // as given, for the case of side letters ("lFoot"); "" for none
	given   []string // the names as passed (nil for none)
	kids    [][]int
	depth   []int
	bone    []float32 // median distance from each joint to its parent over the frames
	down    []float32 // the longest bone-length sum from each joint down to a leaf
	far     []int     // the leaf that longest way down from each joint ends at
	size    float32   // the longest path between two joints (bone lengths summed)
}

func newTree(parents []int, names []string, frames [][]mgl32.Vec3) (*tree, error) {
	n := len(parents)
	if n == 0 {
		return nil, errors.New("humanoid: no joints")
	}
	t := &tree{parents: parents, given: names, names: make([]string, n), raw: make([]string, n), kids: make([][]int, n),
		depth: make([]int, n), bone: make([]float32, n)}
	for j, p := range parents {
		if p < -1 || p >= j {
			return nil, fmt.Errorf("humanoid: joint %d has parent %d; want -1 <= parent < %d", j, p, j)
		}
		if j < len(names) {
			t.raw[j] = names[j]
			nm := names[j]
			if i := strings.LastIndexByte(nm, ':'); i >= 0 {
				nm = nm[i+1:]
			}
			t.names[j] = strings.ToLower(nm)
		}
		if p >= 0 {
			t.kids[p] = append(t.kids[p], j)
			t.depth[j] = t.depth[p] + 1
		}
	}
	for _, fr := range frames {
		if len(fr) != n {
			return nil, fmt.Errorf("humanoid: a frame has %d joints, the skeleton %d", len(fr), n)
		}
	}
	d := make([]float32, len(frames))
	reach := make([]float32, n)
	for j := n - 1; j >= 0; j-- {
		if p := parents[j]; p >= 0 {
			for k, fr := range frames {
				d[k] = fr[j].Sub(fr[p]).Len()
			}
			t.bone[j] = mathx.Median(d)
		}
	}
	// The size: the longest path through any joint is its two longest
	// ways down (the tree's diameter), whichever joint is the root.
	t.far = make([]int, n)
	for j := n - 1; j >= 0; j-- {
		var a, b float32
		t.far[j] = j
		best := float32(-1)
		for _, c := range t.kids[j] {
			l := reach[c] + t.bone[c]
			if l > best { // the child longest follows
				best, t.far[j] = l, t.far[c]
			}
			switch {
			case l > a:
				a, b = l, a
			case l > b:
				b = l
			}
		}
		reach[j] = a
		t.size = max(t.size, a+b)
	}
	t.down = reach
	return t, nil
}

// isAncestor reports whether a is b or above it.
func (t *tree) isAncestor(a, b int) bool {
	for ; b >= 0; b = t.parents[b] {
		if a == b {
			return true
		}
	}
	return false
}

// lca is the lowest common ancestor of a and b, -1 if in different trees.
func (t *tree) lca(a, b int) int {
	for t.depth[a] > t.depth[b] {
		a = t.parents[a]
	}
	for t.depth[b] > t.depth[a] {
		b = t.parents[b]
	}
	for a != b && a >= 0 && b >= 0 {
		a, b = t.parents[a], t.parents[b]
	}
	if a != b {
		return -1
	}
	return a
}

// path lists the joints from a (excluded) down to its descendant b (included).
func (t *tree) path(a, b int) []int {
	var p []int
	for j := b; j != a && j >= 0; j = t.parents[j] {
		p = append(p, j)
	}
	for i, k := 0, len(p)-1; i < k; i, k = i+1, k-1 {
		p[i], p[k] = p[k], p[i]
	}
	return p
}

// longest follows, from j, the child with the longest way down to a leaf,
// and returns the joints after j.
func (t *tree) longest(j int) []int {
	var p []int
	for len(t.kids[j]) > 0 {
		best, bl := -1, float32(-1)
		for _, c := range t.kids[j] {
			if l := t.bone[c] + t.reach(c); l > bl {
				best, bl = c, l
			}
		}
		p = append(p, best)
		j = best
	}
	return p
}

// reach is the longest bone-length sum from j down to a leaf.
func (t *tree) reach(j int) float32 { return t.down[j] }

// zero reports whether the bone to j is too short to turn anything: a
// joint that shares its parent's place (CMU's LHipJoint, twist joints).
func (t *tree) zero(j int) bool { return t.bone[j] <= 1e-3*t.size }

// placeOf is the first joint at j's place: j's ancestor reached through
// zero-length bones, stopping at stop.
func (t *tree) placeOf(j, stop int) int {
	for j != stop && t.parents[j] >= 0 && t.parents[j] != stop && t.zero(j) {
		j = t.parents[j]
	}
	return j
}

// above is the joint at the other end of the bone ending at j's place:
// the place of the first ancestor of j's place that is somewhere else.
func (t *tree) above(j, stop int) int {
	j = t.placeOf(j, stop)
	if j == stop || t.parents[j] < 0 {
		return -1
	}
	return t.placeOf(t.parents[j], stop)
}
