package bvh

import (
	"strings"
	"testing"

	"kinelab/internal/fixture"
	"kinelab/internal/mocap"
)

// TestDetectMocap: what Detect reads from every real file, against what
// ../shared/mocap/SOURCES.md says of it (unlisted files: a figure 0.9-2.3
// m tall).
func TestDetectMocap(t *testing.T) {
	want := map[string]struct {
		up    Up
		units Units
		skip  int
	}{
		"01": {UpY, CMU, 1}, // cgspeed's T-pose row
		"02": {UpY, Centimetres, 0},
		"03": {UpY, Centimetres, 0},
		"04": {UpZ, Inches, 0},
		"05": {UpZ, Inches, 0},
		"06": {UpY, Centimetres, 0},
		"07": {UpY, Metres, 0},
		"08": {UpY, CMU, 0}, // the 3dsMax release has no T-pose row
		"09": {UpZ, Inches, 0},
		"10": {UpY, Centimetres, 0}, // Bandai-Namco: 6 channels a joint, a still root on the floor
	}
	for _, path := range mocap.Need(t) {
		f, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d := Detect(f)
		name := mocap.Base(path)
		t.Logf("%s: up %s (%s); units %s (%s); stature %.3f m (%s); skip %d %s", name, d.Up, d.UpReason, d.Units, d.UnitsReason,
			d.Stature*d.Units.Scale(), d.StatureReason, d.Skip, d.SkipReason)
		if d.FigureErr != nil {
			t.Errorf("%s: not read as a human figure: %v", name, d.FigureErr)
		}
		if h := d.Height * d.Units.Scale(); h < MinHeight || h > MaxHeight {
			t.Errorf("%s: %.2f m tall", name, h)
		}
		// Standing straight, from the top of the head to the soles, a
		// figure is a little taller than its joints' extent while moving
		// (1.00-1.08 times on these files).
		if r := d.Stature / d.Height; r < 0.98 || r > 1.12 {
			t.Errorf("%s: stature %.3f m, %.2f times the height %.3f m (%s)", name, d.Stature*d.Units.Scale(), r, d.Height*d.Units.Scale(), d.StatureReason)
		}
		w, ok := want[name[:2]]
		if !ok {
			continue
		}
		if d.Up != w.up || d.Units != w.units || d.Skip != w.skip {
			t.Errorf("%s: up %s, units %s, skip %d; want %s, %s, %d", name, d.Up, d.Units, d.Skip, w.up, w.units, w.skip)
		}
	}
}

// TestDetectFixtures: the synthetic conventions' units, up axis and rest
// frames, each as written.
func TestDetectFixtures(t *testing.T) {
	units := map[float32]Units{100: Centimetres, 1000: Millimetres, 39.37: Inches, 0.45 / 0.0254: CMU}
	for _, s := range fixture.All() {
		for _, rest := range []int{0, 2} {
			s.RestFrames = rest
			f := parseSpec(t, s)
			d := Detect(f)
			up, skip := UpY, rest
			if s.ZUp {
				up = UpZ
			}
			if s.TPose {
				skip++
			}
			if d.FigureErr != nil || d.Up != up || d.Units != units[s.PerMetre] || d.Skip != skip {
				t.Errorf("%s with %d rest frames: figure %v, up %s, units %s, skip %d (%s); want %s, %s, %d",
					s, rest, d.FigureErr, d.Up, d.Units, d.Skip, d.SkipReason, up, units[s.PerMetre], skip)
			}
		}
	}
}

// A figure no unit makes human-sized is scaled to NominalHeight, and says so.
func TestDetectNominalHeight(t *testing.T) {
	s := fixture.Mixamo()
	s.PerMetre = 7 // 12 units tall: 12 m, 12 cm, 1.2 cm or 30 cm
	d := Detect(parseSpec(t, s))
	if h := d.Height * d.Units.Scale(); h < NominalHeight-0.01 || h > NominalHeight+0.01 || !strings.Contains(d.UnitsReason, "scaled to 1.70 m") {
		t.Errorf("units %s (%s): %.3f m", d.Units, d.UnitsReason, h)
	}
}

// ImportFor applies a user's choices over the detection, says so in its
// notes, and names the flag of a choice that does not parse.
func TestImportFor(t *testing.T) {
	f := parseSpec(t, fixture.CMU())
	d := Detect(f)
	imp, u, notes, err := ImportFor(f, d, ReadOptions{})
	if err != nil || u != CMU || imp.Up != UpY || imp.Skip != 1 || len(notes) != 3 ||
		!strings.HasPrefix(notes[0], "units cmu (detected): ") || !strings.Contains(notes[0], "; stature 1.75 m: Head_End to the soles") ||
		!strings.HasPrefix(notes[2], "dropped frame 0, a pose the motion never comes near: its joints lie 28 cm") {
		t.Errorf("detected: %+v %v %q %v", imp, u, notes, err)
	}
	// Lengths are said in the units read in: CMU units read as inches
	// make a figure 0.45 times as tall.
	imp, u, notes, err = ImportFor(f, d, ReadOptions{Units: "in", Up: "z", KeepRest: true})
	if err != nil || u != Inches || imp.Scale != Inches.Scale() || imp.Up != UpZ || imp.Skip != 0 ||
		!strings.HasPrefix(notes[0], "units in (chosen; detected cmu: "+d.UnitsReason+"); stature 0.79 m: ") || notes[1] != "up Z (chosen; detected Y)" ||
		!strings.HasPrefix(notes[2], "kept (as asked) frame 0, a pose the motion never comes near: its joints lie 12 cm") {
		t.Errorf("chosen: %+v %v %q %v", imp, u, notes, err)
	}
	for _, c := range []ReadOptions{{Units: "furlongs"}, {Up: "w"}} {
		if _, _, _, err := ImportFor(f, d, c); err == nil || !strings.HasPrefix(err.Error(), "--") {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
