package matching

// DatabaseBytes is the memory a Database holds (bytes), by part: its own
// slices, not the source's clips, which it shares.
type DatabaseBytes struct {
	Raw        int // the raw features, every group
	Normalised int // each set's normalised, weighted matrix (its index's rows)
	Tree       int // the indexes' trees: boxes, nodes, row-frame maps
	Flags      int // Searchable
	Roots      int // the smoothed root clips, their Prepare caches included
	Other      int // starts, means and the like
}

// Total is the sum of the parts.
func (b DatabaseBytes) Total() int {
	return b.Raw + b.Normalised + b.Tree + b.Flags + b.Roots + b.Other
}

// Bytes counts the memory db holds, by the lengths of its slices.
func (db *Database) Bytes() DatabaseBytes {
	var b DatabaseBytes
	for g := range db.raw {
		b.Raw += 4 * len(db.raw[g])
		b.Other += 4 * len(db.mean[g])
	}
	b.Raw += 4 * len(db.rootSpeed)
	b.Flags = len(db.Searchable)
	b.Other += 8*len(db.Start) + 8*len(db.kids)
	for c := range db.roots {
		b.Roots += db.roots[c].Bytes()
	}
	for s := range db.sets {
		si := &db.sets[s]
		if s == int(Exact) { // InertialSet's, shared
			continue
		}
		if si.index != nil {
			rows, tree := si.index.bytes()
			b.Normalised += rows
			b.Tree += tree
		}
	}
	return b
}
