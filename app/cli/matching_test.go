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
