package export

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
)

// npyArray is one entry of a .npz archive, read by readNPZ.
type npyArray struct {
	descr string
	shape []int
	data  []byte
}

var npyDict = regexp.MustCompile(`^\{'descr': '([^']+)', 'fortran_order': False, 'shape': \(([0-9, ]*)\), \}\s*$`)

// readNPZ reads a .npz archive as numpy.load would: every entry a .npy
// file, format 1.0 or 2.0, C order. It is the test's own reader, written
// from the format's description, not the writer's code.
func readNPZ(t *testing.T, path string) map[string]npyArray {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	out := map[string]npyArray{}
	for _, f := range z.File {
		if f.Method != zip.Store {
			t.Errorf("%s is compressed (method %d); numpy.savez stores", f.Name, f.Method)
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if len(b) < 10 || string(b[:6]) != "\x93NUMPY" {
			t.Fatalf("%s: no .npy magic", f.Name)
		}
		var hl, pre int
		switch b[6] {
		case 1:
			hl, pre = int(binary.LittleEndian.Uint16(b[8:])), 10
		case 2:
			hl, pre = int(binary.LittleEndian.Uint32(b[8:])), 12
		default:
			t.Fatalf("%s: .npy version %d", f.Name, b[6])
		}
		if (pre+hl)%64 != 0 || b[pre+hl-1] != '\n' {
			t.Errorf("%s: header of %d bytes is not 64-aligned and newline-terminated", f.Name, pre+hl)
		}
		m := npyDict.FindStringSubmatch(string(b[pre : pre+hl]))
		if m == nil {
			t.Fatalf("%s: header %q", f.Name, b[pre:pre+hl])
		}
		a := npyArray{descr: m[1], data: b[pre+hl:]}
		for _, s := range strings.Split(m[2], ",") {
			if s = strings.TrimSpace(s); s != "" {
				n, _ := strconv.Atoi(s)
				a.shape = append(a.shape, n)
			}
		}
		size := 1
		for _, n := range a.shape {
			size *= n
		}
		item := map[string]int{"<f4": 4, "<f8": 8, "<i4": 4, "|b1": 1}[a.descr]
		if strings.HasPrefix(a.descr, "<U") {
			w, _ := strconv.Atoi(a.descr[2:])
			item = 4 * w
		}
		if item == 0 || len(a.data) != size*item {
			t.Fatalf("%s: %s %v holds %d bytes", f.Name, a.descr, a.shape, len(a.data))
		}
		out[strings.TrimSuffix(f.Name, ".npy")] = a
	}
	return out
}

func (a npyArray) f32(i int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(a.data[4*i:]))
}

func (a npyArray) f64(i int) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(a.data[8*i:]))
}

func (a npyArray) i32(i int) int32 { return int32(binary.LittleEndian.Uint32(a.data[4*i:])) }

// strings decodes a <U array.
func (a npyArray) strings() []string {
	w, _ := strconv.Atoi(a.descr[2:])
	var out []string
	for i := 0; i < len(a.data); i += 4 * w {
		var sb strings.Builder
		for k := 0; k < w; k++ {
			if r := rune(binary.LittleEndian.Uint32(a.data[i+4*k:])); r != 0 {
				sb.WriteRune(r)
			}
		}
		out = append(out, sb.String())
	}
	return out
}

// vec3 is element (frame, joint) of a (frames, joints, 3) array.
func (a npyArray) vec3(f, j int) mgl32.Vec3 {
	i := (f*a.shape[1] + j) * 3
	return mgl32.Vec3{a.f32(i), a.f32(i + 1), a.f32(i + 2)}
}

// quat is element (frame, joint) of a (frames, joints, 4) array, w first.
func (a npyArray) quat(f, j int) mgl32.Quat {
	i := (f*a.shape[1] + j) * 4
	return mgl32.Quat{W: a.f32(i), V: mgl32.Vec3{a.f32(i + 1), a.f32(i + 2), a.f32(i + 3)}}
}

