package matching

import (
	"bytes"
	"context"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	mm "kinelab/animsys/matching"
	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/assets"
	"kinelab/internal/apptest"
	"kinelab/internal/fixture"
	"kinelab/internal/racebuild"
)

// The lab's snapshot shown stays finite through random settings (out of
// range and NaN included, then checked as a settings file is), random
// keys, every input and random dt from 0 to far beyond a tick.
func TestMatchingLabRandomUse(t *testing.T) {
	l := New()
	r := rand.New(rand.NewSource(5))
	keys := l.Keys()
	nan := float32(math.NaN())
	frames := 1500
	if racebuild.Enabled {
		// The race detector makes each rebuild of the database take
		// seconds (200 s in all); the lab runs on one goroutine, and 300
		// frames go through six changes of settings.
		frames = 300
	}
	for f := 0; f < frames; f++ {
		if f%50 == 0 {
			s := &l.S
			for _, rg := range l.sliders() {
				*rg.V = apptest.PickOne(r, nan, rg.Lo-1, rg.Hi+1, apptest.SliderEnd(r, rg.Lo, rg.Hi))
			}
			s.Features, s.Transition, s.Path = int32(r.Intn(5)-1), int32(r.Intn(6)-1), int32(r.Intn(7)-1)
			l.CheckSettings()
		}
		if k := keys[r.Intn(len(keys))]; f%7 == 0 && !k.Held {
			k.Action()
		}
		l.Update(apptest.PickOne(r, 0, 1.0/60, 1.0/30, r.Float32()*0.5, 5))
		h := l.view()
		for j := range h.pos {
			if !mathx.Vec3Finite(h.pos[j]) || !mathx.Vec3Finite(h.red[j]) || !mathx.Vec3Finite(h.blue[j]) {
				t.Fatalf("frame %d, settings %+v: joint %d not finite", f, l.S, j)
			}
		}
	}
}

// TestMatchingCheckSettings: the defaults survive CheckSettings, and out
// of range or NaN values end at the slider's ends or within the choices.
func TestMatchingCheckSettings(t *testing.T) {
	nan := float32(math.NaN())
	l := New()
	apptest.CheckSettings(t, &l.S, l.CheckSettings, []apptest.SettingCase[Settings]{
		apptest.Case("Half-life 0", func(s *Settings) { s.Halflife = 0 }, func(s *Settings) float32 { return s.Halflife }, 0.01),
		apptest.Case("Half-life NaN", func(s *Settings) { s.Halflife = nan }, func(s *Settings) float32 { return s.Halflife }, 0.01),
		apptest.Case("Run 99", func(s *Settings) { s.RunSpeed = 99 }, func(s *Settings) float32 { return s.RunSpeed }, 7),
		apptest.Case("Every 0", func(s *Settings) { s.Period = 0 }, func(s *Settings) float32 { return s.Period }, 1.0/60),
		apptest.Case("Traj dir -1", func(s *Settings) { s.Weights[mm.TrajDir] = -1 }, func(s *Settings) float32 { return s.Weights[mm.TrajDir] }, 0),
		apptest.Case("Features 9", func(s *Settings) { s.Features = 9 }, func(s *Settings) float32 { return float32(s.Features) }, float32(mm.Exact)),
		apptest.Case("Path -3", func(s *Settings) { s.Path = -3 }, func(s *Settings) float32 { return float32(s.Path) }, 0),
	})
}

// TestMatchingPathFlag: --path zigzag drives the lab by the scripted path:
// the root moves off the origin without a key pressed.
func TestMatchingPathFlag(t *testing.T) {
	l := New()
	l.Configure(app.Config{LabFlags: map[string]float64{"path": 3}, Seed: 1})
	if l.S.Path != 2 {
		t.Fatalf("--path 3 (zigzag) set Path %d, want 2", l.S.Path)
	}
	for i := 0; i < 180; i++ {
		l.Update(1.0 / 60)
	}
	if d := l.Matcher().Root.Pos.Len(); d < 2 {
		t.Errorf("after 3 s of zigzag the root is %.2f m from the origin", d)
	}
	if l.Matcher().Search.Transitions == 0 {
		t.Error("no transition in 3 s of zigzag")
	}
}

