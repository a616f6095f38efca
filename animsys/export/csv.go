package export

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
)

// Quantity is one exported value per joint and frame: a vector (3) or a
// quaternion (4, w first), with its unit.
type Quantity struct {
	Name string // e.g. "world_vel"
	Dim  int    // 3, or 4 for rotations (w, x, y, z)
	Unit string // "m", "m/s", "rad/s", "1/s"; "" for rotations and scales
	vec  func(f *Frame) []mgl32.Vec3
	quat func(f *Frame) []mgl32.Quat
}

// Quantities lists what an export with header h holds per joint and frame,
// in the order of the CSV columns: the local pose (position, rotation,
// scale, linear, angular and scalar velocity), the world pose, then with
// FD the finite differences of local and world velocities.
func Quantities(h *Header) []Quantity {
	l := h.Units
	qs := []Quantity{
		{"local_pos", 3, l, func(f *Frame) []mgl32.Vec3 { return f.Local.Pos }, nil},
		{"local_rot", 4, "", nil, func(f *Frame) []mgl32.Quat { return f.Local.Rot }},
		{"local_scl", 3, "", func(f *Frame) []mgl32.Vec3 { return f.Local.Scl }, nil},
		{"local_vel", 3, l + "/s", func(f *Frame) []mgl32.Vec3 { return f.Local.Vel }, nil},
		{"local_ang", 3, "rad/s", func(f *Frame) []mgl32.Vec3 { return f.Local.Ang }, nil},
		{"local_svl", 3, "1/s", func(f *Frame) []mgl32.Vec3 { return f.Local.Svl }, nil},
		{"world_pos", 3, l, func(f *Frame) []mgl32.Vec3 { return f.World.Pos }, nil},
		{"world_rot", 4, "", nil, func(f *Frame) []mgl32.Quat { return f.World.Rot }},
		{"world_scl", 3, "", func(f *Frame) []mgl32.Vec3 { return f.World.Scl }, nil},
		{"world_vel", 3, l + "/s", func(f *Frame) []mgl32.Vec3 { return f.World.Vel }, nil},
		{"world_ang", 3, "rad/s", func(f *Frame) []mgl32.Vec3 { return f.World.Ang }, nil},
		{"world_svl", 3, "1/s", func(f *Frame) []mgl32.Vec3 { return f.World.Svl }, nil},
	}
	if h.FD {
		qs = append(qs,
			Quantity{"local_vel_fd", 3, l + "/s", func(f *Frame) []mgl32.Vec3 { return f.LocalFD.Vel }, nil},
			Quantity{"local_ang_fd", 3, "rad/s", func(f *Frame) []mgl32.Vec3 { return f.LocalFD.Ang }, nil},
			Quantity{"local_svl_fd", 3, "1/s", func(f *Frame) []mgl32.Vec3 { return f.LocalFD.Svl }, nil},
			Quantity{"world_vel_fd", 3, l + "/s", func(f *Frame) []mgl32.Vec3 { return f.WorldFD.Vel }, nil},
			Quantity{"world_ang_fd", 3, "rad/s", func(f *Frame) []mgl32.Vec3 { return f.WorldFD.Ang }, nil},
			Quantity{"world_svl_fd", 3, "1/s", func(f *Frame) []mgl32.Vec3 { return f.WorldFD.Svl }, nil},
		)
	}
	return qs
}

// appendValues appends joint j's components of q in frame f to dst: x, y,
// z, or w, x, y, z.
func (q *Quantity) appendValues(dst []float32, f *Frame, j int) []float32 {
	if q.quat != nil {
		r := q.quat(f)[j]
		return append(dst, r.W, r.V[0], r.V[1], r.V[2])
	}
	v := q.vec(f)[j]
	return append(dst, v[0], v[1], v[2])
}

// Columns names the CSV columns of q, each component with the unit, e.g.
// "world_vel_x_m/s", "local_rot_w".
func (q *Quantity) Columns() []string {
	comps := []string{"x", "y", "z"}
	if q.Dim == 4 {
		comps = []string{"w", "x", "y", "z"}
	}
	out := make([]string, len(comps))
	for i, c := range comps {
		out[i] = q.Name + "_" + c
		if q.Unit != "" {
			out[i] += "_" + q.Unit
		}
	}
	return out
}

// CSVFloat formats a float32 for CSV with the fewest digits that parse
// back to the same value: the one number format of kinelab's CSV files
// (the exports' values, the labs' --csv, matching eval's --dump).
func CSVFloat(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }

// CSVTime formats a simulated time (s) for a CSV's first column: to the
// microsecond, so a time that 1/60 s steps add up to reads 0.016667.
func CSVTime(t float64) string { return strconv.FormatFloat(t, 'f', 6, 64) }

// CSVWriter writes an export as CSV: a header row naming every column
// with its unit, then one row per frame and joint (frame-major): frame,
// time_s, joint (index), name, parent, then the Quantities' components.
// Values are the shortest decimals that read back as the same float32.
type CSVWriter struct {
	w     *bufio.Writer
	qs    []Quantity
	names []string // quoted where CSV needs it
	par   []int
	buf   []byte
	vals  []float32
}

// NewCSVWriter writes CSV to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: bufio.NewWriterSize(w, 1<<16)} }

// Begin writes the header row.
func (c *CSVWriter) Begin(h *Header) error {
	c.qs, c.par = Quantities(h), h.Parents
	c.names = make([]string, len(h.Joints))
	for i, n := range h.Joints {
		c.names[i] = csvField(n)
	}
	cols := []string{"frame", "time_s", "joint", "name", "parent"}
	for i := range c.qs {
		cols = append(cols, c.qs[i].Columns()...)
	}
	_, err := c.w.WriteString(strings.Join(cols, ",") + "\n")
	return err
}

// Frame writes one row per joint.
func (c *CSVWriter) Frame(f *Frame) error {
	for j, name := range c.names {
		b := strconv.AppendInt(c.buf[:0], int64(f.Index), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, f.Time, 'g', 10, 64)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, ',')
		b = append(b, name...)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c.par[j]), 10)
		vals := c.vals[:0]
		for i := range c.qs {
			vals = c.qs[i].appendValues(vals, f, j)
		}
		for _, v := range vals {
			b = append(b, ',')
			b = strconv.AppendFloat(b, float64(v), 'g', -1, 32)
		}
		b = append(b, '\n')
		c.buf, c.vals = b, vals
		if _, err := c.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// End flushes the output.
func (c *CSVWriter) End() error { return c.w.Flush() }

// csvField quotes s as CSV needs (RFC 4180) when it holds a comma, quote
// or line break.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
