package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// `kinelab matching eval --json` prints a result per feature set with
// finite measures and the index agreeing with brute force; bad flags exit
// 2, a file that does not load exits 1.
func TestMatchingEval(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Matching(context.Background(), []string{"eval", "--seconds", "4", "--path", "zigzag", "--json"}, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep struct {
		Frames  int `json:"database_frames"`
		Results []struct {
			Set   string  `json:"set"`
			Slide float64 `json:"foot_sliding_cm_per_s"`
			Same  bool    `json:"brute_force_same"`
			Trans float64 `json:"transitions_per_s"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if len(rep.Results) != 3 || rep.Frames < 26000 {
		t.Fatalf("%d results on %d frames", len(rep.Results), rep.Frames)
	}
	for _, r := range rep.Results {
		if !r.Same || r.Trans <= 0 || !(r.Slide >= 0) {
			t.Errorf("%+v", r)
		}
	}
	for _, args := range [][]string{{"eval", "--features", "fancy"}, {"eval", "--path", "spiral"}, {"eval", "--seconds", "0"}, {"eval", "--transition", "fade"}, {"play"}} {
		errb.Reset()
		if code := Matching(context.Background(), args, &out, &errb); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
	}
	errb.Reset()
	if code := Matching(context.Background(), []string{"eval", "--seconds", "2", "/no/such/file.bvh"}, &out, &errb); code != ExitFail || !strings.Contains(errb.String(), "/no/such/file.bvh") {
		t.Errorf("a missing file: exit %d, %q", code, errb.String())
	}
}

// `matching eval --idle=false --rate=false` runs the matcher without the
// idle state and the playback rate: on stop-go the default run stands
// idle with no transition at rest and keeps nearer the simulation, the
// switched-off one differs; a switch that is no boolean exits 2.
func TestMatchingEvalSwitches(t *testing.T) {
	type result struct {
		Idle     float64 `json:"transitions_per_s_idle"`
		IdleSecs float64 `json:"idle_s"`
		Sync     float64 `json:"sync_distance_cm"`
		Ankle    float64 `json:"ankle_sliding_cm_per_s"`
	}
	eval := func(extra ...string) result {
		t.Helper()
		var out, errb bytes.Buffer
		args := append([]string{"eval", "--seconds", "15", "--path", "stop-go", "--features", "inertial", "--json"}, extra...)
		if code := Matching(context.Background(), args, &out, &errb); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", extra, code, errb.String())
		}
		var rep struct {
			Results []result `json:"results"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Results) != 1 {
			t.Fatalf("%v: %v\n%s", extra, err, out.String())
		}
		return rep.Results[0]
	}
	on, off := eval(), eval("--idle=false", "--rate=false")
	if on.Idle != 0 || on.IdleSecs < 1 || on == off {
		t.Errorf("stop-go: %+v with the idle state and the rate, %+v without", on, off)
	}
	t.Logf("stop-go: %+v with the idle state and the rate, %+v without", on, off)
	// The zigzag reaches the clamp: held back at once, the simulation
	// waits for the root; dragged on, the root's ankles slide more.
	held, dragged := eval("--path", "zigzag", "--hold-after", "0"), eval("--path", "zigzag", "--hold=false")
	if !(held.Ankle < dragged.Ankle) {
		t.Errorf("zigzag: ankles slide %.2f cm/s with the simulation held, %.2f with the root dragged", held.Ankle, dragged.Ankle)
	}
	t.Logf("zigzag: ankles slide %.2f cm/s with the simulation held, %.2f with the root dragged", held.Ankle, dragged.Ankle)
	for _, bad := range [][]string{{"--idle=maybe"}, {"--hold-after", "-1"}, {"--hold-after", "NaN"}} {
		var out, errb bytes.Buffer
		if code := Matching(context.Background(), append([]string{"eval"}, bad...), &out, &errb); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, ExitUsage)
		}
	}
}
