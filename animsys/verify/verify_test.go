package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/internal/animtest"
)

// Every operation's propagated velocities match the central difference
// within the tolerances stated in cases.go, on four bench clips (non-unit
// scales on joints 7, 11, 17 and their children).
func TestEveryOperation(t *testing.T) {
	rep := RunBench()
	for _, s := range rep.Stats {
		if s.Samples == 0 {
			t.Errorf("%s %s: no samples", s.Op, s.Quantity)
		}
		if s.Checked && !s.Pass {
			t.Errorf("%s", s)
		}
	}
	if t.Failed() || testing.Verbose() {
		var b bytes.Buffer
		_ = WriteText(&b, rep)
		t.Log("\n" + b.String())
	}
	if !rep.Pass {
		t.Error("report does not pass")
	}
}

// The harness must catch a wrong velocity: a blend that drops the velocity
// of its changing weight fails the exact tolerance.
func TestHarnessCatchesMissingTerm(t *testing.T) {
	skel := animsys.BenchSkeleton()
	n := skel.Len()
	broken := Case{
		Name: "BlendWithoutWeightRate", Space: "local", Tol: tolExact, Reads: readsAB,
		New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
			pb := animsys.NewPose(n)
			return func(out *animsys.Pose, t float32) {
				animsys.SampleCubic(out, a, t)
				animsys.SampleCubic(&pb, b, t)
				w, _ := cosineWeight(t, 4)
				animsys.Blend(out, out, &pb, w, 0)
			}
		},
	}
	rep := Run(&skel, []Case{broken}, BenchClips(1, 2))
	if rep.Pass {
		t.Fatal("a blend without its weight-rate term passed")
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil || !strings.Contains(b.String(), "FAIL") {
		t.Fatalf("text report should say FAIL:\n%s", b.String())
	}
}

// jerky is a clip whose rotations and root position wobble every frame
// by capture-noise amounts (up to 0.006 rad, 0.6 mm): cubic sampling is
// C1, so its acceleration jumps at every frame boundary, and a central
// difference across one is wrong.
func jerky(skel *animsys.Skeleton, frames int, fps, freq float64) *animsys.Clip {
	base := animtest.SmoothMotion(skel, 1.4, 0.8, freq)
	return animtest.SynthClip(fmt.Sprintf("jerky-%g", freq), skel, frames, fps, func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
		p, r := base(f, j, t)
		w := 0.003 * float64((f*7+j*3)%5-2) // -0.006 .. 0.006 rad: capture noise
		return p.Add(mgl32.Vec3{0, float32(w) * 0.1, 0}), animtest.Rot(mgl32.Vec3{1, 0.3, 0}, w).Mul(r)
	})
}

// Each case's stencil t-2h .. t+2h stays inside one frame interval of
// every clip it samples and clear of its restarts: TimeScale samples at
// 0.8 t and the Chain samples clip b 0.3 s ahead and restarts its
// inertialization every 0.5 s, which at 125 fps fall 37.5 and 62.5 frames
// in; the harness moves such times (and the Chain offsets b by whole
// frames). The checks then pass on two jerky 125 fps clips.
func TestStencilsFitOneInterval(t *testing.T) {
	skel := animtest.ChainSkeleton(5)
	c, d := jerky(&skel, 300, 125, 1.3), jerky(&skel, 300, 125, 0.7)
	var cases []Case
	for _, cs := range Cases(&skel, NoRoles()) {
		switch cs.Name {
		case "SampleLinear", "SampleCubic", "Chain", "Blend":
			cases = append(cases, cs)
		case "TimeScale":
			// Also at clip a's own 0.37 points, where 0.8 t falls anywhere.
			cases = append(cases, cs)
			cs.Name, cs.Times = "TimeScale@a", nil
			cases = append(cases, cs)
		}
	}
	straddle := 0
	for _, cs := range cases {
		h := step(c, c)
		times := FractionTimes(c, 0.37, 1, MaxIntervals) // every case at a's 0.37 points
		for _, tm := range times {
			if !cs.fits(c, c, tm, h) {
				straddle++
			}
			u, hh, ok := cs.place(c, c, tm, h)
			if !ok || !cs.fits(c, c, u, hh) {
				t.Fatalf("%s: no time near %v fits", cs.Name, tm)
			}
		}
	}
	if straddle == 0 {
		t.Error("no stencil straddles a boundary: the fixture does not test placement")
	}
	rep := Run(&skel, cases, []*animsys.Clip{c, d})
	for _, s := range rep.Stats {
		if s.Checked && !s.Pass {
			t.Errorf("%s", s)
		}
	}
}

