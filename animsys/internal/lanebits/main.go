// Command lanebits prints a digest of the bits every pose operation and
// lane function computes over a fixed set of inputs, ordinary and
// hostile (rotations past pi, scales of zero and below, NaN, huge
// weights). `make test` runs it in the portable build and in the AVX2
// build (GOEXPERIMENT=simd) and compares the two: mathx's lane types
// promise the same float32 operations in the same order, so the same
// bits. A NaN counts as one value whatever its payload: where two
// different NaNs meet, x86 keeps one operand's, and which is first in a
// commutative product is the compiler's choice.
package main

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

type digest struct{ h hash.Hash }

func (d *digest) f(x float32) {
	b := math.Float32bits(x)
	if x != x {
		b = 0x7fc00000
	}
	var buf [4]byte
	binary.LittleEndian.PutUint32(buf[:], b)
	d.h.Write(buf[:])
}

func (d *digest) pose(p *animsys.Pose) {
	for i := range p.Pos {
		for _, v := range [...]mgl32.Vec3{p.Pos[i], p.Scl[i], p.Vel[i], p.Ang[i], p.Svl[i]} {
			d.f(v[0])
			d.f(v[1])
			d.f(v[2])
		}
		d.f(p.Rot[i].W)
		d.f(p.Rot[i].V[0])
		d.f(p.Rot[i].V[1])
		d.f(p.Rot[i].V[2])
	}
}

// hostile puts extreme values into a few joints of p.
func hostile(p *animsys.Pose, seed int) {
	nan := float32(math.NaN())
	n := p.Len()
	j := func(k int) int { return (k*7 + seed) % n }
	p.Rot[j(1)] = mgl32.Quat{W: -0.2, V: mgl32.Vec3{0.9, 0.3, -0.2}}.Normalize() // the long way round
	p.Rot[j(2)] = mgl32.Quat{W: 0, V: mgl32.Vec3{1, 0, 0}}                       // half a turn
	p.Scl[j(3)] = mgl32.Vec3{0, 1, -2}
	p.Scl[j(4)] = mgl32.Vec3{1e-40, 3e38, 1}
	p.Ang[j(5)] = mgl32.Vec3{80, -50, 30}
	p.Vel[j(6)] = mgl32.Vec3{nan, 1, 2}
	p.Svl[j(7)] = mgl32.Vec3{5, 5, 5}
	p.Rot[j(8)] = mgl32.Quat{W: nan, V: mgl32.Vec3{0, 1, 0}}
}

func main() {
	d := &digest{sha256.New()}
	skel := animsys.BenchSkeleton()
	for _, n := range []int{1, 7, 8, 9, 23, 40} {
		parents := skel.Parents[:min(n, len(skel.Parents))]
		for len(parents) < n {
			parents = append(parents, len(parents)-1)
		}
		clipA, clipB := animsys.GenerateBenchClip(3), animsys.GenerateBenchClip(4)
		a, b, add, off, out, g, prev, scratch := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n),
			animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
		full := animsys.NewPose(clipA.Joints)
		for k, tm := range []float32{-0.5, 0, 0.31, 4.2, clipA.Duration(), 99} {
			animsys.SampleCubic(&full, &clipA, tm)
			d.pose(&full)
			animsys.SampleLinear(&full, &clipB, tm)
			d.pose(&full)
			sample := func(p *animsys.Pose, c *animsys.Clip, t float32) {
				animsys.SampleCubic(&full, c, t)
				for i := 0; i < n; i++ {
					p.SetKform(i, full.Kform(i%full.Len()))
				}
			}
			sample(&a, &clipA, tm)
			sample(&b, &clipB, tm+1.7)
			if k%2 == 1 {
				hostile(&a, k)
				hostile(&b, k+3)
			}
			animsys.RandomAdditive(&add, uint32(k+1))
			for _, w := range [][2]float32{{0.3, 0.5}, {1, -2}, {-3, 40}} {
				animsys.Blend(&out, &a, &b, w[0], w[1])
				d.pose(&out)
				out.CopyFrom(&a)
				animsys.Additive(&out, &add, w[0], w[1])
				d.pose(&out)
				out.CopyFrom(&a)
				animsys.AdditiveLocal(&out, &add, w[0], w[1])
				d.pose(&out)
				animsys.InertializeOffset(&off, &a, &b)
				d.pose(&off)
				animsys.InertializeWeights(&out, &off, &b, w[0], w[1], w[1], w[0])
				d.pose(&out)
				animsys.DeadBlend(&out, &scratch, &a, &b, 0.2, w[0], 0.5)
				d.pose(&out)
			}
			animsys.FK(&g, &a, parents)
			d.pose(&g)
			animsys.FK(&prev, &b, parents)
			animsys.FiniteDiff(&out, &g, &prev, 1.0/60)
			d.pose(&out)
			animsys.BK(&out, &g, parents)
			d.pose(&out)
			animsys.ExtrapolatePrev(&out, &a, 0.1)
			d.pose(&out)
		}
	}
	// The lane functions at their ranges' edges and beyond.
	for _, x := range []float32{0, 1, -1, 1e-40, 3e38, 88.5, -90, 0.34, 1e-8, float32(math.Inf(1)), float32(math.NaN())} {
		v := mathx.Splat(x).Lanes()
		d.f(mathx.LaneOf(mathx.LaneLog(v), 0))
		d.f(mathx.LaneOf(mathx.LaneExp(v), 0))
		for _, a := range []float32{x, 0.5 * x, 3} {
			k := mathx.ExpAt(mathx.Splat(a * a).Lanes())
			d.f(mathx.LaneOf(k.Sinc, 0))
			d.f(mathx.LaneOf(k.Cos, 0))
			d.f(mathx.LaneOf(k.C1, 0))
			d.f(mathx.LaneOf(k.C2, 0))
		}
	}
	fmt.Printf("%x %s\n", d.h.Sum(nil), mathx.SIMD)
}
