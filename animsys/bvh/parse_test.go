package bvh

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/go-gl/mathgl/mgl32"
)

// parseFile parses a fixture, naming it by its base name.
func parseFile(t testing.TB, path string) (*File, error) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(bytes.NewReader(b), filepath.Base(path))
}

func mustParse(t testing.TB, path string) *File {
	t.Helper()
	f, err := parseFile(t, path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

func TestBasic(t *testing.T) {
	f := mustParse(t, "testdata/basic.bvh")
	if f.Name != "basic.bvh" || f.Frames != 3 || f.FrameTime != 0.033333 || f.Channels != 18 || len(f.Motion) != 54 {
		t.Fatalf("got %q, %d frames, %g s, %d channels, %d values", f.Name, f.Frames, f.FrameTime, f.Channels, len(f.Motion))
	}
	zxy := []Channel{Zrotation, Xrotation, Yrotation}
	want := []Joint{
		{Name: "Hips", Parent: -1, Channels: []Channel{Xposition, Yposition, Zposition, Zrotation, Xrotation, Yrotation}},
		{Name: "Chest", Parent: 0, Offset: mgl32.Vec3{0, 10, 0}, Channels: zxy, First: 6},
		{Name: "Head", Parent: 1, Offset: mgl32.Vec3{0, 15, 0}, Channels: zxy, First: 9},
		{Name: "Head_End", Parent: 2, Offset: mgl32.Vec3{0, 8, 0}, First: 12, EndSite: true},
		{Name: "LeftLeg", Parent: 0, Offset: mgl32.Vec3{8, 0, 0}, Channels: zxy, First: 12},
		{Name: "LeftFoot", Parent: 4, Offset: mgl32.Vec3{0, -40, 0}, Channels: zxy, First: 15},
		{Name: "LeftFoot_End", Parent: 5, Offset: mgl32.Vec3{0, -5, 10}, First: 18, EndSite: true},
	}
	if !reflect.DeepEqual(f.Joints, want) {
		t.Fatalf("joints\n got %+v\nwant %+v", f.Joints, want)
	}
	row := []float32{1, 91, 2, 10, 20, 30, -5, 0, 5, 0, 45, 0, 15, 0, 0, 0, 0, -15}
	if !reflect.DeepEqual(f.Row(1), row) {
		t.Fatalf("frame 2: %v", f.Row(1))
	}
	if f.Value(2, 5, 2) != 15 || f.Roots() != 1 || f.EndSites() != 2 || f.Joints[0].Order() != "Xposition Yposition Zposition Zrotation Xrotation Yrotation" {
		t.Fatal("Value, Roots, EndSites or Order")
	}
}

// Files that write basic.bvh's content another way parse to the same File.
func TestConventionsOfBasic(t *testing.T) {
	basic := mustParse(t, "testdata/basic.bvh")
	for _, name := range []string{
		"crlf.bvh",         // CRLF line breaks
		"cr.bvh",           // CR-only line breaks
		"mixed_eol.bvh",    // CRLF, LF and CR in turn
		"whitespace.bvh",   // BOM, tabs and spaces, blank lines, "Frames:\t\t3", trailing blanks
		"keywords.bvh",     // keywords in any case, braces on shared lines, "FRAMES :3", "frame time:0.03"
		"no_hierarchy.bvh", // starts at ROOT
		"scientific.bvh",   // 1e1, 1.5E+01, .8e1, +20, -0
		"wrapped.bvh",      // frames wrapped over three lines
	} {
		f := mustParse(t, "testdata/"+name)
		f.Name = basic.Name
		f.FramesLine = basic.FramesLine // the layout moves the line, not the data
		if !reflect.DeepEqual(f, basic) {
			t.Errorf("%s differs from basic.bvh:\n got %+v\nwant %+v", name, f, basic)
		}
	}
	// The line-break fixtures are basic.bvh with its LFs replaced.
	b, _ := os.ReadFile("testdata/basic.bvh")
	crlf, _ := os.ReadFile("testdata/crlf.bvh")
	cr, _ := os.ReadFile("testdata/cr.bvh")
	if !bytes.Equal(crlf, bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))) || !bytes.Equal(cr, bytes.ReplaceAll(b, []byte("\n"), []byte("\r"))) {
		t.Error("crlf.bvh or cr.bvh is not basic.bvh with other line breaks")
	}
}

