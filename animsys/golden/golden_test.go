package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The files written to a folder are read back and every case is
// reproduced by animsys from its inputs alone, within the stated
// tolerance (exactly, on one machine).
func TestGoldenFilesAreReproduced(t *testing.T) {
	dir := t.TempDir()
	names, err := Write(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(Ops())+1 {
		t.Fatalf("%d files for %d operations", len(names), len(Ops()))
	}
	results, err := CheckDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases, values int
	var worst float64
	for _, r := range results {
		cases, values = cases+r.Cases, values+r.Values
		worst = math.Max(worst, r.MaxAbs)
		if !r.Pass || r.Cases == 0 || r.Values == 0 {
			t.Errorf("%s: %+v", r.Op, r)
		}
	}
	var size int64
	for _, n := range names {
		st, _ := os.Stat(filepath.Join(dir, n))
		size += st.Size()
	}
	t.Logf("%d files (%d kB), %d cases, %d numbers reproduced; largest difference %.3g", len(names), size>>10, cases, values, worst)

	readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	for _, want := range []string{"[w, x, y, z]", "world (left) side", "natural-log scale per", "doublings per second",
		"alpha_vel * dt", "abs 0.0001, rel 0.0001", "| blend.json |", "| transition_cost.json |"} {
		if !bytes.Contains(readme, []byte(want)) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}

// The edge cases named in the issue are there: half-life 0, dt 0,
// near-180-degree rotations, zero scalar velocity, in the files of the
// operations they concern.
func TestGoldenEdgeCasesPresent(t *testing.T) {
	want := map[string][]string{
		"damper_exact":                    {"half-life 0", "dt 0"},
		"critical_spring_damper_exact":    {"half-life 0", "dt 0"},
		"quat_spring_damper_exact":        {"179.5 degrees", "half-life 0", "dt 0"},
		"scale_spring_damper_exact":       {"zero scale velocity", "half-life 0"},
		"inertialize_critical":            {"half-life 0", "179.5 degrees"},
		"blend":                           {"179.5 degrees"},
		"additive":                        {"179.5 degrees", "zero scalar velocity"},
		"fk":                              {"zero scalar velocity", "179.5 degrees"},
		"kform_mul":                       {"179.5 degrees", "zero scalar velocity"},
		"extrapolate_decayed":             {"half-life 0"},
		"tracking_spring_update_exact":    {"dt 0"},
		"transition_cost":                 {"half-life 0"},
		"spring_damper_exact":             {"under-damped", "critically damped", "over-damped", "dt 0"},
		"critical_decay_weights":          {"half-life 0"},
		"scalar_velocity":                 {"dt 0", "zero velocity"},
		"sample_cubic":                    {"bench A", "past the last frame"},
		"tracking_sequence":               {"cuts known", "cuts unknown"},
		"inertialize":                     {"179.5 degrees", "0 s later"},
		"dead_blend":                      {"half-life 0", "0 s later"},
		"kform_rot_ang_between":           {"179 degrees"},
		"exp_map_dx":                      {"179.5 degrees", "zero"},
		"tracking_spring_update":          {"dt 0"},
		"tracking_spring_update_improved": {"dt 0"},
	}
	for _, o := range Ops() {
		names := want[o.Meta().Op]
		if len(names) == 0 {
			continue
		}
		b, err := o.Generate()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if !bytes.Contains(b, []byte(`"name": "`)) || !strings.Contains(caseNames(t, b), n) {
				t.Errorf("%s has no case named with %q: %s", o.Meta().Op, n, caseNames(t, b))
			}
		}
	}
}

func caseNames(t *testing.T, b []byte) string {
	var f struct{ Cases []struct{ Name string } }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, c := range f.Cases {
		s = append(s, c.Name)
	}
	return strings.Join(s, "; ")
}

// The edge cases mean what their names say (checked on the expected
// values, so a change in animsys that broke them fails here as well as in
// animsys's own tests).
func TestGoldenEdgeValues(t *testing.T) {
	get := func(op string) map[string]any {
		for _, o := range Ops() {
			if o.Meta().Op == op {
				b, err := o.Generate()
				if err != nil {
					t.Fatal(err)
				}
				var f map[string]any
				if err := json.Unmarshal(b, &f); err != nil {
					t.Fatal(err)
				}
				out := map[string]any{}
				for _, c := range f["cases"].([]any) {
					c := c.(map[string]any)
					out[c["name"].(string)] = c
				}
				return out
			}
		}
		t.Fatalf("no op %s", op)
		return nil
	}
	num := func(c any, path ...string) float64 {
		v := c
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		return v.(float64)
	}
	d := get("damper_exact")
	if c := d["half-life 0: snaps to the goal"]; num(c, "expected", "x") != num(c, "inputs", "g") {
		t.Error("damper_exact: half-life 0 does not snap")
	}
	if c := d["dt 0: unchanged"]; num(c, "expected", "x") != num(c, "inputs", "x") {
		t.Error("damper_exact: dt 0 changes x")
	}
	if c := d["exactly one half-life"]; math.Abs(num(c, "expected", "x")-num(c, "inputs", "x")/2) > 1e-6 {
		t.Error("damper_exact: one half-life does not halve")
	}
	w := get("critical_decay_weights")["t 0"]
	if num(w, "expected", "w0") != 1 || num(w, "expected", "w1") != 0 || num(w, "expected", "w2") != 0 || num(w, "expected", "w3") != 1 {
		t.Errorf("critical_decay_weights at t 0: %v", w.(map[string]any)["expected"])
	}
	cw := get("cubic_decay_weights")["0.7 s of 0.5 s"]
	for _, k := range []string{"w0", "w1", "w2", "w3"} {
		if num(cw, "expected", k) != 0 {
			t.Errorf("cubic_decay_weights past the blend: %s = %v", k, num(cw, "expected", k))
		}
	}
	s := get("spring_damper_exact")["dt 0: unchanged"]
	if num(s, "expected", "x") != num(s, "inputs", "x") || num(s, "expected", "v") != num(s, "inputs", "v") {
		t.Error("spring_damper_exact: dt 0 changes the state")
	}
	past := get("sample_cubic")["past the last frame: held, at rest"].(map[string]any)["expected"].(map[string]any)
	for _, k := range []string{"vel", "ang", "svl"} {
		for _, v := range past[k].([]any) {
			for _, x := range v.([]any) {
				if x.(float64) != 0 {
					t.Fatalf("sample_cubic past the end: %s not at rest", k)
				}
			}
		}
	}
	sv := get("scalar_velocity")["0.1 to 10 over 3 s (the article's growth)"]
	if math.Abs(num(sv, "expected", "base2_vel")-math.Log2(100)/3) > 1e-5 || math.Abs(num(sv, "expected", "natural_vel")-math.Log(100)/3) > 1e-5 {
		t.Errorf("scalar_velocity: %v", sv.(map[string]any)["expected"])
	}
}

// perturb moves every float32 reached from v (a pointer) by a factor 1 +
// or - 2^-22, two float32 ulps, leaving integers, booleans and strings.
func perturb(v reflect.Value, r *rand.Rand) {
	switch v.Kind() {
	case reflect.Pointer:
		perturb(v.Elem(), r)
	case reflect.Float32:
		s := 1.0
		if r.IntN(2) == 0 {
			s = -1
		}
		v.SetFloat(float64(float32(v.Float() * (1 + s*math.Ldexp(1, -22)))))
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			perturb(v.Field(i), r)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			perturb(v.Index(i), r)
		}
	}
}

