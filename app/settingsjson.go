package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The settings file read and written one setting at a time: a value that
// does not read loses only itself, and keys this build does not know
// (a newer version's) are written back as they were.

// readSettings reads a settings file's top-level object (after a UTF-8
// byte order mark, if any); an error says where the file stops being JSON
// (file:line:col).
func readSettings(path string, b []byte) (map[string]json.RawMessage, error) {
	// A byte order mark, which Windows editors write, is no JSON but no
	// reason to lose the file either.
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var top map[string]json.RawMessage
	quoted, at := quoteNonFinite(b)
	err := json.Unmarshal(quoted, &top)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off := syn.Offset // in b: less the quotes added before it
		for _, i := range at {
			if int64(i) < off {
				off -= 2
			}
		}
		line, col := lineCol(b, off)
		return nil, &unreadableError{fmt.Sprintf("%s:%d:%d: %v", path, line, col, syn), err}
	case errors.As(err, &typ):
		return nil, &unreadableError{fmt.Sprintf("%s: want a JSON object of settings, got %s", path, typ.Value), err}
	case err != nil:
		return nil, &unreadableError{fmt.Sprintf("%s: %v", path, err), err}
	case top == nil:
		return nil, &unreadableError{path + ": want a JSON object of settings, got null", nil}
	}
	return top, nil
}

// quoteNonFinite returns b with the bare NaN, Infinity and -Infinity that
// some JSON writers emit (Python's json module) made strings, so that each
// is one bad value, reported with its setting, and not a file that does
// not read; and where in the result it added quotes.
func quoteNonFinite(b []byte) ([]byte, []int) {
	var out []byte
	var at []int
	last, inString := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++ // an escaped character
		case c == '"':
			inString = !inString
		case !inString && (c == 'N' || c == 'I' || c == '-'):
			for _, tok := range []string{"NaN", "Infinity", "-Infinity"} {
				if bytes.HasPrefix(b[i:], []byte(tok)) {
					out = append(append(out, b[last:i]...), '"')
					at = append(at, len(out)-1)
					out = append(append(out, tok...), '"')
					last = i + len(tok)
					i = last - 1
					break
				}
			}
		}
	}
	if at == nil {
		return b, nil
	}
	return append(out, b[last:]...), at
}

// unreadableError is a settings file that is not a JSON object: nothing
// in it can be read, so it is kept aside rather than written over. err is
// what encoding/json said (nil for null), which msg says with where.
type unreadableError struct {
	msg string
	err error
}

func (e *unreadableError) Error() string { return e.msg }

// Unwrap is what encoding/json said, for errors.Is and errors.As.
func (e *unreadableError) Unwrap() error { return e.err }

// lineCol is the line and column (from 1) of the byte before offset, where
// encoding/json stopped.
func lineCol(b []byte, offset int64) (line, col int) {
	at := int(min(max(offset-1, 0), int64(len(b))))
	nl := bytes.LastIndexByte(b[:at], '\n')
	return 1 + bytes.Count(b[:at], []byte{'\n'}), at - nl
}

// keepAside moves an unreadable settings file to path.bad (path.bad.1 ...
// if that is taken) and returns the new name.
func keepAside(path string) (string, error) {
	for i := range 100 {
		bad := path + ".bad"
		if i > 0 {
			bad += "." + strconv.Itoa(i)
		}
		if _, err := os.Lstat(bad); errors.Is(err, fs.ErrNotExist) {
			return bad, os.Rename(path, bad)
		}
	}
	return "", fmt.Errorf("%s: too many .bad files beside it", path)
}

// jsonField is a settings struct's field as the settings file names it:
// its json tag's name, else its Go name in lower case with underscores
// between words ("KeepRest" is "keep_rest"), the one style of every key
// ("ui_scale" sat beside "KeepRest"); old is the Go name, which earlier
// versions wrote and which is still read ("" for a tagged field).
type jsonField struct {
	name, old string
	index     int
}

// jsonFields lists the fields of struct type t that the settings file
// reads and writes, with their names.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		old := ""
		if name == "" {
			name, old = snakeCase(f.Name), f.Name
		}
		out = append(out, jsonField{name, old, i})
	}
	return out
}

