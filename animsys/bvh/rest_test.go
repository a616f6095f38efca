package bvh

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"kinelab/internal/fixture"
	"kinelab/internal/fuzzedit"
)

// parseSpec writes a fixture and parses it.
func parseSpec(t *testing.T, s fixture.Spec) *File {
	t.Helper()
	var buf bytes.Buffer
	if err := fixture.Write(&buf, s); err != nil {
		t.Fatal(err)
	}
	f, err := Parse(&buf, s.Name+".bvh")
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return f
}

// Leading frames are dropped by how far each pose lies from the motion
// after them: a T-pose row beside a noisy toe, a ramp in from zero
// rotations; a toe flicking on the first frame of real motion drops
// nothing, whatever the frame rate.
func TestLeadIn(t *testing.T) {
	toeFirst := fixture.CMU() // no T-pose row: frame 0 is the walk's, its toe 33° off
	toeFirst.Name, toeFirst.TPose = "cmu_toe_first", false
	toeFirst.Spikes = []fixture.Spike{{Joint: "LeftToeBase", Frame: 0, Degrees: 33}}
	toeNext := fixture.CMUNoisyToe() // the toe flicks on the frame right after the T-pose
	toeNext.Spikes[0].Frame = 0
	wrist := fixture.Mixamo() // a wrist, 20 finger joints and all, flicks on the first frame
	wrist.Spikes = []fixture.Spike{{Joint: "mixamorig:LeftHand", Frame: 0, Degrees: 40}}
	ramp120 := fixture.RampIn()
	ramp120.FPS, ramp120.Frames = 120, 240
	rampAfterRest := fixture.RampIn()
	rampAfterRest.RestFrames = 3
	for _, tc := range []struct {
		spec fixture.Spec
		skip int
		why  []string
	}{
		{fixture.CMUNoisyToe(), 1, []string{"frame 0, a pose the motion never comes near: its joints lie 28 cm (16% of the figure's size)", "LeftHandIndex1_End most"}},
		{toeNext, 1, []string{"frame 0, a pose the motion never comes near"}},
		{toeFirst, 0, nil},
		{wrist, 0, nil},
		{fixture.RampIn(), 5, []string{"frame 0: every rotation is zero (a rest pose, not motion); frames 1-4, a ramp in from the rest pose: their joints lie 35 cm to 10 cm"}},
		{ramp120, 5, []string{"frame 0: every rotation is zero", "frames 1-4, a ramp in from the rest pose"}},
		{rampAfterRest, 8, []string{"frames 0-3: every rotation is zero", "frames 4-7, a ramp in from the rest pose"}},
	} {
		f := parseSpec(t, tc.spec)
		d := Detect(f)
		if d.Skip != tc.skip {
			t.Errorf("%s: skip %d, want %d (%s)", tc.spec.Name, d.Skip, tc.skip, d.SkipReason)
		}
		for _, w := range tc.why {
			if !strings.Contains(d.SkipReason, w) {
				t.Errorf("%s: reason %q lacks %q", tc.spec.Name, d.SkipReason, w)
			}
		}
		if tc.why == nil && d.SkipReason != "" {
			t.Errorf("%s: reason %q for no frames", tc.spec.Name, d.SkipReason)
		}
	}
}

// The distances a lead-in is judged by: each ramp frame nearer the motion
// than the last, every one of them past both thresholds; and the frame
// after the ramp a step from the motion.
func TestLeadInDistances(t *testing.T) {
	f := parseSpec(t, fixture.RampIn())
	l, _ := f.leadIn(context.Background())
	if l.zeros != 1 || l.skip != 5 || len(l.far) != 4 || !(l.size > 0) || !(l.step > 0) {
		t.Fatalf("%+v", l)
	}
	for i, d := range l.far {
		if d <= leadFar*l.size || d <= leadSteps*l.step || (i > 0 && d >= l.far[i-1]) {
			t.Errorf("ramp frame %d: %.2f units from the motion (size %.1f, step %.2f; all %v)", i+1, d, l.size, l.step, l.far)
		}
	}
	sh := newShaper(f)
	if d := sh.dist(sh.shape(5, nil), sh.shape(6, nil)); d > 2*l.step {
		t.Errorf("the first walking frame is %.2f units from the next, over twice the motion's step %.2f", d, l.step)
	}
}

