package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/matching"
	"kinelab/assets"
	"kinelab/internal/fixture"
)

// `kinelab matching train` writes networks that fit the embedded set; an
// interrupted training leaves its checkpoint and no output, and the same
// command resumes it; bad flags exit 2.
func TestMatchingTrain(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "n.lmm")
	args := []string{"--steps", "30", "--width", "16", "--batch", "8", "--out", out}
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // stopped before its first step
	if code := MatchingTrain(ctx, args, &stdout, &stderr); code != ExitFail {
		t.Fatalf("interrupted: exit %d, want %d: %s", code, ExitFail, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an interrupted training wrote its output")
	}
	if _, err := os.Stat(out + ".ckpt"); err != nil {
		t.Fatalf("an interrupted training left no checkpoint: %v", err)
	}
	stderr.Reset()
	if code := MatchingTrain(context.Background(), args, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "resuming from") {
		t.Errorf("the checkpoint was not resumed: %s", stderr.String())
	}
	if _, err := os.Stat(out + ".ckpt"); err == nil {
		t.Error("the checkpoint was left after the training ended")
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	nets, err := matching.ReadNetworks(f)
	if err != nil {
		t.Fatal(err)
	}
	db, err := matching.NewDatabase(embeddedSource(), matching.DefaultWeights, matching.DefaultSettings().Halflife)
	if err != nil {
		t.Fatal(err)
	}
	if err := nets.Fits(db); err != nil {
		t.Errorf("the networks do not fit the embedded set: %v", err)
	}
	for _, bad := range [][]string{{"--width", "0"}, {"--minutes", "-1"}, {"--features", "fancy"}, {"--seed", "-3"}} {
		if code := MatchingTrain(context.Background(), bad, &stdout, &stderr); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, ExitUsage)
		}
	}
}

// `matching eval --controller learned` runs the embedded set's networks:
// its JSON names the controller, its memory under a quarter of the
// database controller's, and the decompressor's errors; networks of
// another database are refused saying so, and --networks without the
// learned controller is a usage error.
func TestMatchingEvalLearned(t *testing.T) {
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Matching(context.Background(), append([]string{"eval"}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}
	type result struct {
		Controller string   `json:"controller"`
		Memory     int      `json:"memory_bytes"`
		Vel        *float64 `json:"learned_velocity_error_m_per_s"`
		Pose       *float64 `json:"learned_pose_error_cm"`
		Set        string   `json:"set"`
	}
	var reps [2]struct {
		Results []result `json:"results"`
	}
	for k, ctl := range []string{"database", "learned"} {
		code, out, errs := run("--controller", ctl, "--features", "inertial", "--path", "random", "--seconds", "3", "--json")
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", ctl, code, errs)
		}
		if err := json.Unmarshal([]byte(out), &reps[k]); err != nil || len(reps[k].Results) != 1 {
			t.Fatalf("%s: %v\n%s", ctl, err, out)
		}
	}
	db, l := reps[0].Results[0], reps[1].Results[0]
	if db.Controller != "database" || l.Controller != "learned" || l.Vel == nil || l.Pose == nil || db.Vel != nil {
		t.Errorf("database %+v, learned %+v", db, l)
	}
	if !(l.Memory > 0 && 4*l.Memory <= db.Memory) {
		t.Errorf("memory: learned %d bytes, database %d", l.Memory, db.Memory)
	}
	// Networks of another database: the embedded set's, on two captures.
	dir := t.TempDir()
	nets := filepath.Join(dir, "n.lmm")
	if err := os.WriteFile(nets, assets.LocomotionNetworks(), 0o644); err != nil {
		t.Fatal(err)
	}
	caps := t.TempDir()
	fixture.File(t, caps, fixture.Bandai())
	code, _, errs := run("--controller", "learned", "--networks", nets, "--seconds", "2", caps)
	if code != ExitFail || !strings.Contains(errs, "another") {
		t.Errorf("networks of another database: exit %d, %q", code, errs)
	}
	for _, bad := range [][]string{{"--networks", nets}, {"--controller", "neural"}, {"--controller", "learned", "--features", "standard"}} {
		if code, _, _ := run(bad...); code != ExitUsage && code != ExitFail {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
}