// TestMatchingLoadsCharacter: a loaded character with legs becomes the
// database; one without keeps the embedded set and says why.
func TestMatchingLoadsCharacter(t *testing.T) {
	l := New()
	embedded := l.Database().Frames
	ch := apptest.FixtureCharacter(t, fixture.All()[0])
	l.SetCharacter(ch)
	if l.Err == "" {
		if l.Database().Skel.Len() != ch.Skel.Len() {
			t.Errorf("database has %d joints, the character %d", l.Database().Skel.Len(), ch.Skel.Len())
		}
	} else if l.Database().Frames != embedded {
		t.Errorf("refused character (%s) but the database changed", l.Err)
	}
	for i := 0; i < 120; i++ {
		l.Update(1.0 / 60)
	}
}

// TestMatchingEmbeddedKept: file after file that gives no database of its
// own (here a one-joint figure, no human) leaves the lab on the embedded
// set it has, not built again, re-weighted as the settings are; a
// character with a database and then another without builds it anew.
func TestMatchingEmbeddedKept(t *testing.T) {
	l := New()
	embedded := l.Database()
	odd, err := character.Load([]string{"../../../animsys/character/testdata/odd/one_joint.bvh"}, bvh.ReadOptions{})
	if odd == nil {
		t.Fatal(err)
	}
	l.S.Weights[mm.FootVel] = 2
	l.SetCharacter(odd)
	if l.Database() != embedded || l.Err == "" || l.Database().Weights() != l.S.Weights {
		t.Errorf("a one-joint figure: database kept %v, error %q, weights %v (want %v)", l.Database() == embedded, l.Err, l.Database().Weights(), l.S.Weights)
	}
	l.Update(1.0 / 60)
	human := apptest.FixtureCharacter(t, fixture.All()[0])
	l.SetCharacter(human)
	if l.Err != "" || l.Database() == embedded {
		t.Fatalf("a walking human: error %q, the embedded set kept %v", l.Err, l.Database() == embedded)
	}
	l.SetCharacter(odd)
	if again := l.Database(); again == embedded || again.Frames != embedded.Frames || l.Err == "" || l.Title() != "Motion matching - embedded locomotion - "+mm.SetNames[l.S.Features]+" features" {
		t.Errorf("back to the one-joint figure: database %d frames (want %d, built anew), error %q, title %q", again.Frames, embedded.Frames, l.Err, l.Title())
	}
	l.Update(1.0 / 60)
}

// TestMatchingCSV: every row has the header's columns and finite numbers
// where a number is due.
func TestMatchingCSV(t *testing.T) {
	l := New()
	l.S.Path = 4 // random
	head := l.CSVHeader()
	for i := 0; i < 120; i++ {
		l.Update(1.0 / 60)
		rows := l.CSVRows(nil)
		if len(rows) != 1 || len(rows[0]) != len(head) {
			t.Fatalf("tick %d: %d rows of %d columns, header %d", i, len(rows), len(rows[0]), len(head))
		}
		for k, c := range rows[0] {
			if c == "NaN" || c == "" && head[k] != "best_cost" && head[k] != "carry_cost" && head[k] != "best_exact_m*s" {
				t.Errorf("tick %d: %s is %q", i, head[k], c)
			}
		}
	}
}