// synthSkeleton is a 59-joint skeleton: the bench-spec humanoid and, on
// each hand, a two-joint thumb and four four-joint fingers, 2-3 cm apart.
func synthSkeleton() animsys.Skeleton {
	sk := animsys.BenchSkeleton()
	for _, hand := range []struct {
		j    int
		side string
		x    float32
	}{{18, "Left", 1}, {22, "Right", -1}} {
		for finger, name := range []string{"Thumb", "Index", "Middle", "Ring", "Pinky"} {
			n := 4
			if finger == 0 {
				n = 2
			}
			parent := hand.j
			for k := 1; k <= n; k++ {
				off := mgl32.Vec3{0.025 * hand.x, 0, 0}
				if k == 1 {
					off = mgl32.Vec3{0.06 * hand.x, 0, 0.03 - 0.015*float32(finger)}
				}
				sk.Names = append(sk.Names, fmt.Sprintf("%sHand%s%d", hand.side, name, k))
				sk.Parents = append(sk.Parents, parent)
				sk.Offsets = append(sk.Offsets, off)
				parent = len(sk.Parents) - 1
			}
		}
	}
	return sk
}

// writeSynthBVH writes a mocap-like file of the 59-joint synthSkeleton in
// centimetres at 120 fps: each rotation channel a sum of two sines (up to
// 40 degrees, 0.2-2 Hz), the root walking forward at 1.2 m/s and swaying.
// It writes one frame at a time, so a file of any length costs no memory.
func writeSynthBVH(w io.Writer, frames int) error {
	sk := synthSkeleton()
	rest := animsys.NewClip("rest", 1, sk.Len(), 1)
	for j, o := range sk.Offsets {
		rest.SetPos(0, j, o)
	}
	var head strings.Builder
	if err := bvh.Write(&head, &sk, &rest, bvh.Centimetres.Scale()); err != nil {
		return err
	}
	h := head.String()
	h = h[:strings.Index(h, "MOTION\n")]
	f, err := bvh.Parse(strings.NewReader(h+"MOTION\nFrames: 0\nFrame Time: 0.0083333\n"), "synth.bvh")
	if err != nil {
		return err
	}
	type channel struct {
		rot, root   bool
		axis        int
		amp, fr, ph [2]float64
	}
	var chans []channel
	rng := rand.New(rand.NewPCG(3, 4))
	for _, j := range f.Joints {
		for _, c := range j.Channels {
			ch := channel{rot: c.IsRotation(), root: j.Parent < 0, axis: c.Axis()}
			for k := range 2 {
				ch.amp[k] = 20 * rng.Float64()
				ch.fr[k] = 0.2 + 1.8*rng.Float64()
				ch.ph[k] = 2 * math.Pi * rng.Float64()
			}
			chans = append(chans, ch)
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(h + "MOTION\nFrames: " + strconv.Itoa(frames) + "\nFrame Time: 0.0083333\n")
	line := make([]byte, 0, 2048)
	for fr := 0; fr < frames; fr++ {
		t := float64(fr) * 0.0083333
		line = line[:0]
		for i, c := range chans {
			v := c.amp[0]*math.Sin(2*math.Pi*c.fr[0]*t+c.ph[0]) + c.amp[1]*math.Sin(2*math.Pi*c.fr[1]*t+c.ph[1])
			if !c.rot {
				v = [3]float64{v, 95 + 0.1*v, 120 * t}[c.axis]
			}
			if i > 0 {
				line = append(line, ' ')
			}
			line = strconv.AppendFloat(line, v, 'f', 4, 64)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// synthFile writes and parses a synthetic file of the given frames.
func synthFile(t testing.TB, frames int) *bvh.File {
	t.Helper()
	path := t.TempDir() + "/synth.bvh"
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeSynthBVH(out, frames); err != nil {
		t.Fatal(err)
	}
	out.Close()
	f, err := bvh.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
