package gltf

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// maxSparseBytes bounds an accessor with no buffer view (all zeros, plus
// sparse values): its count is the only thing that sizes it, and a
// corrupt count must not allocate gigabytes.
const maxSparseBytes = 64 << 20

// maxValue bounds every float an accessor holds (translations and
// positions in file units, scales, matrix entries, CUBICSPLINE tangents
// per second), as bvh.MaxValue bounds a BVH file's: a million units is a
// kilometre in millimetres, far beyond any character, and values beyond
// it are damage, not motion, whose products (a scale times the offsets
// below it, a tangent times an interval) overflow float32 into Inf.
// Integers (indices, joints) are not values and are not bounded here.
const maxValue = 1e6

// kind says which component types an accessor may have for a use, and
// how integers read (glTF 2.0 section 3.6.2 "Accessors", and 3.11
// "Animations" for normalised rotations).
type kind uint8

const (
	floatOnly kind = iota // FLOAT (times, translations, positions, matrices)
	normFloat             // FLOAT or a normalised integer (rotations, weights, UVs, scales)
	integer               // unsigned integers, read as they are (indices, joints)
)

// AccessorError is an accessor the reader refuses, named with its use:
// "accessor 12 (node "Hips" translation, animation "walk"): what". It
// stands alone after the file's name, since its use says where it is.
type AccessorError struct {
	Index int
	Use   string // what reads it; "" when unknown
	Err   error
}

func (e *AccessorError) Error() string {
	if e.Use == "" {
		return fmt.Sprintf("accessor %d: %v", e.Index, e.Err)
	}
	return fmt.Sprintf("accessor %d (%s): %v", e.Index, e.Use, e.Err)
}

func (e *AccessorError) Unwrap() error { return e.Err }

// readFloats reads accessor idx as float32s, comps per element, with comps
// one of want (section 3.6.2.1 component counts; MAT4 is 16), for use (an
// *AccessorError names it). Normalised integers map to [-1, 1] or [0, 1]
// as section 3.6.2.3 says: signed c / (2^(n-1) - 1), clamped at -1,
// unsigned c / (2^n - 1). Floats must be finite and within maxValue.
func readFloats(doc *gltf.Document, idx int, use string, k kind, want ...int) (data []float32, comps int, err error) {
	fail := func(format string, args ...any) ([]float32, int, error) {
		return nil, 0, &AccessorError{Index: idx, Use: use, Err: fmt.Errorf(format, args...)}
	}
	if idx < 0 || idx >= len(doc.Accessors) || doc.Accessors[idx] == nil {
		return fail("does not exist")
	}
	acr := doc.Accessors[idx]
	comps = acr.Type.Components()
	if acr.Type == gltf.AccessorMat2 || acr.Type == gltf.AccessorMat3 {
		comps = 0 // padded columns: no use here reads them
	}
	if !slices.Contains(want, comps) {
		return fail("type %v, want %d components", acr.Type, want)
	}
	if err := checkComponentType(acr, k); err != nil {
		return fail("%w", err)
	}
	if err := checkSize(doc, acr); err != nil {
		return fail("%w", err)
	}
	raw, err := readAccessor(doc, acr)
	if err != nil {
		return fail("%w", err)
	}
	data = appendFloats(make([]float32, 0, acr.Count*comps), raw, k != integer)
	if len(data) != acr.Count*comps {
		return fail("read %d values, want %d", len(data), acr.Count*comps)
	}
	for i, x := range data {
		switch {
		case math.IsNaN(float64(x)) || math.IsInf(float64(x), 0):
			return fail("element %d: a value that is not a finite number", i/max(comps, 1))
		case k != integer && math.Abs(float64(x)) > maxValue:
			return fail("element %d: value %g beyond ±%g, the largest kinelab reads (units, ratios or units per second)",
				i/max(comps, 1), x, float32(maxValue))
		}
	}
	return data, comps, nil
}

// checkComponentType rejects a component type that accessors of kind k
// may not have.
func checkComponentType(acr *gltf.Accessor, k kind) error {
	switch acr.ComponentType {
	case gltf.ComponentFloat:
	case gltf.ComponentByte, gltf.ComponentUbyte, gltf.ComponentShort, gltf.ComponentUshort:
		if k == floatOnly || (k == normFloat && !acr.Normalized) {
			return fmt.Errorf("component type %v here must be FLOAT%s", acr.ComponentType,
				map[bool]string{true: " or normalised", false: ""}[k == normFloat])
		}
		if k == integer && (acr.ComponentType == gltf.ComponentByte || acr.ComponentType == gltf.ComponentShort) {
			return fmt.Errorf("signed component type %v for indices", acr.ComponentType)
		}
	case gltf.ComponentUint:
		if k != integer {
			return errors.New("component type UNSIGNED_INT here")
		}
	default:
		return fmt.Errorf("unknown component type %v", acr.ComponentType)
	}
	if k == floatOnly && acr.ComponentType != gltf.ComponentFloat || k == integer && acr.ComponentType == gltf.ComponentFloat {
		return fmt.Errorf("component type %v", acr.ComponentType)
	}
	return nil
}

// appendFloats appends the values raw (as the library reads an
// accessor) to data, matrices column-major; integers are normalised when
// norm.
func appendFloats(data []float32, raw any, norm bool) []float32 {
	switch d := raw.(type) {
	case []float32:
		data = append(data, d...)
	case [][2]float32:
		for _, e := range d {
			data = append(data, e[:]...)
		}
	case [][3]float32:
		for _, e := range d {
			data = append(data, e[:]...)
		}
	case [][4]float32:
		for _, e := range d {
			data = append(data, e[:]...)
		}
	case [][4][4]float32:
		// The library's matrices are [row][column]; ours column-major, as
		// the file stores them.
		for _, e := range d {
			for c := 0; c < 4; c++ {
				data = append(data, e[0][c], e[1][c], e[2][c], e[3][c])
			}
		}
	default:
		data = flatten(data, reflect.ValueOf(raw), norm)
	}
	return data
}