// TestMatchingRewind: Z steps the view back a tick at a time through the
// history (never past its start), X forward, and playing returns to the
// present; stepping changes only what is shown.
func TestMatchingRewind(t *testing.T) {
	l := New()
	l.S.Path = 2
	for i := 0; i < 90; i++ {
		l.Update(1.0 / 60)
	}
	now := l.view().t
	root := l.Matcher().Root.Pos
	for i := 0; i < 30; i++ {
		l.Step(-1)
	}
	if d := now - l.view().t; math.Abs(d-0.5) > 1e-3 {
		t.Errorf("30 steps back show %.4f s back, want 0.5", d)
	}
	l.Step(10)
	if d := now - l.view().t; math.Abs(d-20.0/60) > 1e-3 {
		t.Errorf("10 steps forward again show %.4f s back, want 1/3", d)
	}
	l.Update(0)
	if l.Matcher().Root.Pos != root {
		t.Error("rewinding moved the character")
	}
	l.Step(-1000)
	if l.Rewind != l.count-1 {
		t.Errorf("stepping past the history's start: %d back of %d", l.Rewind, l.count)
	}
	l.Update(1.0 / 60)
	if l.Rewind != 0 {
		t.Error("playing did not return to the present")
	}
}

// TestMatchingPlaybackSwitches: the panel's Playback switches reach the
// matcher: on by default (the clip plays at a rate other than 1 on the
// circle's walk), off it plays at 1 and never goes idle on stop-go.
func TestMatchingPlaybackSwitches(t *testing.T) {
	for _, on := range []bool{true, false} {
		l := New()
		l.S.Path = int32(mm.StopGo) + 1
		l.S.Rate.On, l.S.Idle = on, on
		var offOne, idle bool
		for i := 0; i < 5*60; i++ {
			l.Update(1.0 / 60)
			m := l.Matcher()
			offOne = offOne || m.Play.Playing() != 1
			idle = idle || m.Rest.Idle
		}
		if m := l.Matcher(); m.S.Rate.On != on || m.S.Idle != on || offOne != on || idle != on {
			t.Errorf("switches %v: the matcher's %v, %v; played off rate 1 %v, idle %v", on, m.S.Rate.On, m.S.Idle, offOne, idle)
		}
	}
	if d := DefaultSettings(); !d.Rate.On || !d.Idle {
		t.Error("the playback rate and the idle state are off by default")
	}
}

// TestMatchingFramesBySize: the camera frames the figure by its standing
// height on every database, at figureShare (at least a quarter) of the
// view's height: the embedded set, a loaded human, a refused figure (the
// embedded set's framing) and, when beside the repository, the Bandai
// captures, whose 1.46 m figure stood about 150 px of 600 (a quarter) at
// the 7 m every database had.
func TestMatchingFramesBySize(t *testing.T) {
	l := New()
	share := func(name string) {
		t.Helper()
		ch := l.ch
		if ch == nil || l.Err != "" {
			ch = assets.Character()
		}
		c := l.Camera()
		s := ch.Height / (c.Distance * 2 * float32(math.Tan(float64(c.FovY)*math.Pi/360)))
		if !(math.Abs(float64(s-figureShare)) < 1e-3) || !(s >= 0.25) || !(ch.Height > 0.5) {
			t.Errorf("%s: a %.2f m figure at %.2f m fills %.3f of the view's height", name, ch.Height, c.Distance, s)
		}
		t.Logf("%s: a %.2f m figure at %.2f m fills %.3f of the view's height", name, ch.Height, c.Distance, s)
	}
	share("embedded")
	l.SetCharacter(apptest.FixtureCharacter(t, fixture.All()[0]))
	share("fixture")
	odd, err := character.Load([]string{"../../../animsys/character/testdata/odd/one_joint.bvh"}, bvh.ReadOptions{})
	if odd == nil {
		t.Fatal(err)
	}
	l.SetCharacter(odd)
	share("refused")
	l.SetCharacter(captures(t))
	share("captures")
}