// Reading one byte or a few at a time moves every token across the
// scanner's window refills; the result must not change.
func TestShortReads(t *testing.T) {
	readers := map[string]func(io.Reader) io.Reader{
		"OneByteReader": iotest.OneByteReader,
		"HalfReader":    iotest.HalfReader,
		"DataErrReader": iotest.DataErrReader,
	}
	for _, path := range fixtures(t) {
		b, _ := os.ReadFile(path)
		want, werr := Parse(bytes.NewReader(b), "x")
		for name, wrap := range readers {
			got, err := Parse(wrap(bytes.NewReader(b)), "x")
			if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s through %s: got %v, want %v", path, name, err, werr)
			}
		}
	}
}

// fixtures lists every .bvh file under testdata.
func fixtures(t testing.TB) []string {
	a, _ := filepath.Glob("testdata/*.bvh")
	b, _ := filepath.Glob("testdata/errors/*.bvh")
	if len(a) == 0 || len(b) == 0 {
		t.Fatal("no fixtures")
	}
	return append(a, b...)
}

// The fixtures with a skeleton or motion of their own.
func TestConventions(t *testing.T) {
	type joint struct {
		name   string
		parent int
		order  string
	}
	for _, tc := range []struct {
		file   string
		joints []joint
		frames int
		last   []float32 // the last frame's values
	}{
		{"channel_orders.bvh", []joint{ // a different order on every joint, positions last
			{"Root", -1, "Zrotation Yrotation Xrotation Xposition Yposition Zposition"},
			{"A", 0, "Xrotation Yrotation Zrotation"}, {"B", 1, "Yrotation Xrotation Zrotation"},
			{"C", 2, "Zrotation Yrotation Xrotation"}, {"D", 3, "Zrotation Xrotation Zrotation"},
			{"D_End", 4, ""},
		}, 2, []float32{-10, -20, -30, -4, -5, -6, -15, 25, -35, -40, -50, 60, 70, -80, -90, -10, -20, -30}},
		{"six_channels.bvh", []joint{ // six channels on every joint
			{"Hips", -1, "Xposition Yposition Zposition Zrotation Yrotation Xrotation"},
			{"Spine", 0, "Xposition Yposition Zposition Zrotation Yrotation Xrotation"},
			{"Head", 1, "Xposition Yposition Zposition Zrotation Yrotation Xrotation"},
			{"Head_End", 2, ""},
		}, 2, []float32{5, 91, -2, 90, 0, 0, 0, 11, 0, 0, 45, 0, 1, 29, 0, 0, 0, 10}},
		{"joint_positions.bvh", []joint{ // some position channels below the root
			{"Hips", -1, "Xposition Yposition Zposition Zrotation Xrotation Yrotation"},
			{"Spine", 0, "Yposition Zrotation Xrotation Yrotation"},
			{"Arm", 1, "Xposition Zposition Xrotation"}, {"Arm_End", 2, ""},
		}, 2, []float32{0, 90, 0, 0, 0, 0, 12, 0, 0, 0, 22, -3, 90}},
		{"names.bvh", []joint{ // colons, dots, spaces, trailing blanks, '{' on the name line
			{"mixamorig:Hips", -1, "Xposition Yposition Zposition Zrotation Xrotation Yrotation"},
			{"Bip01 L Thigh", 0, "Zrotation Xrotation Yrotation"}, {"spine.001", 1, "Zrotation Xrotation Yrotation"},
			{"Left Hand:Index.1", 2, "Zrotation Xrotation Yrotation"}, {"Left Hand:Index.1_End", 3, ""},
		}, 1, []float32{0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		{"multi_root.bvh", []joint{ // a character and a prop
			{"Character", -1, "Xposition Yposition Zposition Zrotation Xrotation Yrotation"},
			{"Head", 0, "Zrotation Xrotation Yrotation"}, {"Head_End", 1, ""},
			{"Prop", -1, "Xposition Yposition Zposition Zrotation Xrotation Yrotation"}, {"Prop_End", 3, ""},
		}, 2, []float32{0.1, 0.9, 0, 0, 0, 0, 0, 10, 0, 1, 1.1, 1, 0, 90, 0}},
		{"no_channels.bvh", []joint{ // CHANNELS 0, no CHANNELS line, one channel, a root with only an End Site
			{"Base", -1, ""}, {"Arm", 0, "Zrotation"}, {"Fixed", 1, ""}, {"Fixed_End", 2, ""},
			{"Marker", -1, ""}, {"Marker_End", 4, ""},
		}, 2, []float32{-30}},
		{"end_sites.bvh", []joint{ // two End Sites on one joint, among a JOINT; a root without positions
			{"Hand", -1, "Zrotation Xrotation Yrotation"}, {"Hand_End", 0, ""},
			{"Thumb", 0, "Zrotation Xrotation Yrotation"}, {"Thumb_End", 2, ""}, {"Hand_End2", 0, ""},
		}, 1, []float32{0, 0, 90, 0, 0, -90}},
		{"zero_frames.bvh", []joint{
			{"Hips", -1, "Xposition Yposition Zposition Zrotation Xrotation Yrotation"}, {"Hips_End", 0, ""},
		}, 0, nil},
	} {
		f := mustParse(t, "testdata/"+tc.file)
		var got []joint
		for _, j := range f.Joints {
			got = append(got, joint{j.Name, j.Parent, j.Order()})
		}
		if !reflect.DeepEqual(got, tc.joints) {
			t.Errorf("%s: joints\n got %+v\nwant %+v", tc.file, got, tc.joints)
		}
		if f.Frames != tc.frames || len(f.Motion) != f.Frames*f.Channels {
			t.Errorf("%s: %d frames, %d values of %d channels", tc.file, f.Frames, len(f.Motion), f.Channels)
			continue
		}
		if f.Frames > 0 && !reflect.DeepEqual(f.Row(f.Frames-1), tc.last) {
			t.Errorf("%s: last frame %v, want %v", tc.file, f.Row(f.Frames-1), tc.last)
		}
	}
}

// Every error fixture fails at the expected place with the expected message.
func TestErrors(t *testing.T) {
	const chans = "(Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation)"
	want := map[string]string{
		"bad_channel":             `9:24: expected channel 2 of 3 ` + chans + `, found "Wrotation"`,
		"bad_channel_count":       `9:12: expected a channel count after CHANNELS, found "three"`,
		"bad_frames":              `17:9: expected a frame count after Frames:, found "-3"`,
		"bad_offset":              `8:12: expected 3 numbers after OFFSET (a number), found "abc"`,
		"bad_value":               `20:8: expected a number (frame 2, value 4 of 9), found "1.2.3"`,
		"binary":                  `3:9: expected 3 numbers after OFFSET (a number), found "ÿþ"`,
		"duplicate_channels":      `10:3: expected one CHANNELS in joint "Chest", found a second`,
		"duplicate_offset":        `9:3: expected one OFFSET in joint "Chest", found a second`,
		"empty":                   `1:1: expected HIERARCHY or ROOT, found end of file`,
		"end_site_channels":       `13:4: expected OFFSET or } in End Site of "Chest", found "CHANNELS"`,
		"end_site_no_brace":       `11:4: expected { after End Site, found "OFFSET"`,
		"end_without_site":        `10:7: expected Site after End, found "Point"`,
		"extra_frames":            `21:1: expected end of file after frame 2 (Frames: 2), found "2"`,
		"few_channel_names":       `6:2: expected channel 7 of 7 ` + chans + `, found "JOINT"`,
		"fewer_frames":            `22:1: expected 5 frames (Frames: 5), found 3`,
		"frames_not_integer":      `17:9: expected a frame count after Frames:, found "2.5"`,
		"joint_outside_root":      `16:1: expected ROOT or MOTION, found "JOINT"`,
		"long_first_row":          `19:20: expected 9 values in frame 1 (one per channel), found 10`,
		"long_row":                `20:20: expected 9 values in frame 2 (one per channel), found 11`,
		"missing_brace":           `3:2: expected { after joint name "Hips", found "OFFSET"`,
		"missing_offset":          `13:2: expected OFFSET in joint "Chest" before }`,
		"nan_value":               `20:10: expected a number (frame 2, value 5 of 9), found "nan"`,
		"negative_channel_count":  `9:12: expected a channel count after CHANNELS, found "-3"`,
		"no_frame_time":           `18:1: expected Frame Time:, found "0"`,
		"no_frames":               `17:1: expected Frames:, found "Frame"`,
		"no_motion":               `16:1: expected ROOT or MOTION, found end of file`,
		"no_root":                 `2:1: expected ROOT, found "MOTION"`,
		"not_bvh":                 `1:1: expected HIERARCHY or ROOT, found "hello"`,
		"range_value":             `21:18: expected a number within float32 range (frame 3, value 9 of 9), found "1e39"`,
		"short_first_row":         `19:17: expected 9 values in frame 1 (one per channel), found 8`,
		"short_offset":            `9:3: expected 3 numbers after OFFSET (a number), found "CHANNELS"`,
		"short_row":               `20:17: expected 9 values in frame 2 (one per channel), found 8`,
		"stray_brace":             `16:1: expected ROOT or MOTION, found "}"`,
		"too_many_frames":         `17:9: expected at most 2147483647 values (Frames x 9 channels), found Frames: 999999999999`,
		"truncated":               `21:11: expected 9 values in frame 3 (one per channel), found 5`,
		"unclosed":                `11:1: expected { after End Site, found end of file`,
		"unknown_keyword":         `10:3: expected OFFSET, CHANNELS, JOINT, End Site or } in joint "Chest", found "ROTATION"`,
		"values_without_channels": `8:1: expected end of file (the hierarchy has no channels), found "0"`,
		"wrapped_short":           `23:9: expected 9 values in frame 3 (one per channel), found 4`,
		"zero_frame_time":         `18:13: expected a positive frame time (s) after Frame Time:, found "0"`,
		"tiny_frame_time":         `18:13: expected a frame time of 0.0001 to 10 s (0.1 to 10000 frames a second) after Frame Time:, found "1e-40"`,
		"long_frame_time":         `18:13: expected a frame time of 0.0001 to 10 s (0.1 to 10000 frames a second) after Frame Time:, found "3600"`,
		"absurd_value":            `21:18: expected a value within ±1e+07 (frame 3, value 9 of 9), found "3e30"`,
	}
	files, _ := filepath.Glob("testdata/errors/*.bvh")
	if len(files) != len(want) {
		t.Errorf("%d error fixtures, %d expected messages", len(files), len(want))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".bvh")
		_, err := parseFile(t, path)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a *ParseError", name, err)
			continue
		}
		if got := err.Error(); got != name+".bvh:"+want[name] {
			t.Errorf("got  %s\nwant %s.bvh:%s", got, name, want[name])
		}
	}
}

