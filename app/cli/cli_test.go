package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/mathx"
	"kinelab/animsys/verify"
	"kinelab/internal/mocap"
	"kinelab/internal/racebuild"
)

func run(f func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := f(args, &out, &errb)
	return code, out.String(), errb.String()
}

func verifyCmd(args []string, out, errb *bytes.Buffer) int {
	return Verify(context.Background(), args, out, errb)
}
func benchCmd(args []string, out, errb *bytes.Buffer) int {
	return Bench(context.Background(), args, out, errb)
}

func TestVerifyText(t *testing.T) {
	code, out, _ := run(verifyCmd, "--intervals", "60")
	if code != ExitOK || !strings.Contains(out, "PASS") || !strings.Contains(out, "SampleCubic") ||
		!strings.Contains(out, "rad/s") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestVerifyJSON(t *testing.T) {
	code, out, _ := run(verifyCmd, "--json", "--intervals", "60")
	var rep verify.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitOK || !rep.Pass || len(rep.Stats) == 0 {
		t.Fatalf("exit %d, err %v, output:\n%s", code, err, out)
	}
}

func TestVerifyClipsRejectsMismatch(t *testing.T) {
	skel := animsys.BenchSkeleton()
	bad := animsys.NewClip("tiny", 3, 23, 1.0/60)
	var out, errb bytes.Buffer
	if code := VerifyClips(nil, &out, &errb, &skel, verify.NoRoles(), []*animsys.Clip{&bad}); code != ExitFail ||
		!strings.Contains(errb.String(), `clip "tiny"`) {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	if code := VerifyClips(nil, &out, &errb, &skel, verify.NoRoles(), nil); code != ExitFail {
		t.Fatalf("exit %d with no clips", code)
	}
}

func TestVerifyFailingReportExits1(t *testing.T) {
	var out, errb bytes.Buffer
	if code := writeVerify(verify.Report{Pass: false}, false, &out, &errb); code != ExitFail {
		t.Fatalf("exit %d for a failing report", code)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func([]string, *bytes.Buffer, *bytes.Buffer) int
		args []string
		code int
		msg  string
	}{
		{"verify unknown flag", verifyCmd, []string{"--bogus"}, ExitUsage, "flag provided but not defined"},
		{"verify positional", verifyCmd, []string{"extra"}, ExitUsage, `unexpected argument "extra"`},
		{"verify zero intervals", verifyCmd, []string{"--intervals", "0"}, ExitUsage, "--intervals must be at least 1"},
		{"verify help", verifyCmd, []string{"-h"}, ExitOK, "usage: kinelab verify"},
		{"bench zero characters", benchCmd, []string{"--characters", "0"}, ExitUsage, "--characters must be at least 1"},
		{"bench negative threads", benchCmd, []string{"--threads", "-1"}, ExitUsage, "--threads must be"},
		{"bench not a number", benchCmd, []string{"--characters", "many"}, ExitUsage, "invalid value"},
		{"bench help", benchCmd, []string{"--help"}, ExitOK, "usage: kinelab bench"},
	} {
		code, _, errOut := run(tc.f, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%s: exit %d (want %d), stderr:\n%s", tc.name, code, tc.code, errOut)
		}
	}
}

// shortSearch shortens bench's motion-matching search timing for one test:
// 2 s of the random path, one pass (the command's are 60 s and three,
// whose brute-force searches took 13 s of a test's 15). The same code
// records and times the same kind of queries, on the same database, so
// the report it gives has what a full run's has; only the counts and
// the medians' noise differ.
func shortSearch(t *testing.T) {
	s, p := searchSeconds, searchPasses
	searchSeconds, searchPasses = 2, 1
	t.Cleanup(func() { searchSeconds, searchPasses = s, p })
}

func TestBenchJSON(t *testing.T) {
	shortSearch(t)
	code, out, errOut := run(benchCmd, "--characters", "5", "--threads", "2", "--json")
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitOK {
		t.Fatalf("exit %d, err %v, stdout:\n%s\nstderr:\n%s", code, err, out, errOut)
	}
	if len(rep.Results) != 1 || rep.Results[0].Characters != 5 || rep.Results[0].Threads != 2 ||
		rep.Results[0].NsPerCharTick <= 0 || rep.Results[0].CharTicksPerSec <= 0 {
		t.Fatalf("results %+v", rep.Results)
	}
	// The report says which build's lane types ran, and a character's state.
	if rep.Path != mathx.SIMD || rep.Lanes != mathx.Lanes || rep.CharacterBytes != animsys.BenchCharacterBytes(rep.Joints) {
		t.Fatalf("path %q, lanes %d, %d bytes a character; want %q, %d, %d", rep.Path, rep.Lanes, rep.CharacterBytes,
			mathx.SIMD, mathx.Lanes, animsys.BenchCharacterBytes(rep.Joints))
	}
	// The search timing: one result per feature set, each timing some
	// queries on the whole mirrored set, with the index and brute force.
	if len(rep.Search) != 3 {
		t.Fatalf("search results %+v, want 3 (standard, inertial, exact)", rep.Search)
	}
	for _, r := range rep.Search {
		if r.Frames < 26000 || r.Queries < 1 || !(r.Median > 0) || !(r.BruteMedian > 0) || r.P99 < r.Median || r.BruteP99 < r.BruteMedian {
			t.Errorf("search result %+v", r)
		}
	}
}

// A list of sizes and threads gives one result per pair, in order. Without
// the search timing (--search=false): TestBenchJSON has it, and it does
// not depend on the crowd sizes.
func TestBenchSweep(t *testing.T) {
	code, out, errOut := run(benchCmd, "--characters", "1,4", "--threads", "1,2", "--json", "--search=false")
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitOK {
		t.Fatalf("exit %d, err %v, stdout:\n%s\nstderr:\n%s", code, err, out, errOut)
	}
	want := [][2]int{{1, 1}, {1, 2}, {4, 1}, {4, 2}}
	if len(rep.Results) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(rep.Results), len(want), rep.Results)
	}
	for i, w := range want {
		if r := rep.Results[i]; r.Characters != w[0] || r.Threads != w[1] || !(r.CharTicksPerSec > 0) {
			t.Errorf("result %d: %d characters on %d threads, %v ticks/s; want %v", i, r.Characters, r.Threads, r.CharTicksPerSec, w)
		}
	}
	if code, _, errOut := run(benchCmd, "--characters", "10,x"); code != ExitUsage || !strings.Contains(errOut, `"x" is not an integer`) {
		t.Errorf("bad list: exit %d, stderr:\n%s", code, errOut)
	}
}

