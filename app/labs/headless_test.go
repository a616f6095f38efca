package labs

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kinelab/app"
)

// readCSV reads a --csv file.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A --csv run without --screenshot ticks each lab in a plain loop, no
// window opened: every key action of the lab and the app runs as a --do
// step on the way (lab switches and screenshots included, which must not
// touch the window that is not there), and the file has the header and
// one row per tick. (main_test runs the command with DISPLAY unset.)
func TestHeadlessCSVRunsEveryKey(t *testing.T) {
	for _, e := range All() {
		a := app.New(app.Config{Lab: e.Name}, All())
		var do []string
		f := 1
		for _, k := range a.Keys() {
			if strings.HasPrefix(k.Name, "lab-") || k.Name == "next-lab" || k.Name == "pause" || k.Name == "step" {
				continue // switching away would end the lab's rows; pausing comes last
			}
			do = append(do, strconv.Itoa(f)+":"+k.Name)
			f += 2
		}
		// Paused at frame f (no tick from then on), then one single step.
		do = append(do, strconv.Itoa(f)+":pause", strconv.Itoa(f+2)+":step")
		a.Lab().Unload()
		path := filepath.Join(t.TempDir(), e.Name+".csv")
		frames := f + 5
		cfg, err := app.ParseFlags([]string{"--lab", e.Name, "--frames", strconv.Itoa(frames), "--csv", path,
			"--do", strings.Join(do, ",")}, os.Stderr, All())
		if err != nil {
			t.Fatal(err)
		}
		code := app.Run(context.Background(), cfg, All())
		if e.Name == "crowd" {
			if code != 1 { // it plots nothing: "--csv: lab crowd has no signals to export"
				t.Errorf("crowd: exit %d", code)
			}
			continue
		}
		if code != 0 {
			t.Fatalf("%s: exit %d", e.Name, code)
		}
		rows := readCSV(t, path)
		if e.Name == "cost" {
			if len(rows) != 1+101*101 || rows[0][0] != "x_m" {
				t.Errorf("cost: %d rows, header %v", len(rows), rows[0])
			}
			continue
		}
		// One tick a frame (1/60 s, the clock's fixed step) up to the
		// pause, then the single step.
		if len(rows) != 1+f+1 || !strings.HasSuffix(rows[0][0], "_s") {
			t.Errorf("%s: %d rows, want the header and %d ticks; header %v", e.Name, len(rows), f+1, rows[0])
		}
		t.Logf("%s: %d keys as --do steps, %d rows", e.Name, len(do), len(rows)-1)
	}
}

// The Transition-cost lab writes its grid without --frames; the other
// labs, one row per tick, ask for it (exit 2).
func TestHeadlessCSVWithoutFrames(t *testing.T) {
	dir := t.TempDir()
	cfg, err := app.ParseFlags([]string{"--lab", "cost", "--csv", filepath.Join(dir, "grid.csv"), "--halflife", "0.3"}, os.Stderr, All())
	if err != nil {
		t.Fatal(err)
	}
	if code := app.Run(context.Background(), cfg, All()); code != 0 {
		t.Fatalf("cost without --frames: exit %d", code)
	}
	if rows := readCSV(t, filepath.Join(dir, "grid.csv")); len(rows) != 1+101*101 {
		t.Errorf("grid of %d rows", len(rows))
	}
	cfg, _ = app.ParseFlags([]string{"--lab", "springs", "--csv", filepath.Join(dir, "s.csv")}, os.Stderr, All())
	if code := app.Run(context.Background(), cfg, All()); code != 2 {
		t.Errorf("springs without --frames: exit %d, want 2", code)
	}
}

// Switching lab in a headless run touches no window: the file goes on
// with the next lab's header and rows.
func TestHeadlessLabSwitch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.csv")
	cfg, err := app.ParseFlags([]string{"--frames", "6", "--csv", path, "--do", "3:next-lab"}, os.Stderr, All())
	if err != nil {
		t.Fatal(err)
	}
	if code := app.Run(context.Background(), cfg, All()); code != 0 {
		t.Fatalf("exit %d", code)
	}
	rows := readCSV(t, path)
	if len(rows) != 8 || rows[0][0] != "t_s" || rows[4][0] != "t_s" || len(rows[4]) == len(rows[0]) {
		t.Errorf("%d rows: want the velocities header, 3 rows, the tracking header, 3 rows", len(rows))
	}
}

// The Motion-matching lab's held keys reach it through the framework, so
// a script holds them: --do move-forward holds the key until the script
// names it again, the character walks meanwhile and stands after, and
// while paused (--do pause) the held facing does not turn (Q turns it in
// simulated time, not the wall clock's).
func TestHeldKeysByScript(t *testing.T) {
	dir := t.TempDir()
	run := func(do string, frames int) [][]string {
		t.Helper()
		path := filepath.Join(dir, "m.csv")
		cfg, err := app.ParseFlags([]string{"--lab", "matching", "--frames", strconv.Itoa(frames), "--csv", path, "--do", do}, os.Stderr, All())
		if err != nil {
			t.Fatal(err)
		}
		if code := app.Run(context.Background(), cfg, All()); code != 0 {
			t.Fatalf("--do %s: exit %d", do, code)
		}
		return readCSV(t, path)
	}
	col := func(rows [][]string, name string) int {
		for i, h := range rows[0] {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s in %v", name, rows[0])
		return -1
	}
	at := func(rows [][]string, row, c int) float64 {
		v, err := strconv.ParseFloat(rows[row][c], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	rows := run("10:move-forward,250:move-forward", 400)
	x, z := col(rows, "root_x_m"), col(rows, "root_z_m")
	dist := func(a, b int) float64 {
		return math.Hypot(at(rows, b, x)-at(rows, a, x), at(rows, b, z)-at(rows, a, z))
	}
	if d := dist(1, 10); d > 0.01 {
		t.Errorf("before the key: moved %.3f m", d)
	}
	if d := dist(60, 240); d < 0.5*1.4*3 { // 3 s at half the walk speed at least
		t.Errorf("holding move-forward 3 s: moved %.2f m", d)
	}
	if d := dist(340, 400); d > 0.1 {
		t.Errorf("a second after letting go: still moved %.3f m", d)
	}
	goal := col(rows, "goal_vz_m/s")
	if gx, gz := at(rows, 120, col(rows, "goal_vx_m/s")), at(rows, 120, goal); math.Hypot(gx, gz) < 1 {
		t.Errorf("holding move-forward: goal velocity (%.2f, %.2f) m/s", gx, gz)
	}

	// Q held while paused turns nothing; held while playing it turns the
	// facing at 2.5 rad/s of simulated time.
	rows = run("5:pause,10:turn-left,130:turn-left,140:pause", 200)
	yaw := col(rows, "yaw_rad")
	if n := len(rows) - 1; n != 5+60 {
		t.Fatalf("%d ticks, want 5 before the pause and 60 after", n)
	}
	if y := at(rows, len(rows)-1, yaw); math.Abs(y) > 1e-3 {
		t.Errorf("a turn held while paused turned the character %.3f rad", y)
	}
	rows = run("10:turn-left,70:turn-left", 200)
	if y := at(rows, 200, yaw); math.Abs(y) < 0.5 {
		t.Errorf("Q held 1 s: the character faces %.3f rad", y)
	}
}