// snakeCase is a Go name in lower case, words joined by underscores, an
// initialism a word of its own: "LineScale" "line_scale", "IKChain"
// "ik_chain", "HoldAfter" "hold_after".
func snakeCase(name string) string {
	r := []rune(name)
	var b strings.Builder
	for i, c := range r {
		upper := unicode.IsUpper(c)
		if i > 0 && upper && (!unicode.IsUpper(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// key is the key of obj the field is read from: its name, else its old
// name (findKey for each).
func (f jsonField) key(obj map[string]json.RawMessage) (string, bool) {
	if k, ok := findKey(obj, f.name); ok || f.old == "" {
		return k, ok
	}
	return findKey(obj, f.old)
}

// findKey is the key of obj that encoding/json would read into the field
// called name: that exact key, else one equal to it but for case.
func findKey(obj map[string]json.RawMessage, name string) (string, bool) {
	if _, ok := obj[name]; ok {
		return name, true
	}
	for k := range obj {
		if strings.EqualFold(k, name) {
			return k, true
		}
	}
	return "", false
}

// unmarshaler is json.Unmarshaler's type: a struct that decodes itself is
// one value.
var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// decodeFields sets the fields of the struct ptr points at from the JSON
// object raw, one field at a time (a struct field's own fields too), so
// that one bad value loses only itself: a field whose value does not decode keeps its value and is
// returned as a problem named at (e.g. "labs.springs.Period: want a
// number, got \"fast\"; kept 2"). Keys no field reads are ignored here
// and kept by SaveSettings.
func decodeFields(at string, ptr any, raw json.RawMessage) []string {
	if raw == nil {
		return nil
	}
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return []string{fmt.Sprintf("%s: settings of type %T cannot be read", at, ptr)}
	}
	v = v.Elem()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return []string{fmt.Sprintf("%s: want an object, got %s", at, short(raw))}
	}
	var problems []string
	for _, f := range jsonFields(v.Type()) {
		key, ok := f.key(obj)
		if !ok {
			continue
		}
		cur := v.Field(f.index)
		if cur.Kind() == reflect.Struct && !reflect.PointerTo(cur.Type()).Implements(unmarshaler) {
			// A group of settings (matching's Sync): field by field too.
			problems = append(problems, decodeFields(at+"."+f.name, cur.Addr().Interface(), obj[key])...)
			continue
		}
		val := reflect.New(cur.Type())
		val.Elem().Set(cur)
		if err := json.Unmarshal(obj[key], val.Interface()); err != nil {
			problems = append(problems, fmt.Sprintf("%s.%s: want %s, got %s; kept %v", at, f.name, want(cur.Type()), short(obj[key]), cur.Interface()))
			continue
		}
		cur.Set(val.Elem())
	}
	return problems
}

// mergeFields is the JSON object raw with the fields of the struct v (or
// the struct it points at) written over it, in the struct's order, the
// keys it does not know after them: what a newer version wrote stays. A
// field that does not encode (NaN) keeps raw's value and is returned as
// a problem named at.
func mergeFields(at string, raw json.RawMessage, v any) (json.RawMessage, []string) {
	obj := map[string]json.RawMessage{}
	_ = json.Unmarshal(raw, &obj) // not an object: replaced
	if obj == nil {
		obj = map[string]json.RawMessage{}
	}
	rv := reflect.Indirect(reflect.ValueOf(v))
	var keys, problems []string
	for _, f := range jsonFields(rv.Type()) {
		cur := rv.Field(f.index)
		var b json.RawMessage
		var err error
		if cur.Kind() == reflect.Struct && !reflect.PointerTo(cur.Type()).Implements(unmarshaler) {
			// A group of settings, as decodeFields reads it: field by
			// field, its keys in the one style too.
			var prev json.RawMessage
			if k, ok := f.key(obj); ok {
				prev = obj[k]
			}
			var probs []string
			b, probs = mergeFields(at+"."+f.name, prev, cur.Interface())
			problems = append(problems, probs...)
		} else if b, err = json.Marshal(cur.Interface()); err != nil {
			problems = append(problems, fmt.Sprintf("%s.%s not saved: %v", at, f.name, err))
			continue
		}
		for k, ok := f.key(obj); ok; k, ok = f.key(obj) {
			delete(obj, k) // the old name's too: written in the one style
		}
		obj[f.name] = b
		keys = append(keys, f.name)
	}
	return writeObject(orderKeys(keys, obj), obj), problems
}

// mergeObjects is base with over's keys written over it, objects within
// merged key by key.
func mergeObjects(base, over map[string]json.RawMessage) map[string]json.RawMessage {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]json.RawMessage{}
	}
	for k, v := range over {
		var bo, oo map[string]json.RawMessage
		if json.Unmarshal(out[k], &bo) == nil && bo != nil && json.Unmarshal(v, &oo) == nil && oo != nil {
			m := mergeObjects(bo, oo)
			v = writeObject(orderKeys(nil, m), m)
		}
		out[k] = v
	}
	return out
}

// orderKeys lists obj's keys: those of first that it has, then the
// others sorted.
func orderKeys(first []string, obj map[string]json.RawMessage) []string {
	var keys, rest []string
	for _, k := range first {
		if _, ok := obj[k]; ok {
			keys = append(keys, k)
		}
	}
	for k := range obj {
		if !slices.Contains(first, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(keys, rest...)
}

// writeObject writes obj as a compact JSON object, its keys in order.
func writeObject(keys []string, obj map[string]json.RawMessage) json.RawMessage {
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		b = append(append(append(b, kb...), ':'), obj[k]...)
	}
	return append(b, '}')
}

// want says what JSON a setting of type t takes.
func want(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number (" + t.Kind().String() + ")"
	case reflect.Float32, reflect.Float64:
		return "a number (" + t.Kind().String() + ")"
	case reflect.String:
		return "a string"
	case reflect.Array:
		return fmt.Sprintf("a list of %d values", t.Len())
	case reflect.Slice:
		return "a list"
	}
	return "an object"
}

