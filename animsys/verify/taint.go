package verify

import "kinelab/animsys"

// taint marks, per frame interval of a clip, the joints with a data jump
// there (own) and the joints with a jump at themselves or an ancestor
// (tree); nil rows for clean intervals.
type taint struct {
	own, tree [][]bool
}

func newTaint(parents []int, c *animsys.Clip, events []animsys.DataEvent) *taint {
	t := &taint{own: make([][]bool, c.Frames), tree: make([][]bool, c.Frames)}
	for _, e := range events {
		if t.own[e.Frame] == nil {
			t.own[e.Frame] = make([]bool, c.Joints)
			t.tree[e.Frame] = make([]bool, c.Joints)
		}
		t.own[e.Frame][e.JointIndex] = true
	}
	for f, own := range t.own {
		if own == nil {
			continue
		}
		for j, p := range parents {
			t.tree[f][j] = own[j] || (p >= 0 && t.tree[f][p])
		}
	}
	return t
}

// mark sets skip[j] for the joints whose samples through read r see a
// data jump: cubic sampling in interval k reads frames k-1 .. k+2, so
// jumps in intervals k-1, k and k+1 (linear: k only); with hierarchy,
// jumps of ancestors too.
func (t *taint) mark(skip []bool, r Read, hierarchy bool) {
	if t == nil {
		return
	}
	k := interval(r.Clip, r.Time)
	lo, hi := k-1, k+1
	if r.Linear {
		lo, hi = k, k
	}
	rows := t.own
	if hierarchy {
		rows = t.tree
	}
	for f := max(lo, 0); f <= min(hi, len(rows)-1); f++ {
		for j, x := range rows[f] {
			skip[j] = skip[j] || x
		}
	}
}
