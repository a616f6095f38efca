package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/app"
	"kinelab/internal/fixture"
)

// A folder of captures of two skeletons loads the larger group: Load
// reports no failure, the message list says how many files were used and
// names the file left out as a notice, not an error, one that stays in
// view (Sticky). A file that does not
// read still fails the load.
func TestLoadMixedFolder(t *testing.T) {
	t.Setenv(app.ConfigDirEnv, t.TempDir())
	dir := t.TempDir()
	lafan := fixture.MixedFolder(t, dir)
	a := app.New(app.Config{}, []app.LabEntry{{Name: "springs", New: func() app.Lab { return newPlainLab() }}})
	if !a.Load([]string{dir}) {
		t.Fatal("a folder with a file of another skeleton failed to load")
	}
	var loaded, skipped []app.Message
	for _, m := range a.Messages() {
		if strings.HasPrefix(m.Text, "loaded ") && !m.Sticky {
			loaded = append(loaded, m)
		}
		// Sticky: it changes what the user sees, and stays in view.
		if strings.HasPrefix(m.Text, lafan+": skipped: its skeleton differs from the 3 files loaded (") && m.Sticky {
			skipped = append(skipped, m)
		}
		if m.Error {
			t.Errorf("an error: %q", m.Text)
		}
	}
	if len(loaded) != 1 || !strings.HasSuffix(loaded[0].Text, ", 3 clips from 3 of 4 files, 1 skipped") || len(skipped) != 1 {
		t.Errorf("messages %+v: want one saying 3 of 4 files were used and one naming %s", a.Messages(), lafan)
	}

	if err := os.WriteFile(filepath.Join(dir, "bad.bvh"), []byte("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a.Load([]string{dir}) {
		t.Error("a folder with a file that does not parse loaded without failing")
	}
}
