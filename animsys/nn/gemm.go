package nn

import (
	"unsafe"

	"kinelab/animsys/mathx"
)

// The matrix kernels every pass is made of, on row-major float32
// matrices, written once on mathx's lane types: eight float32s a register
// (AVX2, with fused multiply-adds) or one (the portable build). train.go
// splits a batch's rows (or a weight matrix's rows) among goroutines.
//
// Each kernel keeps a block of results in registers while it streams
// through the operands, so that a load feeds more than one multiply-add:
//   - y = W x + b (gemv, forwardRows): the dot products of four rows of W
//     with one row of x (gemv) or two (forwardRows), each a lane register
//     of partial sums over the row, reduced at the end (mathx.StoreSums):
//     five loads for four multiply-adds (gemv), six for eight;
//   - dX = dY W (backInRows) and dW += dYᵀ X (backWeightRows): two rows of
//     the result, four lane registers wide each, summed over W's rows (X's
//     rows) with dY's values broadcast: six loads for eight.
//
// Every output is the same sum in the same order whichever block or
// goroutine computes it (tests: TestForwardBatchMatchesForward,
// TestWorkersSameBits). A row whose length is no multiple of the lanes
// ends with a part load (mathx.LoadSoaFloatPart, zeros past the end);
// a count of W rows no multiple of four repeats its last row.

// lanes is the width of a lane register in float32s.
const lanes = mathx.Lanes

// wide is the width of backInRows's and backWeightRows's blocks.
const wide = 4 * lanes

type lane = mathx.SoaFloat

// ld is the lanes at s's start (s at least lanes long).
func ld(s []float32) lane { return mathx.LoadSoaFloat((*[lanes]float32)(s)) }

// at is the lanes at element i of the row starting at p, unchecked: the
// hot loops take their rows as slices of their length first, and stay
// within them; through slices (a bounds check a load) the portable
// build's loops ran at half the plain loops' speed, its registers spilled.
func at(p *float32, i int) lane {
	return mathx.LoadSoaFloat((*[lanes]float32)(unsafe.Add(unsafe.Pointer(p), 4*i)))
}

// st writes x to s's start (s at least lanes long).
func st(s []float32, x lane) { x.Store((*[lanes]float32)(s)) }

// splat is v in every lane (a broadcast: v is no constant).
func splat(v float32) lane { return mathx.Splat(v).Lanes() }

// gemv is y = W x + b for one vector: W out rows of in weights.
func gemv(y, w, x, b []float32, out, in int) {
	x = x[:in]
	w = w[:out*in]
	var part [4]float32
	for o := 0; o < out; o += 4 {
		// the rows o..o+3, the last repeated past out
		o1, o2, o3 := min(o+1, out-1), min(o+2, out-1), min(o+3, out-1)
		w0, w1, w2, w3 := w[o*in:o*in+in], w[o1*in:o1*in+in], w[o2*in:o2*in+in], w[o3*in:o3*in+in]
		a0, a1, a2, a3 := bias(b, o, o1, o2, o3)
		i := 0
		px, p0, p1, p2, p3 := &x[0], &w0[0], &w1[0], &w2[0], &w3[0]
		for ; i+lanes <= in; i += lanes {
			xv := at(px, i)
			a0 = at(p0, i).MulAdd(xv, a0)
			a1 = at(p1, i).MulAdd(xv, a1)
			a2 = at(p2, i).MulAdd(xv, a2)
			a3 = at(p3, i).MulAdd(xv, a3)
		}
		if i < in {
			xv := mathx.LoadSoaFloatPart(x[i:])
			a0 = mathx.LoadSoaFloatPart(w0[i:]).MulAdd(xv, a0)
			a1 = mathx.LoadSoaFloatPart(w1[i:]).MulAdd(xv, a1)
			a2 = mathx.LoadSoaFloatPart(w2[i:]).MulAdd(xv, a2)
			a3 = mathx.LoadSoaFloatPart(w3[i:]).MulAdd(xv, a3)
		}
		sums(y, o, out, &part, a0, a1, a2, a3)
	}
	mathx.ClearUpper()
}

// bias is the starting partial sums of rows o0..o3: each bias in the
// first lane, 0 in the others.
func bias(b []float32, o0, o1, o2, o3 int) (lane, lane, lane, lane) {
	return mathx.LoadSoaFloatPart(b[o0 : o0+1]), mathx.LoadSoaFloatPart(b[o1 : o1+1]),
		mathx.LoadSoaFloatPart(b[o2 : o2+1]), mathx.LoadSoaFloatPart(b[o3 : o3+1])
}