// perturbed reproduces the file with every case's inputs perturbed.
func (o *op[I, O]) perturbed(data []byte, r *rand.Rand) (Result, error) {
	var f file[I, O]
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, err
	}
	return o.reproduce(&f, f.Tolerance, func(in *I) { perturb(reflect.ValueOf(in), r) }), nil
}

type perturber interface {
	perturbed(data []byte, r *rand.Rand) (Result, error)
}

// The tolerance is not tighter than the problems are conditioned: with
// every input moved by two float32 ulps — what another correct float32
// implementation may round differently — every case still reproduces
// within it (five draws of the signs). The worst ratio of error to
// allowance is logged per file.
func TestGoldenToleranceCoversRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var worst float64
	var where string
	for _, o := range Ops() {
		b, err := o.Generate()
		if err != nil {
			t.Fatal(err)
		}
		var w float64
		for k := 0; k < 5; k++ {
			res, err := o.(perturber).perturbed(b, r)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Pass {
				t.Errorf("%s: inputs moved by 2 ulps leave the tolerance: %s (%.3g of it)", res.Op, res.Where, res.Worst)
			}
			if res.Worst > w {
				w = res.Worst
			}
			if res.Worst > worst {
				worst, where = res.Worst, res.Op+": "+res.Where
			}
		}
		t.Logf("%-55s worst %.3f of the tolerance", o.Meta().Op, w)
	}
	t.Logf("worst over every file: %.3f of the tolerance (%s)", worst, where)
}

// The check fails when an expected number is off by a little more than
// the tolerance, or a value's shape or a flag differs.
func TestGoldenCheckCatchesDifferences(t *testing.T) {
	var blend, seq Op
	for _, o := range Ops() {
		switch o.Meta().Op {
		case "blend":
			blend = o
		case "tracking_sequence":
			seq = o
		}
	}
	b, err := blend.Generate()
	if err != nil {
		t.Fatal(err)
	}
	var f file[BlendIn, Pose]
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	// One angular velocity component, off by twice its allowance.
	a := &f.Cases[0].Expected.Ang[5][1]
	*a += float32(2 * (DefaultTolerance.Abs + DefaultTolerance.Rel*math.Abs(float64(*a))))
	bad, _ := json.Marshal(f)
	if r, err := blend.Check(bad); err != nil || r.Pass || !strings.Contains(r.Where, ".ang[5][1]") {
		t.Errorf("an angular velocity off by twice the tolerance passes: %+v, %v", r, err)
	}
	f.Cases[0].Expected.Ang = f.Cases[0].Expected.Ang[:22]
	bad, _ = json.Marshal(f)
	if r, _ := blend.Check(bad); r.Pass {
		t.Error("a pose with a joint missing passes")
	}
	if _, err := blend.Check([]byte(`{"cases": [{"inputs": {"lhs": 3}}]}`)); err == nil {
		t.Error("a malformed file reads")
	}
	s, err := seq.Generate()
	if err != nil {
		t.Fatal(err)
	}
	var g file[SequenceIn, Sequence]
	if err := json.Unmarshal(s, &g); err != nil {
		t.Fatal(err)
	}
	g.Cases[0].Inputs.Cuts[40] = false // the cut unknown: the spring sees the jump
	bad, _ = json.Marshal(g)
	if r, _ := seq.Check(bad); r.Pass {
		t.Error("tracking_sequence with a cut dropped from the inputs still reproduces the expected outputs")
	}
}
