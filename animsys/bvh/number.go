package bvh

import (
	"errors"
	"math"
	"strconv"
)

// parseFloat32 parses a decimal number (optional sign, digits, point,
// exponent) into the nearest float32, as strconv.ParseFloat does. On
// failure it returns what was expected instead: "a number" or "a number
// within float32 range". Hexadecimal, "inf" and "nan" are not numbers here.
func parseFloat32(b []byte) (float32, string) {
	if v, ok := parseDecimal(b); ok {
		return v, ""
	}
	if len(b) == 0 || len(b) > 100 {
		return 0, "a number"
	}
	for _, c := range b {
		if (c < '0' || c > '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E' {
			return 0, "a number"
		}
	}
	v, err := strconv.ParseFloat(string(b), 32)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, "a number within float32 range"
		}
		return 0, "a number"
	}
	return float32(v), ""
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimal is parseFloat32's fast path for the numbers motion data is
// made of: [+-]digits[.digits] with at most 2^53 as the digits and 22
// decimals. Then m / 10^d is one correctly rounded float64 division, and
// rounding that to float32 is exact unless it lands on a float32 halfway
// point; ok is false there and for anything else, left to strconv.
func parseDecimal(b []byte) (v float32, ok bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg, i = b[0] == '-', 1
	}
	var m uint64
	digits, decimals, point := 0, 0, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if m = m*10 + uint64(c-'0'); m > 1<<53 {
				return 0, false
			}
			digits++
			if point {
				decimals++
			}
		case c == '.' && !point:
			point = true
		default:
			return 0, false
		}
	}
	if digits == 0 || decimals >= len(pow10) {
		return 0, false
	}
	f := float64(m) / pow10[decimals]
	if math.Float64bits(f)&(1<<29-1) == 1<<28 {
		return 0, false // halfway between two float32s: strconv rounds it
	}
	if v = float32(f); neg {
		v = -v
	}
	return v, true
}
