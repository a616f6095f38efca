package ui

import (
	"fmt"

	"kinelab/animsys/mathx"
)

// Range is one slider, declared once: the setting it edits, its label, its
// ends and how its value is printed. A lab lists its sliders in a table
// (Ranges) that its panel draws (Panel.Range) and its settings check
// clamps (Ranges.Clamp), so a value read from a settings file lands where
// the slider can show it, with one statement of the ends.
type Range struct {
	Label string
	V     *float32 // the setting: what right-click and a section's reset put back
	// Lo and Hi are the slider's ends, in the slider's units.
	Lo, Hi float32
	// Format prints the slider's value ("%.2f s"); Text, when set, makes
	// the caption from it instead.
	Format string
	Text   func(x float32) string
	// Get and Set convert between the setting and the slider's value when
	// they differ (a rate in Hz for a period in seconds, a percentage for
	// a fraction, a log for a gain); nil when the slider edits V itself.
	Get func() float32
	Set func(x float32)
}

// value is the slider's value of the setting.
func (r *Range) value() float32 {
	if r.Get != nil {
		return r.Get()
	}
	return *r.V
}

// caption prints slider value x.
func (r *Range) caption(x float32) string {
	if r.Text != nil {
		return r.Text(x)
	}
	return fmt.Sprintf(r.Format, x)
}

// Clamp puts the setting within the range (through Set for a stand-in);
// a setting already inside is left exactly as it is.
func (r *Range) Clamp() {
	x := r.value()
	c := ClampSetting(x, r.Lo, r.Hi)
	if c == x {
		return
	}
	if r.Set != nil {
		r.Set(c)
	} else {
		*r.V = c
	}
}

// ClampSetting is x within [lo, hi], and lo for NaN: the value a setting
// from a file or a typed field takes.
func ClampSetting(x, lo, hi float32) float32 {
	if x != x {
		return lo
	}
	return mathx.Clamp(x, lo, hi)
}

// Ranges is a panel's table of sliders.
type Ranges []Range

// Clamp puts every setting of the table within its range.
func (t Ranges) Clamp() {
	for i := range t {
		t[i].Clamp()
	}
}

// Of is the row of setting v. A setting missing from the table is a
// mistake in the lab's code: it panics, so every test that opens the
// panel finds it.
func (t Ranges) Of(v *float32) *Range {
	for i := range t {
		if t[i].V == v {
			return &t[i]
		}
	}
	panic("ui: a slider's setting is not in its table")
}

// Range draws the slider of setting v from table t: a labelled slider over
// the row's ends, as Slider does. It reports a change of the setting.
func (p *Panel) Range(t Ranges, v *float32) bool {
	r := t.Of(v)
	switch {
	case r.Get == nil && r.Text == nil:
		return p.Slider(r.Label, r.V, r.Lo, r.Hi, r.Format)
	case r.Get == nil:
		// The slider edits the setting itself, so a value typed into it
		// (which the text field keeps by the value's address) lands.
		return p.SliderFor(r.V, r.Label, r.V, r.Lo, r.Hi, r.caption(*r.V))
	}
	// A stand-in: the slider's value lives only for this frame, so the
	// text field cannot keep it; typing a value is for direct sliders.
	x := r.value()
	if !p.SliderFor(r.V, r.Label, &x, r.Lo, r.Hi, r.caption(x)) {
		return false
	}
	if r.Set != nil {
		r.Set(x)
	} else {
		*r.V = x
	}
	return true
}