// A joint turning smoothly at 300 rad/s (a flailing thumb in a real
// capture reaches 400) moves its children by ~0.5 rad in 2h: the central
// difference is then past its O(h^2) regime and its truncation estimate
// falls short, so FK would fail by the reference alone. The harness
// shrinks h there (MaxTurn) and the checks pass.
func TestFastJointShrinksStep(t *testing.T) {
	skel := animtest.ChainSkeleton(4)
	c := animtest.SynthClip("fast", &skel, 240, 120, func(f, j int, tm float64) (mgl32.Vec3, mgl32.Quat) {
		a := 0.0
		if j == 1 {
			a = 2.5 * 120 * tm * (1 + 0.3*math.Sin(4*tm)) // ~300 rad/s, accelerating
		}
		return skel.Offsets[j], animtest.Rot(mgl32.Vec3{1, 0.2, 0.4}, a).Mul(animtest.Rot(mgl32.Vec3{0, 0, 1}, 0.8))
	})
	var cases []Case
	for _, cs := range Cases(&skel, NoRoles()) {
		if cs.Name == "FK" || cs.Name == "SampleCubic" {
			cases = append(cases, cs)
		}
	}
	rep := Run(&skel, cases, []*animsys.Clip{c})
	for _, s := range rep.Stats {
		if s.Checked && !s.Pass {
			t.Errorf("%s", s)
		}
	}
	if len(rep.Excluded) != 0 {
		t.Errorf("smooth fast motion taken for a data jump: %v", rep.Excluded)
	}
}

// Late in a long, low-rate clip float32 resolves the times an operation
// samples coarsely (at 23 s of a 30 fps clip, 2e-6 s and 6e-5 frames: 2.5e-3
// of a 1.6 ms sampled step): the reference errs by that much of the
// velocity, which the allowance then includes (timeRes).
func TestTimeResolutionLateInLongClip(t *testing.T) {
	skel := animtest.ChainSkeleton(4)
	c := animtest.SynthClip("long", &skel, 1000, 30, animtest.SmoothMotion(&skel, 1.4, 1.2, 1.5))
	var cases []Case
	for _, cs := range Cases(&skel, NoRoles()) {
		if cs.Name == "TimeScale" || cs.Name == "SampleCubic" {
			cases = append(cases, cs)
		}
	}
	rep := Run(&skel, cases, []*animsys.Clip{c})
	for _, s := range rep.Stats {
		if s.Checked && !s.Pass {
			t.Errorf("%s", s)
		}
	}
}

// Blending two rotations that pass 180 degrees apart switches the
// shortest arc: the blend's output jumps, by design. The report names the
// sample as a seam and leaves it out; the rest passes.
func TestBlendSeamNamed(t *testing.T) {
	skel := animtest.ChainSkeleton(3)
	cross := (94+0.37)/60.0 + 3e-4 // s: inside the stencil of interval 94
	turning := animtest.SynthClip("turning", &skel, 240, 60, func(_, j int, tm float64) (mgl32.Vec3, mgl32.Quat) {
		return skel.Offsets[j], animtest.Rot(mgl32.Vec3{0, 1, 0}, math.Pi*tm/cross) // passes pi at cross
	})
	still := animtest.SynthClip("still", &skel, 240, 60, func(_, j int, _ float64) (mgl32.Vec3, mgl32.Quat) {
		return skel.Offsets[j], mgl32.QuatIdent()
	})
	var cases []Case
	for _, cs := range Cases(&skel, NoRoles()) {
		if cs.Name == "Blend" || cs.Name == "BlendStatic" {
			cases = append(cases, cs)
		}
	}
	rep := Run(&skel, cases, []*animsys.Clip{turning, still})
	for _, s := range rep.Stats {
		if s.Checked && !s.Pass {
			t.Errorf("%s", s)
		}
	}
	named := 0
	for _, s := range rep.Seams {
		if s.Clip == "turning" && s.Frame == 94 && s.Joint == "j0" && strings.Contains(s.Reason, "180 degrees") {
			named++
		}
	}
	if named == 0 {
		t.Errorf("no seam named at frame 94: %v", rep.Seams)
	}
}