// sums writes the sums of rows o..o+3's partial sums to y[o:o+4], those
// of them below out (through part, when fewer than four are).
func sums(y []float32, o, out int, part *[4]float32, a0, a1, a2, a3 lane) {
	if o+4 <= out {
		mathx.StoreSums((*[4]float32)(y[o:o+4]), a0, a1, a2, a3)
		return
	}
	mathx.StoreSums(part, a0, a1, a2, a3)
	copy(y[o:out], part[:])
}

// forwardRows is Y = X Wᵀ + b for rows r0..r1 of X (rows of in values)
// into Y (rows of out values): two rows of X against four of W at a
// time, so each load of W serves two rows, each of X four.
func forwardRows(y, x, w, b []float32, in, out, r0, r1 int) {
	w = w[:out*in]
	var part [4]float32
	r := r0
	for ; r+2 <= r1; r += 2 {
		x0, x1 := x[r*in:r*in+in], x[(r+1)*in:(r+1)*in+in]
		y0, y1 := y[r*out:r*out+out], y[(r+1)*out:(r+1)*out+out]
		for o := 0; o < out; o += 4 {
			o1, o2, o3 := min(o+1, out-1), min(o+2, out-1), min(o+3, out-1)
			w0, w1, w2, w3 := w[o*in:o*in+in], w[o1*in:o1*in+in], w[o2*in:o2*in+in], w[o3*in:o3*in+in]
			a0, a1, a2, a3 := bias(b, o, o1, o2, o3)
			c0, c1, c2, c3 := a0, a1, a2, a3
			i := 0
			pu, pv, p0, p1, p2, p3 := &x0[0], &x1[0], &w0[0], &w1[0], &w2[0], &w3[0]
			for ; i+lanes <= in; i += lanes {
				u, v := at(pu, i), at(pv, i)
				wv := at(p0, i)
				a0, c0 = wv.MulAdd(u, a0), wv.MulAdd(v, c0)
				wv = at(p1, i)
				a1, c1 = wv.MulAdd(u, a1), wv.MulAdd(v, c1)
				wv = at(p2, i)
				a2, c2 = wv.MulAdd(u, a2), wv.MulAdd(v, c2)
				wv = at(p3, i)
				a3, c3 = wv.MulAdd(u, a3), wv.MulAdd(v, c3)
			}
			if i < in {
				u, v := mathx.LoadSoaFloatPart(x0[i:]), mathx.LoadSoaFloatPart(x1[i:])
				wv := mathx.LoadSoaFloatPart(w0[i:])
				a0, c0 = wv.MulAdd(u, a0), wv.MulAdd(v, c0)
				wv = mathx.LoadSoaFloatPart(w1[i:])
				a1, c1 = wv.MulAdd(u, a1), wv.MulAdd(v, c1)
				wv = mathx.LoadSoaFloatPart(w2[i:])
				a2, c2 = wv.MulAdd(u, a2), wv.MulAdd(v, c2)
				wv = mathx.LoadSoaFloatPart(w3[i:])
				a3, c3 = wv.MulAdd(u, a3), wv.MulAdd(v, c3)
			}
			sums(y0, o, out, &part, a0, a1, a2, a3)
			sums(y1, o, out, &part, c0, c1, c2, c3)
		}
	}
	if r < r1 {
		gemv(y[r*out:(r+1)*out], w, x[r*in:(r+1)*in], b, out, in)
	}
	mathx.ClearUpper()
}

// backInRows is dX = dY W for rows r0..r1: each row of dX the sum of W's
// rows weighed by the row of dY, two rows of dX at a time, wide columns
// (then one lane register's) held in registers over all of W's rows.
func backInRows(dx, dy, w []float32, in, out, r0, r1 int) {
	w = w[:out*in]
	r := r0
	for ; r < r1; r += 2 {
		// a last odd row is paired with itself, its result stored once
		s := min(r+1, r1-1)
		d0, d1 := dy[r*out:r*out+out], dy[s*out:s*out+out]
		x0, x1 := dx[r*in:r*in+in], dx[s*in:s*in+in]
		c := 0
		for ; c+wide <= in; c += wide {
			z := mathx.Zero()
			a0, a1, a2, a3, b0, b1, b2, b3 := z, z, z, z, z, z, z, z
			for o, g := range d0 {
				wr := &w[o*in+c : o*in+c+wide][0] // one check for the block
				a0, a1, a2, a3, b0, b1, b2, b3 = block(wr, splat(g), splat(d1[o]), a0, a1, a2, a3, b0, b1, b2, b3)
			}
			st4(x1[c:], b0, b1, b2, b3)
			st4(x0[c:], a0, a1, a2, a3)
		}
		for ; c < in; c += lanes {
			a, b := mathx.Zero(), mathx.Zero()
			for o, g := range d0 {
				wv := mathx.LoadSoaFloatPart(w[o*in+c : o*in+in])
				a, b = wv.MulAdd(splat(g), a), wv.MulAdd(splat(d1[o]), b)
			}
			b.StoreSlicePart(x1[c:])
			a.StoreSlicePart(x0[c:])
		}
	}
	mathx.ClearUpper()
}

