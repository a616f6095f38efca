package bvh

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// still is how far (metres, radians) a joint may stray from its offset and
// from the identity rotation and still count as not moving.
const still = 1e-6

// Write writes clip c of skeleton sk as a BVH file, lengths divided by
// scale (metres per file unit, Units.Scale: 0.01 writes centimetres).
//
// Joints are written in depth-first order from each root (the skeleton's
// own order when it is already depth-first, as File.Skeleton's is). A root
// has six channels, "Xposition Yposition Zposition Zrotation Xrotation
// Yrotation"; any other joint has the three rotations, plus the positions
// in front when its position differs from its offset in some frame. Angles
// are ZXY Euler angles in degrees, each in [-180, 180], found without
// trouble at gimbal lock (Xrotation = +-90, where Yrotation is set to 0).
// Values are written as the shortest decimals that read back as the same
// float32s.
//
// A leaf that came from an End Site (named "<parent>_End", its parent's
// only child, never moving) is written back as that End Site. Any other
// leaf joint is followed by an End Site half its own offset further on, so
// reading the file back adds one "<leaf>_End" joint after it. Scales are
// not written (BVH has no scale channel), nor loop markers. Names lose line
// breaks and braces (replaced by '_') and surrounding blanks; an empty name
// becomes "Joint<index>".
func Write(w io.Writer, sk *animsys.Skeleton, c *animsys.Clip, scale float32) error {
	if err := checkWrite(sk, c, scale); err != nil {
		return err
	}
	pl := newPlan(sk, c)
	e := &encoder{w: bufio.NewWriterSize(w, 64<<10), sk: sk, c: c, pl: pl, scale: float64(scale)}
	e.str("HIERARCHY\n")
	for _, j := range pl.order {
		if sk.Parents[j] < 0 {
			e.joint(j, 0)
		}
	}
	e.str("MOTION\nFrames: ")
	e.b = strconv.AppendInt(e.b[:0], int64(c.Frames), 10)
	e.emit()
	e.str("\nFrame Time: ")
	e.b = strconv.AppendFloat(e.b[:0], float64(c.FrameTime), 'g', -1, 32)
	e.emit()
	e.str("\n")
	for f := 0; f < c.Frames && e.err == nil; f++ {
		e.frame(f)
	}
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

func checkWrite(sk *animsys.Skeleton, c *animsys.Clip, scale float32) error {
	if err := sk.Validate(); err != nil {
		return fmt.Errorf("bvh: %w", err)
	}
	n := sk.Len()
	switch {
	case n == 0:
		return errors.New("bvh: the skeleton has no joints")
	case !(scale > 0) || math.IsInf(float64(scale), 0):
		return fmt.Errorf("bvh: scale %g: want a positive number of metres per unit", scale)
	case c.Joints != n:
		return fmt.Errorf("bvh: clip %q has %d joints, the skeleton %d", c.Name, c.Joints, n)
	case c.Frames < 0 || len(c.Rot) < c.Frames*n:
		return fmt.Errorf("bvh: clip %q: %d frames of %d joints need %d rotations, have %d",
			c.Name, c.Frames, n, c.Frames*n, len(c.Rot))
	case !(c.FrameTime > 0) || math.IsInf(float64(c.FrameTime), 0):
		return fmt.Errorf("bvh: clip %q: frame time %g: want a positive number of seconds", c.Name, c.FrameTime)
	}
	for j, o := range sk.Offsets {
		for _, v := range o {
			if u := math.Abs(float64(v) / float64(scale)); !(u <= math.MaxFloat32) {
				return fmt.Errorf("bvh: joint %q: offset %v is not a finite float32 in file units", sk.Names[j], o)
			}
		}
	}
	return nil
}

// plan is how each joint is written.
type plan struct {
	order    []int   // joints in depth-first order
	children [][]int // per joint, in index order
	endSite  []bool  // written as an End Site of its parent
	position []bool  // written with position channels
}

func newPlan(sk *animsys.Skeleton, c *animsys.Clip) plan {
	n := sk.Len()
	pl := plan{children: make([][]int, n), endSite: make([]bool, n), position: make([]bool, n)}
	var roots []int
	for j, p := range sk.Parents {
		if p < 0 {
			roots = append(roots, j)
		} else {
			pl.children[p] = append(pl.children[p], j)
		}
	}
	stack := make([]int, 0, n)
	for r := len(roots) - 1; r >= 0; r-- {
		stack = append(stack, roots[r])
	}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pl.order = append(pl.order, j)
		for k := len(pl.children[j]) - 1; k >= 0; k-- {
			stack = append(stack, pl.children[j][k])
		}
	}
	for j, p := range sk.Parents {
		moves, turns := p < 0, false
		for f := 0; f < c.Frames && !(moves && turns); f++ {
			i := c.At(f, j)
			d, q := c.PosAt(f, j).Sub(sk.Offsets[j]), c.Rot[i]
			moves = moves || !(max(abs(d[0]), abs(d[1]), abs(d[2])) <= still)
			turns = turns || !(max(abs(q.V[0]), abs(q.V[1]), abs(q.V[2])) <= still/2)
		}
		pl.position[j] = moves
		pl.endSite[j] = p >= 0 && !moves && !turns && len(pl.children[j]) == 0 &&
			len(pl.children[p]) == 1 && sk.Names[j] == sk.Names[p]+"_End"
	}
	return pl
}