// A count whose crowd would not fit crowd.MemoryBudget is refused with
// exit 2 before anything is timed or allocated (it died out of memory),
// naming the count, the budget and what fits; in a list too.
func TestBenchBudget(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code, out, errOut := run(benchCmd, "--characters", "5,2000000", "--search=false")
	runtime.ReadMemStats(&after)
	for _, want := range []string{"--characters 2000000", "1 GiB budget", "at most"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
	if code != ExitUsage || out != "" {
		t.Errorf("exit %d (want %d), stdout:\n%s", code, ExitUsage, out)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 16<<20 {
		t.Errorf("refusing allocated %d bytes", grown)
	}
}

func TestBenchTextDefaultThreads(t *testing.T) {
	shortSearch(t)
	code, out, _ := run(benchCmd, "--characters", "3")
	if code != ExitOK || !strings.Contains(out, "ns/char-tick") || !strings.Contains(out, "char-ticks/s") ||
		!strings.Contains(out, "motion-matching search") || !strings.Contains(out, "brute us median") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	// On 1 and on all cores (GOMAXPROCS) when that is more than one.
	want := 1
	if runtime.GOMAXPROCS(0) > 1 {
		want = 2
	}
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 5 && f[0] == "3" {
			rows++
		}
	}
	if rows != want {
		t.Errorf("%d rows for 3 characters, want %d (1 and %d threads):\n%s", rows, want, runtime.GOMAXPROCS(0), out)
	}
}

// verify passes on every real capture in ../shared/mocap, leaving out only
// the data jumps it names; the procedural cases find their joints in each
// (every file has a head and a left leg). With -short each clip is checked
// on 150 frame intervals instead of all.
func TestVerifyRealCaptures(t *testing.T) {
	intervals := verify.MaxIntervals
	if testing.Short() || racebuild.Enabled {
		// Under the race detector every interval of every capture took
		// minutes: each subtest runs on its goroutine, alongside the
		// others, whether it checks 150 intervals or all.
		intervals = 150
	}
	for _, path := range mocap.Need(t) {
		t.Run(mocap.Base(path), func(t *testing.T) {
			t.Parallel()
			ch, err := character.Load([]string{path}, bvh.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			roles := verify.Roles{Head: ch.Head, Leg: ch.Leg}
			if roles.Head < 0 || roles.Leg.End < 0 {
				t.Errorf("roles %+v: no head or left leg found in %v", roles, ch.Skel.Names)
			}
			rep := verify.RunIntervals(&ch.Skel, verify.Cases(&ch.Skel, roles), []*animsys.Clip{&ch.Clips[0]}, intervals)
			for _, s := range rep.Stats {
				if s.Checked && !s.Pass {
					t.Errorf("%s", s)
				}
			}
			for _, e := range rep.Excluded {
				t.Logf("left out: %s", e)
			}
		})
	}
}

// The command line names the worst sample of each line and the left-out
// frames of a real capture (found in every frame, however few intervals
// are checked).
func TestVerifyBVHReport(t *testing.T) {
	paths := mocap.Need(t)
	var path string
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), "07_") { // has data jumps: a flipping thumb
			path = p
		}
	}
	if path == "" {
		t.Skip("SKIPPED: needs 07_metres_cmu131_start_walk_stop.bvh")
	}
	code, out, errs := run(verifyCmd, "--intervals", "200", "--bvh", path)
	if code != ExitOK || strings.Contains(out, "FAIL") || !strings.Contains(out, "left out:") ||
		!strings.Contains(out, "RThumb: near-180 degree flip") {
		t.Fatalf("exit %d, stderr %s, output:\n%s", code, errs, out)
	}
	for _, l := range strings.Split(out, "\n")[1:] {
		if strings.HasPrefix(l, "TwoBoneIK") && !strings.Contains(l, "worst: 07_") {
			t.Errorf("line without its worst sample: %q", l)
		}
	}
}