// Every line of the text report names its worst sample (clip, time, frame,
// joint), and so does every stat in JSON; left-out data jumps are listed
// with frame, joint and reason.
func TestReportNamesWorst(t *testing.T) {
	skel := animtest.ChainSkeleton(4)
	base := animtest.SmoothMotion(&skel, 1.4, 0.6, 1)
	c := animtest.SynthClip("named", &skel, 100, 60, func(f, j int, tm float64) (mgl32.Vec3, mgl32.Quat) {
		p, r := base(f, j, tm)
		if f == 50 && j == 3 {
			r = animtest.Rot(mgl32.Vec3{0, 0, 1}, 3).Mul(r)
		}
		return p, r
	})
	rep := RunIntervals(&skel, Cases(&skel, NoRoles()), []*animsys.Clip{c}, 40)
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	for _, l := range lines[1 : 1+len(rep.Stats)] {
		if !strings.Contains(l, "worst: named t=") || !strings.Contains(l, " frame ") || !strings.Contains(l, " j") {
			t.Errorf("line does not name its worst sample: %q", l)
		}
	}
	if !strings.Contains(b.String(), "named frame 49-50 j3: near-180 degree flip") {
		t.Errorf("the flip is not listed:\n%s", b.String())
	}
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Stats []struct {
			At Where `json:"at"`
		} `json:"stats"`
		Excluded []struct {
			Frame  int    `json:"frame"`
			Joint  string `json:"joint"`
			Reason string `json:"reason"`
		} `json:"excluded"`
	}
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	for i, s := range back.Stats {
		if s.At.Clip != "named" || s.At.Joint == "" {
			t.Errorf("stat %d: at %+v", i, s.At)
		}
	}
	if len(back.Excluded) != 2 || back.Excluded[0].Joint != "j3" || back.Excluded[0].Reason == "" {
		t.Errorf("excluded in JSON: %+v", back.Excluded)
	}
}

// The procedural cases run on the joints the caller names: none without
// roles, LookAt with a head, TwoBoneIK with a leg that is a chain.
func TestCasesTakeRoles(t *testing.T) {
	skel := animtest.ChainSkeleton(6)
	names := func(r Roles) (s []string) {
		for _, cs := range Cases(&skel, r) {
			if cs.Name == "LookAt" || cs.Name == "TwoBoneIK" {
				s = append(s, cs.Name)
			}
		}
		return s
	}
	leg := animsys.TwoBoneJoints{Root: 2, Mid: 3, End: 4}
	for _, tc := range []struct {
		roles Roles
		want  string
	}{
		{NoRoles(), ""},
		{Roles{Head: 5, Leg: animsys.TwoBoneJoints{Root: -1, Mid: -1, End: -1}}, "LookAt"},
		{Roles{Head: -1, Leg: leg}, "TwoBoneIK"},
		{Roles{Head: 5, Leg: leg}, "LookAt TwoBoneIK"},
		{Roles{Head: -1, Leg: animsys.TwoBoneJoints{Root: 1, Mid: 3, End: 4}}, ""}, // 3's parent is 2
	} {
		if got := strings.Join(names(tc.roles), " "); got != tc.want {
			t.Errorf("roles %+v: cases %q, want %q", tc.roles, got, tc.want)
		}
	}
}