func abs(x float32) float32 { return float32(math.Abs(float64(x))) }

// cleanName makes a joint name safe to write (see Write).
func cleanName(name string, j int) string {
	name = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '{' || r == '}' {
			return '_'
		}
		return r
	}, name)
	name = strings.Trim(name, " \t\v\f")
	if name == "" {
		name = "Joint" + strconv.Itoa(j)
	}
	return name
}

// encoder writes through a buffered writer, keeping the first error; a
// line is built in b, then emitted.
type encoder struct {
	w     *bufio.Writer
	sk    *animsys.Skeleton
	c     *animsys.Clip
	pl    plan
	scale float64
	b     []byte // scratch line
	err   error
}

func (e *encoder) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *encoder) emit() {
	if e.err == nil {
		_, e.err = e.w.Write(e.b)
	}
	e.b = e.b[:0]
}

// indent starts a line at depth d (tabs, at most 32).
func (e *encoder) indent(d int) {
	e.b = e.b[:0]
	for range min(d, 32) {
		e.b = append(e.b, '\t')
	}
}

// joint writes joint j and its subtree at depth d.
func (e *encoder) joint(j, d int) {
	e.indent(d)
	if e.sk.Parents[j] < 0 {
		e.b = append(e.b, "ROOT "...)
	} else {
		e.b = append(e.b, "JOINT "...)
	}
	e.b = append(e.b, cleanName(e.sk.Names[j], j)...)
	e.b = append(e.b, '\n')
	e.emit()
	e.indent(d)
	e.b = append(e.b, "{\n"...)
	e.emit()
	e.offset(e.sk.Offsets[j], d+1, 1)
	e.indent(d + 1)
	if e.pl.position[j] {
		e.b = append(e.b, "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"...)
	} else {
		e.b = append(e.b, "CHANNELS 3 Zrotation Xrotation Yrotation\n"...)
	}
	e.emit()
	for _, k := range e.pl.children[j] {
		if e.pl.endSite[k] {
			e.endSite(k, d+1, 1)
		} else {
			e.joint(k, d+1)
		}
	}
	if len(e.pl.children[j]) == 0 {
		e.endSite(j, d+1, 0.5) // the tip of a leaf joint
	}
	e.indent(d)
	e.b = append(e.b, "}\n"...)
	e.emit()
}

// endSite writes an End Site at joint j's offset times frac.
func (e *encoder) endSite(j, d int, frac float32) {
	e.indent(d)
	e.b = append(e.b, "End Site\n"...)
	e.emit()
	e.indent(d)
	e.b = append(e.b, "{\n"...)
	e.emit()
	e.offset(e.sk.Offsets[j], d+1, frac)
	e.indent(d)
	e.b = append(e.b, "}\n"...)
	e.emit()
}