// TestMatchingStandsStill: the lab driven by the keyboard with no key
// pressed for 15 s stands on two feet and does not flip clips: at most
// 0.2 transitions a second at rest after the first 5 s (none measured),
// the ankles level, and its readout's figures equal eval's on the stand
// path (the same Meter over the same input): the lab and eval count rest
// one way. On the embedded set and, when beside the repository, the
// Bandai captures (which have no standing frame).
func TestMatchingStandsStill(t *testing.T) {
	l := New()
	check := func(name string) {
		t.Helper()
		l.S.Path = 0 // the keyboard: no key is pressed in a test
		l.Restart()
		for i := 0; i < 15*60; i++ {
			l.Update(1.0 / 60)
		}
		f := l.meter.Metrics(l.Matcher())
		want := mm.Eval(l.Database(), l.Matcher().S, mm.Stand, 15, 1)
		if !(f.TransitionsSettled <= 0.2) || f.Level == nil || !(*f.Level >= 0.9) ||
			f.TransitionsSettled != want.TransitionsSettled || *f.Level != *want.Level || f.IdleSeconds != want.IdleSeconds {
			t.Errorf("%s: %.2f transitions a second settled (eval %.2f), level %v (eval %v), %.2f s idle (eval %.2f)", name,
				f.TransitionsSettled, want.TransitionsSettled, f.Level, want.Level, f.IdleSeconds, want.IdleSeconds)
			return
		}
		t.Logf("%s: %.2f transitions a second at rest after 5 s, ankles level on %.0f%%, %.2f s idle: as eval", name,
			f.TransitionsSettled, 100**f.Level, f.IdleSeconds)
	}
	check("embedded")
	l.SetCharacter(captures(t))
	check("captures")
}

// captures are the Bandai captures of ../shared/locomotion as the app
// loads them; the test is skipped where they are not beside the
// repository.
func captures(t *testing.T) *character.Character {
	t.Helper()
	const dir = "../../../../shared/locomotion"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no %s: %v", dir, err)
	}
	ch, err := character.Load([]string{dir}, bvh.ReadOptions{})
	if ch == nil {
		t.Fatal(err)
	}
	return ch
}

// TestMatchingLearnedController: on the embedded set the panel's switch
// (Settings.Controller, as --controller learned sets it) drives the lab by
// the learned controller at the next update, from the origin; a few
// seconds of the zigzag path keep the poses, the green lines (the
// decompressor's velocities), the readout's errors and the plot's finite;
// switching back gives the database's controller again, whose snapshots
// show no green line. On loaded captures the switch is refused, with the
// networks' reason.
func TestMatchingLearnedController(t *testing.T) {
	l := New()
	if l.ln.why != "" {
		t.Fatalf("the embedded networks do not fit the embedded set: %s", l.ln.why)
	}
	l.Configure(app.Config{LabFlags: map[string]float64{"controller": 2}, Seed: 1})
	if l.S.Controller != learnedController {
		t.Fatalf("--controller learned set Controller %d", l.S.Controller)
	}
	l.S.Path = int32(mm.Zigzag) + 1
	l.Update(1.0 / 60)
	if l.Matcher().Play.Learned == nil {
		t.Fatal("the switch did not reach the matcher")
	}
	if l.figures.Seconds != 0 || l.time > 0.1 {
		t.Errorf("the switch did not start the run again: %.2f s", l.time)
	}
	finite := func(what string, v float32) {
		t.Helper()
		if !mathx.Finite(v) {
			t.Fatalf("t %.2f s: %s is %v", l.time, what, v)
		}
	}
	var said, pose float64
	const ticks = 4 * 60
	for i := range ticks {
		l.Update(1.0 / 60)
		h := l.view()
		if !h.learned {
			t.Fatalf("tick %d: the snapshot is not the learned controller's", i)
		}
		for j := range h.pos {
			if !mathx.Vec3Finite(h.pos[j]) || !mathx.Vec3Finite(h.red[j]) || !mathx.Vec3Finite(h.blue[j]) || !mathx.Vec3Finite(h.green[j]) {
				t.Fatalf("tick %d: joint %d not finite: pos %v red %v blue %v green %v", i, j, h.pos[j], h.red[j], h.blue[j], h.green[j])
			}
		}
		for _, k := range append(h.cands[:h.nCands:h.nCands], h.carry) { // the table's names
			_ = l.CandidateName(k.Frame)
		}
		finite("|green-red|", h.saidErr)
		finite("pose error", h.poseErr)
		said, pose = said+float64(h.saidErr), pose+float64(h.poseErr)
		lines, _ := l.readout(h, 1e4)
		for _, s := range lines {
			if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
				t.Fatalf("tick %d: readout %q", i, s)
			}
		}
	}
	if d := l.Matcher().Root.Pos.Len(); !(d > 0.5) {
		t.Errorf("4 s of zigzag moved the learned controller's root %.2f m", d)
	}
	if !(l.ln.netBytes > 0 && l.ln.dbBytes > l.ln.netBytes) {
		t.Errorf("memory: networks %d bytes, database %d", l.ln.netBytes, l.ln.dbBytes)
	}
	t.Logf("learned: |green-red| %.3f m/s, pose %.1f cm off its frame, on average; %s", said/ticks, 100*pose/ticks,
		l.ln.memoryText(func(long, _ string) string { return long }))

	l.S.Controller = databaseController
	l.Update(1.0 / 60)
	if l.Matcher().Play.Learned != nil || l.view().learned {
		t.Fatal("switching back left the learned controller")
	}
	for range 120 {
		l.Update(1.0 / 60)
	}
	if h := l.view(); h.learned || !math.IsNaN(float64(h.poseErr)) || l.Matcher().Search.Searches == 0 {
		t.Errorf("back on the database: learned %v, pose error %v, %d searches", h.learned, h.poseErr, l.Matcher().Search.Searches)
	}

	// Captures: another database, which the networks do not fit.
	l.S.Controller = learnedController
	l.SetCharacter(apptest.FixtureCharacter(t, fixture.All()[0]))
	l.Update(1.0 / 60)
	if l.Err == "" && (l.ln.why == "" || l.Matcher().Play.Learned != nil) {
		t.Errorf("captures: the switch was not refused (reason %q)", l.ln.why)
	}
	t.Logf("captures (%s): the switch refused: %s", l.dbName, l.ln.why)
}