// block is the backward kernels' step: a wide block of the row at p
// times u added to a's lanes, times v to b's (two result rows sharing one
// row's loads: backInRows's rows of W, backWeightRows's of X).
func block(p *float32, u, v, a0, a1, a2, a3, b0, b1, b2, b3 lane) (lane, lane, lane, lane, lane, lane, lane, lane) {
	r := at(p, 0)
	a0, b0 = r.MulAdd(u, a0), r.MulAdd(v, b0)
	r = at(p, lanes)
	a1, b1 = r.MulAdd(u, a1), r.MulAdd(v, b1)
	r = at(p, 2*lanes)
	a2, b2 = r.MulAdd(u, a2), r.MulAdd(v, b2)
	r = at(p, 3*lanes)
	a3, b3 = r.MulAdd(u, a3), r.MulAdd(v, b3)
	return a0, a1, a2, a3, b0, b1, b2, b3
}

// st4 writes a wide block to s's start.
func st4(s []float32, a0, a1, a2, a3 lane) {
	s = s[:wide]
	st(s, a0)
	st(s[lanes:], a1)
	st(s[2*lanes:], a2)
	st(s[3*lanes:], a3)
}

// ld4 is a wide block at s's start.
func ld4(s []float32) (lane, lane, lane, lane) {
	s = s[:wide]
	return ld(s), ld(s[lanes:]), ld(s[2*lanes:]), ld(s[3*lanes:])
}

// backWeightRows accumulates dW += dYᵀ X and db += Σ dY for the weight
// rows (output units) o0..o1, over n rows of the batch: two weight rows
// at a time, wide columns (then one lane register's) held in registers
// while the batch's rows stream by.
func backWeightRows(dw, db, dy, x []float32, in, out, n, o0, o1 int) {
	x = x[:n*in]
	dy = dy[:n*out]
	for o := o0; o < o1; o += 2 {
		// a last odd row is paired with itself, its result stored once
		p := min(o+1, o1-1)
		w0, w1 := dw[o*in:o*in+in], dw[p*in:p*in+in]
		c := 0
		for ; c+wide <= in; c += wide {
			a0, a1, a2, a3 := ld4(w0[c:])
			b0, b1, b2, b3 := ld4(w1[c:])
			for r := 0; r < n; r++ {
				xr := &x[r*in+c : r*in+c+wide][0] // one check for the block
				a0, a1, a2, a3, b0, b1, b2, b3 = block(xr, splat(dy[r*out+o]), splat(dy[r*out+p]), a0, a1, a2, a3, b0, b1, b2, b3)
			}
			st4(w1[c:], b0, b1, b2, b3)
			st4(w0[c:], a0, a1, a2, a3)
		}
		for ; c < in; c += lanes {
			a, b := mathx.LoadSoaFloatPart(w0[c:]), mathx.LoadSoaFloatPart(w1[c:])
			for r := 0; r < n; r++ {
				xv := mathx.LoadSoaFloatPart(x[r*in+c : r*in+in])
				a, b = xv.MulAdd(splat(dy[r*out+o]), a), xv.MulAdd(splat(dy[r*out+p]), b)
			}
			b.StoreSlicePart(w1[c:])
			a.StoreSlicePart(w0[c:])
		}
	}
	// db: the columns o0..o1 of dY summed over the rows, a lane register
	// of them at a time
	for o := o0; o < o1; o += lanes {
		d := db[o:o1]
		a := mathx.LoadSoaFloatPart(d)
		for r := 0; r < n; r++ {
			a = a.Add(mathx.LoadSoaFloatPart(dy[r*out+o : r*out+o1]))
		}
		a.StoreSlicePart(d)
	}
	mathx.ClearUpper()
}