// KeepRest keeps the ramp and says what it kept.
func TestImportForKeepsRamp(t *testing.T) {
	f := parseSpec(t, fixture.RampIn())
	d := Detect(f)
	imp, _, notes, err := ImportFor(f, d, ReadOptions{KeepRest: true})
	if err != nil || imp.Skip != 0 || len(notes) != 3 || !strings.HasPrefix(notes[2], "kept (as asked) frame 0: every rotation is zero") {
		t.Errorf("%+v %q %v", imp, notes, err)
	}
	imp, _, notes, err = ImportFor(f, d, ReadOptions{})
	if err != nil || imp.Skip != 5 || !strings.HasPrefix(notes[2], "dropped frame 0: every rotation is zero") {
		t.Errorf("%+v %q %v", imp, notes, err)
	}
}

// Stature is measured from the top of the head to the soles standing
// straight, in every convention: a head End Site marks the top of the
// head, else the skull is added above the head joint; the ankles stand
// statureAnkle of it above the soles. The fixtures stand on y = 0 with
// their ankles at 8 cm.
func TestStature(t *testing.T) {
	for _, s := range fixture.All() {
		d := Detect(parseSpec(t, s))
		head, top := -1, float32(0)
		for i, j := range s.Joints {
			if strings.Contains(strings.ToLower(j.Name), "head") && head < 0 {
				head = i
			}
			top = max(top, j.Pos[1])
		}
		marked := top > s.Joints[head].Pos[1]+0.03
		want := (top - 0.08) / (1 - statureAnkle)
		if !marked {
			want = (s.Joints[head].Pos[1] - 0.08) / (1 - statureAnkle - statureSkull)
		}
		got := d.Stature / s.PerMetre
		if got < 0.99*want || got > 1.01*want || marked == strings.Contains(d.StatureReason, "nothing marks it") {
			t.Errorf("%s: stature %.3f m, want %.3f m (head top marked %v): %s", s, got, want, marked, d.StatureReason)
		}
	}
}

// FuzzDetect: whatever a file parses to, Detect and ImportFor read it
// without a panic, drop at most all but two frames and measure no
// negative or non-finite size. The fuzzer mutates a script of edits to
// one of three real figures (a 65-joint ramp-in, a noisy toe, bones along
// X: 16-41 KB, Detect's work is over whole figures), not the file itself:
// fed the 41 KB file, it spent every minute minimizing an input and ran 4
// inputs a minute (see package fuzzedit). The files the edits make are
// any files near the figures; FuzzParse fuzzes the parser from any bytes.
func FuzzDetect(f *testing.F) {
	var bases [][]byte
	for _, s := range []fixture.Spec{fixture.RampIn(), fixture.CMUNoisyToe(), fixture.LAFAN1()} {
		s.Frames = 12
		var buf bytes.Buffer
		if err := fixture.Write(&buf, s); err != nil {
			f.Fatal(err)
		}
		bases = append(bases, buf.Bytes())
	}
	for i := range bases {
		f.Add(uint8(i), []byte(nil))
	}
	f.Add(uint8(0), fuzzedit.Replace(len(bases[0])-30, '9', '9')) // a value of the last frame
	f.Fuzz(func(t *testing.T, base uint8, edits []byte) {
		data := fuzzedit.Apply(bases[int(base)%len(bases)], edits)
		file, err := Parse(bytes.NewReader(data), "fuzz.bvh")
		if err != nil {
			return
		}
		d := Detect(file)
		if d.Skip < 0 || (d.Skip > 0 && d.Skip > file.Frames-2) || !(d.Stature >= 0) || math.IsInf(float64(d.Stature), 0) {
			t.Fatalf("%d frames: skip %d, stature %v", file.Frames, d.Skip, d.Stature)
		}
		if _, _, _, err := ImportFor(file, d, ReadOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSelectTop: selectTop leaves the k largest at the end, whatever the
// ties, against a sorted copy.
func TestSelectTop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := 1 + r.IntN(60)
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(r.IntN(1 + trial%20)) // many ties
		}
		k := r.IntN(n + 1)
		want := slices.Clone(xs)
		slices.Sort(want)
		selectTop(xs, k)
		got := slices.Clone(xs[n-k:])
		slices.Sort(got)
		if !slices.Equal(got, want[n-k:]) {
			t.Fatalf("trial %d: the %d largest of %v are %v, want %v", trial, k, want, got, want[n-k:])
		}
		for _, x := range xs[:n-k] {
			if k > 0 && x > got[0] {
				t.Fatalf("trial %d: %v left before the top %v", trial, x, got)
			}
		}
	}
}