// Every prefix of every fixture, and random corruptions of them, parse to
// a consistent File or a *ParseError, never a panic.
func TestNoPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	junk := []byte(" \t\r\n{}:.-+eE0123456789xROOTJOINTEnd Site")
	for _, path := range fixtures(t) {
		b, _ := os.ReadFile(path)
		for n := 0; n <= len(b); n++ {
			checkParse(t, b[:n])
		}
		for range 200 {
			m := bytes.Clone(b)
			for range 1 + rng.IntN(4) {
				if len(m) > 0 {
					m[rng.IntN(len(m))] = junk[rng.IntN(len(junk))]
				}
			}
			checkParse(t, m)
		}
	}
}

// checkParse parses b and checks the result's consistency.
func checkParse(t testing.TB, b []byte) *File {
	t.Helper()
	f, err := Parse(bytes.NewReader(b), "in.bvh")
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 || !strings.HasPrefix(pe.Msg, "expected ") {
			t.Fatalf("%q: error %v, want a *ParseError at line, col >= 1 saying what was expected", b, err)
		}
		return nil
	}
	n := 0
	for i, j := range f.Joints {
		if j.Parent < -1 || j.Parent >= i || j.First != n || j.EndSite && (len(j.Channels) > 0 || j.Parent < 0) {
			t.Fatalf("%q: joint %d %+v after %d channels", b, i, j, n)
		}
		n += len(j.Channels)
	}
	if len(f.Joints) == 0 || f.Channels != n || f.Frames < 0 || len(f.Motion) != f.Frames*f.Channels || !(f.FrameTime > 0) {
		t.Fatalf("%q: %d joints, %d channels (sum %d), %d frames, %d values, frame time %g",
			b, len(f.Joints), f.Channels, n, f.Frames, len(f.Motion), f.FrameTime)
	}
	return f
}

