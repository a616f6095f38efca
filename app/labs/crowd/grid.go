package crowd

import (
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// grid is where the crowd stands: a cell per character on a grid of cols
// x rows centred on the origin, filled row by row from the back (-z), and
// the shift that stands each character in its cell.
type grid struct {
	cells       []mgl32.Vec3
	shift       []mgl32.Vec3 // added to character i's global positions to stand it in its cell
	order       []int        // characters by distance of their cell from the grid centre
	cols, rows  int
	laidSpacing float32 // Settings.Spacing of the cells' layout
}

// resize makes the grid n cells, spacing sp (m) apart, the nearest the
// centre first in order; Spacing is the setting sp comes from.
func (g *grid) resize(n int, spacing, sp float32) {
	g.cells = make([]mgl32.Vec3, n)
	g.shift = make([]mgl32.Vec3, n)
	g.cols = int(math.Ceil(math.Sqrt(float64(n))))
	g.rows = (n + g.cols - 1) / g.cols
	g.order = make([]int, n)
	for i := range g.order {
		g.order[i] = i
	}
	g.layout(spacing, sp)
	d := func(i int) float32 { return g.cells[i][0]*g.cells[i][0] + g.cells[i][2]*g.cells[i][2] }
	sort.SliceStable(g.order, func(a, b int) bool { return d(g.order[a]) < d(g.order[b]) })
}

// layout puts character i's cell on the grid, sp (m) apart; spacing is
// the setting sp comes from.
func (g *grid) layout(spacing, sp float32) {
	g.laidSpacing = spacing
	for i := range g.cells {
		col, row := i%g.cols, i/g.cols
		g.cells[i] = mgl32.Vec3{(float32(col) - float32(g.cols-1)/2) * sp, 0, (float32(row) - float32(g.rows-1)/2) * sp}
	}
}

// place stands every character in its cell: its root's ground position
// is moved to the cell centre (its root motion is dropped, so it walks in
// place), keeping its height and everything above the root.
func (g *grid) place(chars []*animsys.BenchCharacter) {
	for i, c := range chars {
		r := current(c).Pos[0]
		g.shift[i] = mgl32.Vec3{g.cells[i][0] - r[0], 0, g.cells[i][2] - r[2]}
	}
}
