package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"kinelab/animsys/export"
	"kinelab/animsys/internal/regular"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
)

// Tolerance is how far a reproduction may be from an expected value:
// |got - want| <= Abs + Rel |want| for every number, Abs in the number's
// unit (m, m/s, rad, rad/s, 1/s, s...).
type Tolerance struct {
	Abs float64 `json:"abs"`
	Rel float64 `json:"rel"`
}

// DefaultTolerance is the tolerance of every file unless it says
// otherwise: a few hundred float32 roundings, far below what a wrong or
// missing term costs (1e-2 of a velocity and more, see animsys/verify).
var DefaultTolerance = Tolerance{Abs: 1e-4, Rel: 1e-4}

// Meta says what a file holds.
type Meta struct {
	Op        string    `json:"op"`       // the file name, without .json
	Article   string    `json:"article"`  // the seed article
	Section   string    `json:"section"`  // its section
	Function  string    `json:"function"` // the article's function(s)
	Animsys   string    `json:"animsys"`  // what reproduces it, in Go
	Notes     string    `json:"notes"`    // units, and where animsys differs from the listing
	Tolerance Tolerance `json:"tolerance"`
}

// Case is one instance: its inputs and the outputs animsys gives.
type Case[I, O any] struct {
	Name     string `json:"name"`
	Inputs   I      `json:"inputs"`
	Expected O      `json:"expected"`
}

// file is the JSON of one operation.
type file[I, O any] struct {
	Meta
	Cases []Case[I, O] `json:"cases"`
}

// Op is one operation's golden file: how to make it and how to reproduce it.
type Op interface {
	Meta() Meta
	// Generate makes the file: the cases' inputs, and the outputs animsys
	// computes from them, as indented JSON.
	Generate() ([]byte, error)
	// Check reads a file and reproduces every case with animsys.
	Check(data []byte) (Result, error)
}

// Result is how closely a file was reproduced.
type Result struct {
	Op     string  `json:"op"`
	Cases  int     `json:"cases"`
	Values int     `json:"values"` // numbers compared
	MaxAbs float64 `json:"max_abs"`
	// Worst is the largest error over its allowance, Abs + Rel |want|:
	// within tolerance when <= 1.
	Worst float64 `json:"worst"`
	// Where names the case and value of the worst error.
	Where string `json:"where,omitempty"`
	Pass  bool   `json:"pass"`
}

// op is an Op built from the cases' inputs and an evaluator.
type op[I, O any] struct {
	meta  Meta
	cases func() []Case[I, O] // inputs only
	eval  func(in *I) O
}

// Meta is the file's description; its tolerance is DefaultTolerance
// unless the operation states its own.
func (o *op[I, O]) Meta() Meta {
	m := o.meta
	if m.Tolerance == (Tolerance{}) {
		m.Tolerance = DefaultTolerance
	}
	return m
}

func (o *op[I, O]) Generate() ([]byte, error) {
	f := file[I, O]{Meta: o.Meta(), Cases: o.cases()}
	for i := range f.Cases {
		f.Cases[i].Expected = o.eval(&f.Cases[i].Inputs)
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.meta.Op, err)
	}
	return append(compactNumbers(b), '\n'), nil
}

func (o *op[I, O]) Check(data []byte) (Result, error) {
	var f file[I, O]
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return Result{Op: o.meta.Op}, fmt.Errorf("%s: %w", o.meta.Op, err)
	}
	return o.reproduce(&f, f.Tolerance, nil), nil
}

// reproduce evaluates every case (its inputs passed through change first,
// when not nil) and compares with the expected outputs.
func (o *op[I, O]) reproduce(f *file[I, O], tol Tolerance, change func(in *I)) Result {
	r := Result{Op: f.Op, Cases: len(f.Cases), Pass: true}
	for i := range f.Cases {
		c := &f.Cases[i]
		in := c.Inputs
		if change != nil {
			in = deepCopy(c.Inputs)
			change(&in)
		}
		got := o.eval(&in)
		cmp := comparer{tol: tol, where: c.Name}
		cmp.walk(reflect.ValueOf(got), reflect.ValueOf(c.Expected), "")
		r.Values += cmp.n
		r.MaxAbs = math.Max(r.MaxAbs, cmp.maxAbs)
		if cmp.worst > r.Worst || cmp.bad != "" {
			r.Worst, r.Where = cmp.worst, cmp.at
		}
		if cmp.bad != "" {
			r.Worst, r.Where = math.Inf(1), cmp.bad
		}
	}
	r.Pass = r.Worst <= 1
	return r
}

// comparer walks two values of one type and measures their numbers'
// differences; every other value must be equal.
type comparer struct {
	tol           Tolerance
	where         string
	n             int
	maxAbs, worst float64
	at, bad       string
}