func TestLongToken(t *testing.T) {
	long := strings.Repeat("x", bufSize+10)
	for _, in := range []string{long, "ROOT " + long + "\n{", "ROOT a\n{\nOFFSET 0 0 " + long} {
		_, err := Parse(strings.NewReader(in), "long.bvh")
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "shorter than 65536 bytes") {
			t.Errorf("got %v", err)
		}
	}
	// A long name that fits is kept whole.
	name := strings.Repeat("n", bufSize-100)
	f, err := Parse(strings.NewReader("ROOT "+name+"\n{ OFFSET 0 0 0 }\nMOTION\nFrames: 0\nFrame Time: 1\n"), "")
	if err != nil || f.Joints[0].Name != name {
		t.Errorf("long name: %v", err)
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	b, _ := os.ReadFile("testdata/basic.bvh")
	r := io.MultiReader(bytes.NewReader(b[:100]), iotest.ErrReader(boom))
	_, err := Parse(r, "basic.bvh")
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "basic.bvh:") {
		t.Fatalf("got %v", err)
	}
}

// parseFloat32's fast path gives strconv's float32, bit for bit, halfway
// cases included.
func TestParseFloat32MatchesStrconv(t *testing.T) {
	cases := []string{"0", "-0", "+0", ".5", "5.", "-.5", "16777217", "16777219", "-16777217", "0.1", "0.3",
		"123.456789", "-179.999999", "1.00000005960464477539062", "9007199254740993", "9007199254740992.5",
		"3.4028235e38", "1e-45", "0.0000000000000000000001", "0.00000000000000000000001", "1e1", "."}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200_000 {
		s := []byte{"+-"[rng.IntN(2)]}
		for range rng.IntN(10) {
			s = append(s, byte('0'+rng.IntN(10)))
		}
		if rng.IntN(4) > 0 {
			s = append(s, '.')
			for range rng.IntN(12) {
				s = append(s, byte('0'+rng.IntN(10)))
			}
		}
		cases = append(cases, string(s))
	}
	for _, s := range cases {
		want, err := strconv.ParseFloat(s, 32)
		got, msg := parseFloat32([]byte(s))
		if (err == nil) != (msg == "") || err == nil && math.Float32bits(got) != math.Float32bits(float32(want)) {
			t.Fatalf("%q: got %v %q, strconv %v %v", s, got, msg, float32(want), err)
		}
	}
}
