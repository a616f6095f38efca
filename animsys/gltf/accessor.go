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

// kind says which component types an accessor may have for a use, and
// how integers read (glTF 2.0 section 3.6.2 "Accessors", and 3.11
// "Animations" for normalised rotations).
type kind uint8

const (
	floatOnly kind = iota // FLOAT (times, translations, positions, matrices)
	normFloat             // FLOAT or a normalised integer (rotations, weights, UVs, scales)
	integer               // unsigned integers, read as they are (indices, joints)
)

// readFloats reads accessor idx as float32s, comps per element, with comps
// one of want (section 3.6.2.1 component counts; MAT4 is 16). Normalised
// integers map to [-1, 1] or [0, 1] as section 3.6.2.3 says: signed c /
// (2^(n-1) - 1), clamped at -1, unsigned c / (2^n - 1).
func readFloats(doc *gltf.Document, idx int, k kind, want ...int) (data []float32, comps int, err error) {
	if idx < 0 || idx >= len(doc.Accessors) || doc.Accessors[idx] == nil {
		return nil, 0, fmt.Errorf("accessor %d does not exist", idx)
	}
	acr := doc.Accessors[idx]
	comps = acr.Type.Components()
	if acr.Type == gltf.AccessorMat2 || acr.Type == gltf.AccessorMat3 {
		comps = 0 // padded columns: no use here reads them
	}
	if !slices.Contains(want, comps) {
		return nil, 0, fmt.Errorf("accessor %d: type %v, want %d components", idx, acr.Type, want)
	}
	if err := checkComponentType(acr, k); err != nil {
		return nil, 0, fmt.Errorf("accessor %d: %w", idx, err)
	}
	if err := checkSize(doc, acr); err != nil {
		return nil, 0, fmt.Errorf("accessor %d: %w", idx, err)
	}
	raw, err := readAccessor(doc, acr)
	if err != nil {
		return nil, 0, fmt.Errorf("accessor %d: %w", idx, err)
	}
	data = appendFloats(make([]float32, 0, acr.Count*comps), raw, k != integer)
	if len(data) != acr.Count*comps {
		return nil, 0, fmt.Errorf("accessor %d: read %d values, want %d", idx, len(data), acr.Count*comps)
	}
	for _, x := range data {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, 0, fmt.Errorf("accessor %d: a value that is not a finite number", idx)
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
func readUints(doc *gltf.Document, idx int, want ...int) ([]uint32, int, error) {
	// float32 holds every integer below 2^24 exactly: more vertices than a
	// mesh here can have.
	f, comps, err := readFloats(doc, idx, integer, want...)
	if err != nil {
		return nil, 0, err
	}
	out := make([]uint32, len(f))
	for i, x := range f {
		if x >= 1<<24 {
			return nil, 0, fmt.Errorf("accessor %d: index %v too large", idx, x)
		}
		out[i] = uint32(x)
	}
	return out, comps, nil
}

// checkSize refuses an accessor whose count its buffer view cannot hold
// before any allocation sized by that count (section 3.6.2.4 "Data
// Alignment": offset + stride (count - 1) + element size <= view length).
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
	if acr.ByteOffset < 0 || stride < 0 || bv.ByteLength < 0 {
		return errors.New("negative offset, stride or length")
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