func (c *comparer) walk(got, want reflect.Value, path string) {
	switch got.Kind() {
	case reflect.Float32, reflect.Float64:
		g, w := got.Float(), want.Float()
		c.n++
		e := math.Abs(g - w)
		if math.IsNaN(g) != math.IsNaN(w) || math.IsInf(g, 0) != math.IsInf(w, 0) || (math.IsInf(g, 0) && g != w) {
			c.bad = fmt.Sprintf("%s %s: %v, want %v", c.where, path, g, w)
			return
		}
		if math.IsNaN(e) || math.IsInf(g, 0) {
			return // both NaN, or the same infinity
		}
		c.maxAbs = math.Max(c.maxAbs, e)
		if q := e / (c.tol.Abs + c.tol.Rel*math.Abs(w)); q > c.worst {
			c.worst, c.at = q, fmt.Sprintf("%s %s: %v, want %v", c.where, path, g, w)
		}
	case reflect.Struct:
		for i := 0; i < got.NumField(); i++ {
			c.walk(got.Field(i), want.Field(i), path+"."+jsonName(got.Type().Field(i)))
		}
	case reflect.Slice, reflect.Array:
		if got.Len() != want.Len() {
			c.bad = fmt.Sprintf("%s %s: %d values, want %d", c.where, path, got.Len(), want.Len())
			return
		}
		for i := 0; i < got.Len(); i++ {
			c.walk(got.Index(i), want.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	default:
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			c.bad = fmt.Sprintf("%s %s: %v, want %v", c.where, path, got.Interface(), want.Interface())
		}
	}
}

func jsonName(f reflect.StructField) string {
	if t := f.Tag.Get("json"); t != "" {
		return t
	}
	return f.Name
}

// deepCopy copies a value of plain data through JSON.
func deepCopy[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// numberList matches a JSON array of numbers spread over lines by
// MarshalIndent.
var numberList = regexp.MustCompile(`\[\s*(-?[0-9][0-9.eE+-]*(?:,\s*-?[0-9][0-9.eE+-]*)*)\s*\]`)
var space = regexp.MustCompile(`,\s+`)

// compactNumbers puts each array of numbers (a vector, a quaternion) on
// one line.
func compactNumbers(b []byte) []byte {
	return numberList.ReplaceAllFunc(b, func(m []byte) []byte {
		inner := numberList.FindSubmatch(m)[1]
		return append(append([]byte("["), space.ReplaceAll(inner, []byte(", "))...), ']')
	})
}

// Write generates every file into dir (created if needed), with its
// README.md, and returns the files' names. Each file is written whole
// beside its target (export.Create), and all are renamed over their
// targets only when every one is written: a run that fails or is stopped
// (ctx done, checked between files) leaves dir's files as they were.
func Write(ctx context.Context, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Every target first: a read-only file or an input among them fails
	// the run before anything is written.
	for _, o := range Ops() {
		if err := export.CheckTarget(filepath.Join(dir, o.Meta().Op+".json")); err != nil {
			return nil, err
		}
	}
	if err := export.CheckTarget(filepath.Join(dir, "README.md")); err != nil {
		return nil, err
	}
	var names []string
	var outs []*export.Output
	defer func() {
		for _, f := range outs {
			f.Abort() // nothing after Commit
		}
	}()
	for _, o := range Ops() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := o.Generate()
		if err != nil {
			return nil, err
		}
		name := o.Meta().Op + ".json"
		f, err := writeFile(filepath.Join(dir, name), b)
		if err != nil {
			return nil, err
		}
		outs = append(outs, f)
		names = append(names, name)
	}
	f, err := writeFile(filepath.Join(dir, "README.md"), []byte(Readme()))
	if err != nil {
		return nil, err
	}
	outs = append(outs, f)
	names = append(names, "README.md")
	for _, f := range outs {
		if err := f.Commit(); err != nil {
			return nil, err // names the file
		}
	}
	return names, nil
}

// writeFile writes b to path's temporary file, closed and ready for
// Commit.
func writeFile(path string, b []byte) (*export.Output, error) {
	return export.Prepare(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// maxGoldenFile is the size limit of a golden file read by CheckDir:
// those Write writes are under a megabyte.
const maxGoldenFile = 64 << 20

// CheckDir reproduces every golden file in dir with animsys. A file that is
// missing or does not parse is an error.
func CheckDir(dir string) ([]Result, error) {
	var out []Result
	for _, o := range Ops() {
		// A regular file under the limit: a FIFO or device named like a
		// golden file is refused, not read for ever.
		b, err := regular.ReadFile(filepath.Join(dir, o.Meta().Op+".json"), maxGoldenFile, "a golden file")
		if err != nil {
			return out, err
		}
		r, err := o.Check(b)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Ops lists every golden file's operation, sorted by name.
func Ops() []Op {
	ops := append(poseOps(), springOps()...)
	sort.Slice(ops, func(i, j int) bool { return ops[i].Meta().Op < ops[j].Meta().Op })
	return ops
}
