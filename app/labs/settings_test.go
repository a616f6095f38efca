package labs

import (
	"os"
	"path/filepath"
	"testing"

	"kinelab/animsys"
	"kinelab/app"
	"kinelab/app/labs/springs"
	"kinelab/app/labs/velocities"
)

// Settings round-trip through a file: the framework's and each lab's, a
// lab not made in a run keeps what the file said, and a reset puts one
// setting back to its default. No test reads or writes the user's own
// settings: KINELAB_CONFIG_DIR points at a temporary folder.
func TestSettingsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(app.ConfigDirEnv, dir)
	if p, err := app.UserSettingsPath(); err != nil || filepath.Dir(p) != dir {
		t.Fatalf("UserSettingsPath = %q, %v; want one in %s", p, err, dir)
	}
	path := filepath.Join(dir, "shared.json")

	a := app.New(app.Config{Lab: "velocities"}, All())
	v := a.Lab().(*velocities.Lab)
	v.S.Quantity, v.S.LineScale, v.S.Play, v.S.ClipSpeed = 2, 0.5, animsys.PlayPingPong, 1.5
	a.SwitchLab("springs")
	sp := a.Lab().(*springs.Lab)
	sp.S.Period, sp.S.Show[2] = 3, false
	a.Clock().TimeScale = 0.5
	if err := a.SaveSettings(path); err != nil {
		t.Fatal(err)
	}

	// A second run reads them; it makes only the velocities lab and saves.
	b := app.New(app.Config{Lab: "velocities"}, All())
	if err := b.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	bv := b.Lab().(*velocities.Lab)
	if bv.S != v.S {
		t.Errorf("velocities settings read back as %+v, saved %+v", bv.S, v.S)
	}
	if b.Clock().TimeScale != 0.5 {
		t.Errorf("time scale read back as %v", b.Clock().TimeScale)
	}
	path2 := filepath.Join(dir, "again.json")
	if err := b.SaveSettings(path2); err != nil {
		t.Fatal(err)
	}
	c := app.New(app.Config{Lab: "springs"}, All())
	if err := c.LoadSettings(path2, false); err != nil {
		t.Fatal(err)
	}
	if cs := c.Lab().(*springs.Lab); cs.S != sp.S {
		t.Errorf("springs settings, not made in the second run, read back as %+v, saved %+v", cs.S, sp.S)
	}

	// Reset to the default, one setting at a time.
	if !b.ResetSetting(&bv.S.LineScale) || bv.S.LineScale != velocities.DefaultSettings().LineScale {
		t.Errorf("reset LineScale: got %v, want %v", bv.S.LineScale, velocities.DefaultSettings().LineScale)
	}
	if bv.S.Quantity != 2 {
		t.Errorf("resetting LineScale changed Quantity to %d", bv.S.Quantity)
	}
	if !b.ResetSetting(&b.Clock().TimeScale) || b.Clock().TimeScale != 1 {
		t.Errorf("reset time scale: got %v", b.Clock().TimeScale)
	}
	x := float32(0)
	if b.ResetSetting(&x) {
		t.Error("reset a value that is no setting")
	}

	// A hand-edited file with values out of range is brought back in.
	bad := `{"labs": {"velocities": {"Quantity": 99, "Joint": 5000, "LineScale": -4, "Play": 7}}}`
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	d := app.New(app.Config{Lab: "velocities"}, All())
	if err := d.LoadSettings(path, false); err != nil {
		t.Fatal(err)
	}
	dv := d.Lab().(*velocities.Lab)
	if dv.S.Quantity > 5 || dv.S.Joint > 100 || dv.S.LineScale < 0.01 || dv.S.Play > animsys.PlayPingPong {
		t.Errorf("out-of-range settings kept: %+v", dv.S)
	}
	if err := d.LoadSettings(filepath.Join(dir, "missing.json"), true); err != nil {
		t.Errorf("a missing file with missingOK: %v", err)
	}
	if err := d.LoadSettings(filepath.Join(dir, "missing.json"), false); err == nil {
		t.Error("a missing --settings file is no error")
	}
}
