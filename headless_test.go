package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/internal/mocap"
)

// withoutDisplay runs kinelab with DISPLAY and WAYLAND_DISPLAY removed
// from its environment: no X server can be reached, so a command that
// opened a window would fail ("no display", exit 1).
func withoutDisplay(t *testing.T, bin, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "DISPLAY=") && !strings.HasPrefix(e, "WAYLAND_DISPLAY=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return 0, out.String()
}

// Every command that exports data runs with no display: export, golden,
// verify, bench, bvh and each lab's --csv (the Crowd lab plots nothing to
// export). Each writes what it should.
func TestExportsNeedNoDisplay(t *testing.T) {
	bin := buildKinelab(t)
	dir := t.TempDir()
	runs := []struct {
		args  []string
		files []string // written, relative to dir
	}{
		{[]string{"export", "walk", "idle", "--format", "npz", "--fd", "--out", "npz"}, []string{"npz/walk.npz", "npz/idle.npz"}},
		{[]string{"export", "run", "--out", "run.csv", "--fps", "120", "--sample", "linear"}, []string{"run.csv"}},
		{[]string{"golden", "golden"}, []string{"golden/README.md", "golden/blend.json", "golden/damper_exact.json"}},
		// Few intervals, no search timing: how much they compute does
		// not change what they open (the search is animsys/matching's
		// code, which links no raylib); the full runs took 15 s.
		{[]string{"verify", "--json", "--intervals", "4"}, nil},
		{[]string{"bench", "--characters", "5", "--threads", "1", "--search=false"}, nil},
		{[]string{"bvh", "export", "kl.bvh", "--clip", "walk"}, []string{"kl.bvh"}},
		{[]string{"bvh", "info", "kl.bvh"}, nil},
		{[]string{"--lab", "cost", "--csv", "cost.csv"}, []string{"cost.csv"}},
	}
	for _, lab := range []string{"velocities", "tracking", "scalar", "cost", "springs"} {
		runs = append(runs, struct {
			args  []string
			files []string
		}{[]string{"--lab", lab, "--frames", "30", "--csv", lab + ".csv", "--do", "10:pause,12:step"}, []string{lab + ".csv"}})
	}
	if files := mocap.Files(); len(files) > 0 {
		runs = append(runs, struct {
			args  []string
			files []string
		}{[]string{"export", files[0], "--format", "npz", "--out", "mocap.npz"}, []string{"mocap.npz"}},
			struct {
				args  []string
				files []string
			}{[]string{"--lab", "velocities", "--frames", "20", "--csv", "mocap.csv", files[0]}, []string{"mocap.csv"}})
	}
	for _, r := range runs {
		code, out := withoutDisplay(t, bin, dir, r.args...)
		if code != 0 || strings.Contains(out, "no display") {
			t.Errorf("kinelab %s without a display: exit %d\n%s", strings.Join(r.args, " "), code, out)
			continue
		}
		for _, f := range r.files {
			if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
				t.Errorf("kinelab %s wrote no %s: %v", strings.Join(r.args, " "), f, err)
			}
		}
	}
	// A run that draws (a screenshot) still needs a display, and says so.
	code, out := withoutDisplay(t, bin, dir, "--frames", "2", "--csv", "x.csv", "--screenshot", "x.png")
	if code != 1 || !strings.Contains(out, "xvfb-run") {
		t.Errorf("a screenshot without a display: exit %d, %q", code, out)
	}
}

// A lab's CSV is the same ticked headless as in the window: the headless
// loop runs the frames a windowed --frames run does.
func TestHeadlessCSVMatchesWindow(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("KINELAB_REQUIRE_DISPLAY") != "" {
			t.Fatal("no DISPLAY although KINELAB_REQUIRE_DISPLAY is set")
		}
		t.Skip("SKIPPED: no X display for the windowed run (run under xvfb-run)")
	}
	bin := buildKinelab(t)
	dir := t.TempDir()
	for _, lab := range []string{"velocities", "tracking"} {
		args := []string{"--lab", lab, "--frames", "60", "--do", "20:" + map[string]string{"velocities": "teleport", "tracking": "jump"}[lab], "--jitter", "0.3"}
		headless, window := filepath.Join(dir, lab+"-headless.csv"), filepath.Join(dir, lab+"-window.csv")
		if code, out := withoutDisplay(t, bin, dir, append(args, "--csv", headless)...); code != 0 {
			t.Fatalf("headless: exit %d\n%s", code, out)
		}
		if code, out := runKinelab(t, bin, nil, append(args, "--csv", window, "--screenshot", filepath.Join(dir, lab+".png"), "--width", "640", "--height", "360")...); code != 0 {
			t.Fatalf("window: exit %d\n%s", code, out)
		}
		a, _ := os.ReadFile(headless)
		b, _ := os.ReadFile(window)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: the headless CSV (%d bytes) differs from the window's (%d bytes)", lab, len(a), len(b))
		}
	}
}
