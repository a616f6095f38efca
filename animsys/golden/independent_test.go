package golden

import (
	"encoding/json"
	"math"
	"testing"
)

// Independent references: some expected values recomputed here in float64
// straight from the articles' formulas (or by integrating the spring's
// differential equation), not through animsys, so the golden data is
// checked against the articles and not only against itself.

// golden decodes op's generated file.
func golden[I, O any](t *testing.T, name string) file[I, O] {
	t.Helper()
	for _, o := range Ops() {
		if o.Meta().Op == name {
			b, err := o.Generate()
			if err != nil {
				t.Fatal(err)
			}
			var f file[I, O]
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("no golden file %s", name)
	return file[I, O]{}
}

type d3 [3]float64
type dq [4]float64 // w, x, y, z

func (a d3) add(b d3) d3        { return d3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a d3) sub(b d3) d3        { return d3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a d3) mul(b d3) d3        { return d3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }
func (a d3) scale(s float64) d3 { return d3{a[0] * s, a[1] * s, a[2] * s} }
func (a d3) cross(b d3) d3 {
	return d3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func f64(v V3) d3 { return d3{float64(v[0]), float64(v[1]), float64(v[2])} }
func q64(q Q4) dq { return dq{float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])} }

func qmul(a, b dq) dq {
	return dq{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}

// rotate is quat_mul_vec3: q v q^-1.
func rotate(q dq, v d3) d3 {
	r := qmul(qmul(q, dq{0, v[0], v[1], v[2]}), dq{q[0], -q[1], -q[2], -q[3]})
	return d3{r[1], r[2], r[3]}
}

// near reports |got - want| <= tol per component, with the tolerance's
// allowance abs + rel |want|.
func near(got []float64, want []float32, tol Tolerance) (float64, bool) {
	var worst float64
	for i := range got {
		e := math.Abs(got[i] - float64(want[i]))
		worst = math.Max(worst, e/(tol.Abs+tol.Rel*math.Abs(float64(want[i]))))
	}
	return worst, worst <= 1
}

// fk.json against op_fk written out in float64.
func TestGoldenFKIsTheArticles(t *testing.T) {
	f := golden[FKIn, Pose](t, "fk")
	var worst float64
	for _, c := range f.Cases {
		l := c.Inputs.Pose
		n := len(l.Pos)
		pos, vel, ang, svl, scl := make([]d3, n), make([]d3, n), make([]d3, n), make([]d3, n), make([]d3, n)
		rot := make([]dq, n)
		for i, p := range c.Inputs.Parents {
			lp, lr, ls := f64(l.Pos[i]), q64(l.Rot[i]), f64(l.Scl[i])
			lv, la, lsv := f64(l.Vel[i]), f64(l.Ang[i]), f64(l.Svl[i])
			if p < 0 {
				pos[i], rot[i], scl[i], vel[i], ang[i], svl[i] = lp, lr, ls, lv, la, lsv
				continue
			}
			arm := rotate(rot[p], lp.mul(scl[p]))
			pos[i] = arm.add(pos[p])
			rot[i] = qmul(rot[p], lr)
			scl[i] = ls.mul(scl[p])
			vel[i] = rotate(rot[p], lv.mul(scl[p])).add(vel[p]).add(ang[p].cross(arm)).add(rotate(rot[p], lp.mul(scl[p]).mul(svl[p])))
			ang[i] = rotate(rot[p], la).add(ang[p])
			svl[i] = lsv.add(svl[p])
		}
		for j := 0; j < n; j++ {
			e := c.Expected
			for _, pair := range []struct {
				got  d3
				want V3
			}{{pos[j], e.Pos[j]}, {scl[j], e.Scl[j]}, {vel[j], e.Vel[j]}, {ang[j], e.Ang[j]}, {svl[j], e.Svl[j]}} {
				w, ok := near(pair.got[:], pair.want[:], f.Tolerance)
				worst = math.Max(worst, w)
				if !ok {
					t.Fatalf("%s joint %d: op_fk in float64 gives %v, the golden file %v", c.Name, j, pair.got, pair.want)
				}
			}
		}
	}
	t.Logf("fk.json vs op_fk in float64: worst %.3f of the tolerance", worst)
}

// blend.json against op_blend: positions, scales and the linear and
// scalar velocities are the article's; the angular velocity is exact where
// the article's is a small-rotation approximation — the difference the
// README states, above the tolerance on the bench clips and within 0.3
// rad/s.
func TestGoldenBlendAgainstTheListing(t *testing.T) {
	f := golden[BlendIn, Pose](t, "blend")
	var angGap float64
	for _, c := range f.Cases {
		in := c.Inputs
		a, av := float64(in.Alpha), float64(in.AlphaVel)
		for j := range in.Lhs.Pos {
			lp, rp := f64(in.Lhs.Pos[j]), f64(in.Rhs.Pos[j])
			pos := lp.add(rp.sub(lp).scale(a))
			vel := f64(in.Lhs.Vel[j]).add(f64(in.Rhs.Vel[j]).sub(f64(in.Lhs.Vel[j])).scale(a)).add(rp.sub(lp).scale(av))
			var lsr, svl d3
			for k := 0; k < 3; k++ {
				lsr[k] = math.Log(float64(in.Rhs.Scl[j][k]) / float64(in.Lhs.Scl[j][k]))
			}
			scl := f64(in.Lhs.Scl[j])
			for k := 0; k < 3; k++ {
				scl[k] *= math.Exp(a * lsr[k])
				svl[k] = float64(in.Lhs.Svl[j][k]) + (float64(in.Rhs.Svl[j][k])-float64(in.Lhs.Svl[j][k]))*a + lsr[k]*av
			}
			for _, pair := range []struct {
				what string
				got  d3
				want V3
			}{{"pos", pos, c.Expected.Pos[j]}, {"vel", vel, c.Expected.Vel[j]}, {"scl", scl, c.Expected.Scl[j]}, {"svl", svl, c.Expected.Svl[j]}} {
				if _, ok := near(pair.got[:], pair.want[:], f.Tolerance); !ok {
					t.Fatalf("%s joint %d %s: op_blend gives %v, the golden file %v", c.Name, j, pair.what, pair.got, pair.want)
				}
			}
			// The article's angular velocity: lerp of the two plus the
			// rotation between them times the weight rate.
			l, r := q64(in.Lhs.Rot[j]), q64(in.Rhs.Rot[j])
			d := qmul(r, dq{l[0], -l[1], -l[2], -l[3]})
			if d[0] < 0 {
				d = dq{-d[0], -d[1], -d[2], -d[3]}
			}
			s := math.Sqrt(d[1]*d[1] + d[2]*d[2] + d[3]*d[3])
			k := 0.0
			if s > 0 {
				k = 2 * math.Atan2(s, d[0]) / s
			}
			ang := f64(in.Lhs.Ang[j]).add(f64(in.Rhs.Ang[j]).sub(f64(in.Lhs.Ang[j])).scale(a)).add(d3{d[1], d[2], d[3]}.scale(k * av))
			e := ang.sub(f64(c.Expected.Ang[j]))
			angGap = math.Max(angGap, math.Sqrt(e[0]*e[0]+e[1]*e[1]+e[2]*e[2]))
		}
	}
	t.Logf("blend.json: largest |article's angular velocity - exact| %.3g rad/s", angGap)
	if angGap <= f.Tolerance.Abs || angGap > 3 {
		t.Errorf("the article's angular velocity differs from blend.json's by %.3g rad/s; the README says up to ~0.25 on the bench clips", angGap)
	}
}

// The spring files against the spring's differential equation integrated
// in float64 (RK4, 20000 steps): x” = s (g - x) + d (q - v).
func TestGoldenSpringsSolveTheODE(t *testing.T) {
	integrate := func(x, v, g, q, s, d, dt float64) (float64, float64) {
		const steps = 20000
		h := dt / steps
		acc := func(x, v float64) float64 { return s*(g-x) + d*(q-v) }
		for i := 0; i < steps; i++ {
			k1x, k1v := v, acc(x, v)
			k2x, k2v := v+h/2*k1v, acc(x+h/2*k1x, v+h/2*k1v)
			k3x, k3v := v+h/2*k2v, acc(x+h/2*k2x, v+h/2*k2v)
			k4x, k4v := v+h*k3v, acc(x+h*k3x, v+h*k3v)
			x += h / 6 * (k1x + 2*k2x + 2*k3x + k4x)
			v += h / 6 * (k1v + 2*k2v + 2*k3v + k4v)
		}
		return x, v
	}
	check := func(name string, f file[SpringIn, XV], params func(in SpringIn) (s, d, g, q float64, ok bool)) {
		for _, c := range f.Cases {
			in := c.Inputs
			s, d, g, q, ok := params(in)
			if !ok || in.Dt == 0 {
				continue
			}
			x, v := integrate(float64(in.X), float64(in.V), g, q, s, d, float64(in.Dt))
			if w, ok := near([]float64{x, v}, []float32{c.Expected.X, c.Expected.V}, f.Tolerance); !ok {
				t.Errorf("%s %s: the ODE gives (%v, %v), the golden file (%v, %v) (%.3g of the tolerance)", name, c.Name, x, v, c.Expected.X, c.Expected.V, w)
			}
		}
	}
	check("spring_damper_exact", golden[SpringIn, XV](t, "spring_damper_exact"), func(in SpringIn) (float64, float64, float64, float64, bool) {
		return float64(in.Stiffness), float64(in.Damping), float64(in.G), float64(in.Q), true
	})
	critical := func(in SpringIn) (float64, float64, float64, float64, bool) {
		if in.Halflife == 0 {
			return 0, 0, 0, 0, false
		}
		d := 4 * math.Ln2 / float64(in.Halflife)
		return d * d / 4, d, float64(in.G), float64(in.Q), true
	}
	check("critical_spring_damper_exact", golden[SpringIn, XV](t, "critical_spring_damper_exact"), critical)
	check("decay_spring_damper_exact", golden[SpringIn, XV](t, "decay_spring_damper_exact"), critical)
}

// damper_exact, cubic_decay_weights and transition_cost against the
// articles' formulas in float64.
func TestGoldenFormulas(t *testing.T) {
	d := golden[DamperIn, X](t, "damper_exact")
	for _, c := range d.Cases {
		in := c.Inputs
		want := float64(in.G)
		if in.Halflife > 0 {
			want = float64(in.X) + (float64(in.G)-float64(in.X))*(1-math.Exp(-math.Ln2*float64(in.Dt)/float64(in.Halflife)))
		}
		if _, ok := near([]float64{want}, []float32{c.Expected.X}, d.Tolerance); !ok {
			t.Errorf("damper_exact %s: %v, the golden file %v", c.Name, want, c.Expected.X)
		}
	}
	w := golden[BlendAlphaIn, DecayWeightsOut](t, "cubic_decay_weights")
	for _, c := range w.Cases {
		T := float64(c.Inputs.Duration)
		x := math.Min(math.Max(float64(c.Inputs.Time)/(T+1e-8), 0), 1)
		want := []float64{2*x*x*x - 3*x*x + 1, (x*x*x - 2*x*x + x) * T, (6*x*x - 6*x) / (T + 1e-8), 3*x*x - 4*x + 1}
		e := c.Expected
		if _, ok := near(want, []float32{e.W0, e.W1, e.W2, e.W3}, w.Tolerance); !ok {
			t.Errorf("cubic_decay_weights %s: %v, the golden file %+v", c.Name, want, e)
		}
	}
	tc := golden[CostIn, CostOut](t, "transition_cost")
	for _, c := range tc.Cases {
		x, v, h := float64(c.Inputs.X), float64(c.Inputs.V), float64(c.Inputs.Halflife)
		if h == 0 {
			continue
		}
		// The article's decay_spring_damper_displacement, as printed.
		y := 4 * math.Ln2 / h / 2
		tt := -x / (v + x*y)
		int0 := (x*y*2 + v) / (y * y)
		intT := (math.Exp(-y*tt) / (y * y)) * (tt*v*y + x*y*(tt*y+2) + v)
		cost := math.Abs(int0)
		if tt > 0 {
			cost = math.Abs(int0-intT) + math.Abs(intT)
		}
		if _, ok := near([]float64{cost, math.Abs(int0)}, []float32{c.Expected.Cost, c.Expected.Approx}, tc.Tolerance); !ok {
			t.Errorf("transition_cost %s: %v %v, the golden file %+v", c.Name, cost, math.Abs(int0), c.Expected)
		}
	}
}