// flatten appends the integer components of v (a slice, of arrays of
// arrays...) to data, normalised when norm.
func flatten(data []float32, v reflect.Value, norm bool) []float32 {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			data = flatten(data, v.Index(i), norm)
		}
	case reflect.Int8:
		x := float32(v.Int())
		if norm {
			x = max(x/127, -1)
		}
		data = append(data, x)
	case reflect.Int16:
		x := float32(v.Int())
		if norm {
			x = max(x/32767, -1)
		}
		data = append(data, x)
	case reflect.Uint8:
		x := float32(v.Uint())
		if norm {
			x /= 255
		}
		data = append(data, x)
	case reflect.Uint16:
		x := float32(v.Uint())
		if norm {
			x /= 65535
		}
		data = append(data, x)
	case reflect.Uint32:
		data = append(data, float32(v.Uint()))
	case reflect.Float32:
		data = append(data, float32(v.Float()))
	}
	return data
}

// readUints reads an integer accessor (indices, joints) as uint32s.
func readUints(doc *gltf.Document, idx int, use string, want ...int) ([]uint32, int, error) {
	// float32 holds every integer below 2^24 exactly: more vertices than a
	// mesh here can have.
	f, comps, err := readFloats(doc, idx, use, integer, want...)
	if err != nil {
		return nil, 0, err
	}
	out := make([]uint32, len(f))
	for i, x := range f {
		if x >= 1<<24 {
			return nil, 0, &AccessorError{Index: idx, Use: use, Err: fmt.Errorf("index %v too large", x)}
		}
		out[i] = uint32(x)
	}
	return out, comps, nil
}

// checkSize refuses an accessor whose count its buffer view cannot hold
// before any allocation sized by that count, and one the spec forbids for
// its alignment (section 3.6.2.4 "Data Alignment": offset + stride (count
// - 1) + element size <= view length; the accessor's offset, its offset
// within the buffer and the view's stride multiples of the component
// size), and a view that overruns its buffer.
func checkSize(doc *gltf.Document, acr *gltf.Accessor) error {
	if acr.Count <= 0 {
		return errors.New("count must be positive")
	}
	elem := gltf.SizeOfElement(acr.ComponentType, acr.Type)
	if elem <= 0 {
		return errors.New("unknown element size")
	}
	if acr.Sparse != nil && (acr.Sparse.Count <= 0 || acr.Sparse.Count > acr.Count) {
		return fmt.Errorf("sparse count %d", acr.Sparse.Count)
	}
	if acr.BufferView == nil {
		if acr.Count > maxSparseBytes/elem {
			return fmt.Errorf("count %d with no buffer view: too large", acr.Count)
		}
		return nil
	}
	bi := *acr.BufferView
	if bi < 0 || bi >= len(doc.BufferViews) || doc.BufferViews[bi] == nil {
		return fmt.Errorf("buffer view %d does not exist", bi)
	}
	bv := doc.BufferViews[bi]
	stride := bv.ByteStride
	if stride == 0 {
		stride = elem
	}
	if acr.ByteOffset < 0 || stride < 0 || bv.ByteLength < 0 || bv.ByteOffset < 0 {
		return errors.New("negative offset, stride or length")
	}
	comp := max(acr.ComponentType.ByteSize(), 1)
	switch {
	case acr.ByteOffset%comp != 0:
		return fmt.Errorf("byteOffset %d is not a multiple of its component size, %d bytes (glTF 2.0 section 3.6.2.4)", acr.ByteOffset, comp)
	case (bv.ByteOffset+acr.ByteOffset)%comp != 0:
		return fmt.Errorf("starts at byte %d of its buffer, not a multiple of its component size, %d bytes (glTF 2.0 section 3.6.2.4)",
			bv.ByteOffset+acr.ByteOffset, comp)
	case bv.ByteStride%comp != 0:
		return fmt.Errorf("buffer view %d: byteStride %d is not a multiple of the component size, %d bytes (glTF 2.0 section 3.6.2.4)", bi, bv.ByteStride, comp)
	case stride < elem:
		return fmt.Errorf("buffer view %d: byteStride %d is shorter than an element, %d bytes", bi, stride, elem)
	}
	if bv.Buffer < 0 || bv.Buffer >= len(doc.Buffers) || doc.Buffers[bv.Buffer] == nil {
		return fmt.Errorf("buffer view %d: buffer %d does not exist", bi, bv.Buffer)
	}
	if end, have := int64(bv.ByteOffset)+int64(bv.ByteLength), int64(len(doc.Buffers[bv.Buffer].Data)); end > have {
		return fmt.Errorf("buffer view %d ends at byte %d; buffer %d has %d", bi, end, bv.Buffer, have)
	}
	need := int64(acr.ByteOffset) + int64(stride)*int64(acr.Count-1) + int64(elem)
	if need > int64(bv.ByteLength) {
		return fmt.Errorf("%d elements need %d bytes; buffer view %d has %d", acr.Count, need, bi, bv.ByteLength)
	}
	return nil
}

// readAccessor is modeler.ReadAccessor (which reads interleaved and sparse
// accessors), its panic, should a corrupt file find one, an error.
func readAccessor(doc *gltf.Document, acr *gltf.Accessor) (data any, err error) {
	defer func() {
		if r := recover(); r != nil {
			data, err = nil, fmt.Errorf("unreadable: %v", r)
		}
	}()
	return modeler.ReadAccessor(doc, acr, nil)
}