// offset writes an OFFSET line of v times frac, in file units.
func (e *encoder) offset(v mgl32.Vec3, d int, frac float32) {
	e.indent(d)
	e.b = append(e.b, "OFFSET"...)
	for k := range 3 {
		e.b = append(e.b, ' ')
		e.b = appendNum(e.b, float64(v[k]*frac)/e.scale)
	}
	e.b = append(e.b, '\n')
	e.emit()
}

// frame writes frame f's values on one line.
func (e *encoder) frame(f int) {
	e.b = e.b[:0]
	for _, j := range e.pl.order {
		if e.pl.endSite[j] {
			continue
		}
		i := e.c.At(f, j)
		if e.pl.position[j] {
			p := e.c.PosAt(f, j)
			for k := range 3 {
				v := float64(p[k]) / e.scale
				if math.IsNaN(v) || math.Abs(v) > math.MaxFloat32 {
					e.err = fmt.Errorf("bvh: clip %q frame %d joint %q: position %v is not a finite float32 in file units",
						e.c.Name, f, e.sk.Names[j], p)
					return
				}
				e.b = appendNum(e.sep(), v)
			}
		}
		z, x, y, ok := eulerZXY(e.c.Rot[i])
		if !ok {
			e.err = fmt.Errorf("bvh: clip %q frame %d joint %q: rotation %v is not a finite, non-zero quaternion",
				e.c.Name, f, e.sk.Names[j], e.c.Rot[i])
			return
		}
		for _, a := range [3]float64{z, x, y} {
			e.b = appendNum(e.sep(), a*180/math.Pi)
		}
	}
	e.b = append(e.b, '\n')
	e.emit()
}

// sep returns the line so far with a space after it, if it is not empty.
func (e *encoder) sep() []byte {
	if len(e.b) == 0 {
		return e.b
	}
	return append(e.b, ' ')
}

// appendNum appends v as the shortest decimal that reads back as the same
// float32, in plain (not scientific) notation.
func appendNum(b []byte, v float64) []byte {
	start := len(b)
	b = strconv.AppendFloat(b, float64(float32(v)), 'f', -1, 32)
	if string(b[start:]) == "-0" {
		b = append(b[:start], '0')
	}
	return b
}

// eulerZXY returns the angles (radians) with Rz(z)*Rx(x)*Ry(y) = q, x in
// [-pi/2, pi/2]. With R that matrix, R21 = sin x, (R20, R22) = cos x
// (-sin y, cos y) and (R01, R11) = cos x (-sin z, cos z). At gimbal lock
// (cos x ~ 0) only z+y (x = pi/2) or z-y (x = -pi/2) is defined: y is 0
// and z = atan2(R10, R00). The threshold 1e-8 balances the two errors:
// below it the rotation is off by at most cos x, above it by at most the
// float64 rounding of R divided by cos x; both stay under 1e-8 rad. ok is
// false for a non-finite or zero quaternion.
func eulerZXY(q mgl32.Quat) (z, x, y float64, ok bool) {
	w, qx, qy, qz := float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])
	l := math.Sqrt(w*w + qx*qx + qy*qy + qz*qz)
	if !(l > 0) || math.IsInf(l, 0) {
		return 0, 0, 0, false
	}
	w, qx, qy, qz = w/l, qx/l, qy/l, qz/l
	r00 := 1 - 2*(qy*qy+qz*qz)
	r01 := 2 * (qx*qy - w*qz)
	r10 := 2 * (qx*qy + w*qz)
	r11 := 1 - 2*(qx*qx+qz*qz)
	r20 := 2 * (qx*qz - w*qy)
	r21 := 2 * (qy*qz + w*qx)
	r22 := 1 - 2*(qx*qx+qy*qy)
	cx := math.Hypot(r20, r22)
	x = math.Atan2(r21, cx)
	if cx > 1e-8 {
		return math.Atan2(-r01, r11), x, math.Atan2(-r20, r22), true
	}
	return math.Atan2(r10, r00), x, 0, true
}