// short is a JSON value for a message: compact, cut to 40 characters.
func short(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(raw)
	}
	s := b.String()
	if r := []rune(s); len(r) > 40 {
		s = string(r[:37]) + "..."
	}
	return s
}

// clampNamed runs check, which puts the settings in the struct ptr points
// at back in their ranges (a lab's CheckSettings, the clock's sliders),
// and names each setting it moved, by its path from at: "labs.springs.Period
// = 9 is above its maximum 2; using 2". A value quietly changed would look
// to the user like a setting that does not last. To say which end a value
// hit, each moved setting is probed: set far above (below) its range and
// checked again, it lands on its maximum (minimum); a value moved anywhere
// else (a choice this build does not have) is named as such. The settings
// are left as check left them.
func clampNamed(at string, ptr any, check func()) []string {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		check()
		return nil
	}
	v = v.Elem()
	before := reflect.New(v.Type()).Elem()
	before.Set(v)
	check()
	after := reflect.New(v.Type()).Elem()
	after.Set(v)
	var problems []string
	var walk func(at string, cur, was, now reflect.Value)
	walk = func(at string, cur, was, now reflect.Value) {
		switch {
		case cur.Kind() == reflect.Struct && !reflect.PointerTo(cur.Type()).Implements(unmarshaler):
			for _, f := range jsonFields(cur.Type()) {
				walk(at+"."+f.name, cur.Field(f.index), was.Field(f.index), now.Field(f.index))
			}
		case cur.Kind() == reflect.Array:
			for i := 0; i < cur.Len(); i++ {
				walk(fmt.Sprintf("%s[%d]", at, i), cur.Index(i), was.Index(i), now.Index(i))
			}
		case !sameValue(was, now):
			problems = append(problems, at+" = "+showValue(was)+" "+clampReason(cur, was, now, check)+"; using "+showValue(now))
			v.Set(after)
		}
	}
	walk(at, v, before, after)
	return problems
}

// clampReason says why check moved a setting from was to now, probing
// its range through cur (the setting in the struct check checks): the
// values it lands on from far above, far below, zero and just above zero
// (a rate slid for a period maps those to its ends) span its range.
func clampReason(cur, was, now reflect.Value, check func()) string {
	x, num := floatOf(was)
	if num && x != x {
		return "is not a number"
	}
	if !num {
		return "is not one of its choices"
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, probe := range probes(cur.Type()) {
		cur.Set(probe)
		check()
		if y, _ := floatOf(cur); y == y {
			lo, hi = min(lo, y), max(hi, y)
		}
	}
	y, _ := floatOf(now)
	switch {
	case x > y && y == hi:
		return "is above its maximum " + showValue(now)
	case x < y && y == lo:
		return "is below its minimum " + showValue(now)
	case cur.CanInt() || cur.CanUint():
		return "is not one of its choices"
	}
	return "is out of its range"
}

// probes are values of a number type beyond any setting's range, at both
// ends, and zero and the smallest value above it.
func probes(t reflect.Type) []reflect.Value {
	var out []reflect.Value
	add := func(set func(v reflect.Value)) {
		v := reflect.New(t).Elem()
		set(v)
		out = append(out, v)
	}
	add(func(reflect.Value) {})
	switch t.Kind() {
	case reflect.Float32:
		for _, f := range []float64{math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32} {
			add(func(v reflect.Value) { v.SetFloat(f) })
		}
	case reflect.Float64:
		for _, f := range []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64} {
			add(func(v reflect.Value) { v.SetFloat(f) })
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		for _, i := range []int64{1<<(t.Bits()-1) - 1, -1 << (t.Bits() - 1), 1} {
			add(func(v reflect.Value) { v.SetInt(i) })
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		for _, u := range []uint64{1<<t.Bits() - 1, 1} {
			add(func(v reflect.Value) { v.SetUint(u) })
		}
	}
	return out
}

// floatOf is a number setting's value as a float64.
func floatOf(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint()), true
	}
	return 0, false
}

// sameValue reports whether two settings hold the same value, bit for bit
// for floats (a NaN left as it is is unchanged).
func sameValue(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Float32:
		return math.Float32bits(float32(a.Float())) == math.Float32bits(float32(b.Float()))
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	}
	if !a.Comparable() {
		return reflect.DeepEqual(a.Interface(), b.Interface())
	}
	return a.Equal(b)
}

// showValue prints a setting's value as the settings file writes it.
func showValue(v reflect.Value) string {
	if b, err := json.Marshal(v.Interface()); err == nil {
		return string(b)
	}
	return fmt.Sprint(v.Interface())
}
