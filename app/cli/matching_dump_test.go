package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kinelab/animsys/matching"
	"kinelab/internal/fixture"
)

// evalDumpRun runs matching eval with --json and --dump on args (one
// path and one feature set) and returns its one result and the dump's
// header and rows, each row its cells by column name.
func evalDumpRun(t *testing.T, args ...string) (matching.Metrics, []string, dumpTable) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ticks.csv")
	var out, errb bytes.Buffer
	if code := Matching(context.Background(), append(append([]string{"eval"}, args...), "--json", "--dump", path), &out, &errb); code != ExitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	var rep struct {
		Results []matching.Metrics `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("%d results, %v:\n%s", len(rep.Results), err, out.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("the dump: %d records, %v", len(recs), err)
	}
	d := dumpTable{t: t}
	for _, r := range recs[1:] {
		row := map[string]string{}
		for k, name := range recs[0] {
			row[name] = r[k]
		}
		d.rows = append(d.rows, row)
	}
	return rep.Results[0], recs[0], d
}

// dumpTable is a dump's rows, read by column name.
type dumpTable struct {
	t    *testing.T
	rows []map[string]string
}

// num is row k's number in column col.
func (d dumpTable) num(k int, col string) float64 {
	x, err := strconv.ParseFloat(d.rows[k][col], 64)
	if err != nil {
		d.t.Fatalf("row %d, %s: %v", k, col, err)
	}
	return x
}

// ground is the ground distance (m) from point a of row k (its a_x_m and
// a_z_m columns) to point b of row l.
func (d dumpTable) ground(k, l int, a, b string) float64 {
	return math.Hypot(d.num(k, a+"_x_m")-d.num(l, b+"_x_m"), d.num(k, a+"_z_m")-d.num(l, b+"_z_m"))
}

// The dump's columns reproduce eval's figures: 5 s of the circle, inertial
// features, on the embedded set, with --json and --dump. From the rows
// alone the test recomputes the ankles' and toes' sliding on the second
// labels, the lock's own sliding on its labels (each the mean ground speed
// over ticks labelled on that tick and the one before, differencing the
// rows' positions), the contact shares, the transitions per second, the
// trajectory error (the prediction of row k against the root of row k+60),
// its floor (the free simulation's prediction against it, alike; see
// TestMatchingEvalDumpFloor) and the distance to the simulation. The rows
// hold float32s printed to the fewest digits that read back
// (export.CSVFloat), so the positions
// are eval's to the bit; recomputed in float64 the speeds differ from
// eval's float32 arithmetic by rounding: a float32 ulp of a coordinate of
// a few metres (5e-7 m) over a tick (1/60 s) is 3e-3 cm/s at most per
// tick, and the means are held to 1e-3 cm/s plus 1e-4 of the figure.
// Counts and shares are exact.
func TestMatchingEvalDump(t *testing.T) {
	const seconds = 5
	r, header, d := evalDumpRun(t, "--seconds", strconv.Itoa(seconds), "--path", "circle", "--features", "inertial")
	rows := d.rows
	if r.AnkleSliding == nil || r.ToeSliding == nil {
		t.Fatalf("no ankle or toe sliding: %+v", r)
	}
	if want := DumpColumns(); strings.Join(header, ",") != strings.Join(want, ",") {
		t.Fatalf("header %v\nwant %v", header, want)
	}
	if len(rows) != seconds*60 {
		t.Fatalf("%d rows for %d s at 60 Hz", len(rows), seconds)
	}
	num, ground := d.num, d.ground
	on := func(k int, col string) bool {
		switch rows[k][col] {
		case "1":
			return true
		case "0":
			return false
		}
		t.Fatalf("row %d, %s = %q: want 0 or 1", k, col, rows[k][col])
		return false
	}
	// sliding is the mean ground speed (cm/s) of joint ("left_ankle") over
	// the ticks whose label column ("left_ankle_contact") is 1 on the
	// tick and the one before, both feet; and the share labelled.
	sliding := func(joint, label string) (cm, share float64) {
		var sum float64
		var n, labelled int
		for k := range rows {
			for _, side := range []string{"left_", "right_"} {
				if !on(k, side+label) {
					continue
				}
				labelled++
				if k > 0 && on(k-1, side+label) {
					dt := num(k, "t_s") - num(k-1, "t_s")
					sum += ground(k, k-1, side+joint, side+joint) / dt
					n++
				}
			}
		}
		if n == 0 {
			t.Fatalf("no tick labelled by %s", label)
		}
		return 100 * sum / float64(n), float64(labelled) / float64(2*len(rows))
	}
	near := func(what string, got, want float64) {
		if !(math.Abs(got-want) <= 1e-3+1e-4*math.Abs(want)) {
			t.Errorf("%s: %.6f from the dump, %.6f from eval", what, got, want)
		}
	}
	// The rate column is the playing rate, within its bounds and off 1
	// somewhere (the embedded walks are slower than the asked speed);
	// the circle never stands.
	moved := false
	for k := range rows {
		r := num(k, "rate")
		if !(r >= matching.RateMin-1e-6 && r <= matching.RateMax+1e-6) || on(k, "idle") {
			t.Fatalf("row %d: rate %v, idle %s", k, r, rows[k]["idle"])
		}
		moved = moved || math.Abs(r-1) > 0.05
	}
	if !moved {
		t.Errorf("the circle played at rate 1 throughout")
	}
	ankle, ankleShare := sliding("ankle", "ankle_contact")
	toe, toeShare := sliding("toe", "toe_contact")
	lock, lockShare := sliding("ankle", "lock_contact")
	near("ankle sliding (cm/s)", ankle, *r.AnkleSliding)
	near("toe sliding (cm/s)", toe, *r.ToeSliding)
	near("the lock's sliding (cm/s)", lock, r.FootSliding)
	for _, s := range []struct {
		what      string
		got, want float64
	}{{"ankle", ankleShare, r.AnkleContactShare}, {"toe", toeShare, r.ToeContactShare}, {"lock", lockShare, r.ContactShare}} {
		if s.got != s.want {
			t.Errorf("%s contact share: %v from the dump, %v from eval", s.what, s.got, s.want)
		}
	}
	trans := 0
	for k := range rows {
		if on(k, "transition") {
			trans++
		}
	}
	if want := int(math.Round(r.TransitionsPerSecond * seconds)); trans != want || trans == 0 {
		t.Errorf("%d transitions in the dump, %d from eval", trans, want)
	}
	var traj, floor, sync float64
	for k := range rows {
		sync += ground(k, k, "root", "sim")
		if k >= 60 {
			traj += ground(k-60, k, "pred_1s", "root")
			floor += ground(k-60, k, "free_pred_1s", "free_sim")
		}
	}
	near("trajectory error (cm)", 100*traj/float64(len(rows)-60), r.TrajectoryError)
	near("its floor (cm)", 100*floor/float64(len(rows)-60), r.SimTrajectoryError)
	near("distance to the simulation (cm)", 100*sync/float64(len(rows)), r.SyncDistance)
	// The source frame's joints are where the clip playing has them at
	// the root: the output's, locked or blended, are centimetres away,
	// never metres (the root travels 7 m in the run).
	worst := 0.0
	for k := range rows {
		for _, j := range []string{"left_ankle", "left_toe", "right_ankle", "right_toe"} {
			worst = max(worst, ground(k, k, j, strings.Replace(j, "_", "_src_", 1)))
		}
	}
	if !(worst < 0.3) {
		t.Errorf("an output joint %.2f m from the source frame's", worst)
	}
	t.Logf("ankle %.3f toe %.3f lock %.3f cm/s, %d transitions", ankle, toe, lock, trans)
}

// TestMatchingEvalDumpFloor: on a run where the clamp holds the
// simulation back (the zigzag, held at once), the free simulation's
// columns part from the simulation's, and the floor recomputed from them
// is eval's (to the tolerance TestMatchingEvalDump states); from the
// simulation's own columns it would not be.
func TestMatchingEvalDumpFloor(t *testing.T) {
	r, _, d := evalDumpRun(t, "--seconds", "8", "--path", "zigzag", "--features", "inertial", "--hold-after", "0")
	rows, ground := d.rows, d.ground
	var free, own float64
	held := 0
	for k := range rows {
		if ground(k, k, "sim", "free_sim") > 1e-3 {
			held++
		}
		if k >= 60 {
			free += ground(k-60, k, "free_pred_1s", "free_sim")
			own += ground(k-60, k, "pred_1s", "sim")
		}
	}
	free, own = 100*free/float64(len(rows)-60), 100*own/float64(len(rows)-60)
	want := r.SimTrajectoryError
	if held == 0 || !(math.Abs(free-want) <= 1e-3+1e-4*want) || math.Abs(own-want) < 0.1 {
		t.Errorf("floor %.4f cm from the free columns, %.4f from the simulation's, %.4f from eval; %d rows held", free, own, want, held)
	}
	t.Logf("floor %.4f cm from the free columns, %.4f from the simulation's, %.4f from eval; %d of %d rows held", free, own, want, held, len(rows))
}

// --dump takes one run: with all paths or all feature sets it is a usage
// error (exit 2), as is "-"; a dump onto an input file fails (exit 1) and
// leaves the file as it was, as does one onto a read-only file.
func TestMatchingEvalDumpRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--path", "all", "--features", "inertial"},
		{"--path", "circle"}, // --features defaults to all
		{"--path", "circle", "--features", "inertial", "--dump", "-"},
	} {
		var out, errb bytes.Buffer
		if !slices.Contains(args, "--dump") {
			args = append(args, "--dump", filepath.Join(dir, "x.csv"))
		}
		code := Matching(context.Background(), append([]string{"eval", "--seconds", "1"}, args...), &out, &errb)
		if code != ExitUsage || !strings.Contains(errb.String(), "--dump") {
			t.Errorf("%v: exit %d, %q; want %d", args, code, errb.String(), ExitUsage)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.csv")); err == nil {
		t.Error("a refused dump left a file")
	}
	in := fixture.File(t, dir, fixture.Bandai())
	ro := filepath.Join(dir, "ro.csv")
	if err := os.WriteFile(ro, []byte("kept\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{in, ro} {
		before, err := os.ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := Matching(context.Background(), []string{"eval", "--seconds", "1", "--path", "circle", "--features", "inertial",
			"--dump", target, in}, &out, &errb)
		after, _ := os.ReadFile(target)
		if code != ExitFail || !strings.Contains(errb.String(), "--dump: "+target) || !bytes.Equal(before, after) {
			t.Errorf("dump onto %s: exit %d, %q, file kept %v", target, code, errb.String(), bytes.Equal(before, after))
		}
	}
}