// TestMatchingLearnedAllocs: a tick of the lab with either controller,
// its measures and snapshot included, allocates nothing.
func TestMatchingLearnedAllocs(t *testing.T) {
	if racebuild.Enabled {
		t.Skip("the race detector allocates")
	}
	l := New()
	for c, name := range controllerNames {
		l.S.Controller, l.S.Path = int32(c), int32(mm.Circle)+1
		for range 60 {
			l.Update(1.0 / 60)
		}
		if n := testing.AllocsPerRun(30, func() { l.Update(1.0 / 60) }); n != 0 {
			t.Errorf("a tick of the %s controller allocates %.1f times", name, n)
		}
	}
}

// TestMatchingNetworksFlag: --networks FILE gives the lab networks
// trained on the captures loaded (here tiny ones, trained on the
// database the lab built of a fixture capture), and the switch drives
// them; a file that does not read greys the switch with its name.
func TestMatchingNetworksFlag(t *testing.T) {
	ch := apptest.FixtureCharacter(t, fixture.All()[0])
	l := New()
	l.SetCharacter(ch)
	cfg := mm.DefaultTrain
	cfg.Width, cfg.Batch, cfg.Window = 8, 4, 3
	tr, err := mm.NewTrainer(l.db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), mm.Budget{Steps: 5}, 0, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "caps.lmm")
	var buf bytes.Buffer
	if err := tr.Networks().Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		ok   bool
	}{{path, true}, {path + ".missing", false}} {
		l := New()
		l.Configure(app.Config{Networks: c.path, LabFlags: map[string]float64{"controller": 2}, Seed: 1})
		l.SetCharacter(ch)
		l.Update(1.0 / 60)
		got := l.Matcher().Play.Learned != nil
		if got != c.ok || (c.ok != (l.ln.why == "")) || (!c.ok && !strings.Contains(l.ln.why, "caps.lmm")) {
			t.Errorf("--networks %s: learned %v, reason %q", filepath.Base(c.path), got, l.ln.why)
		}
	}
}
