package matching

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/assets"
)

// shipped are the embedded set's networks (assets/locomotion.lmm).
func shipped(tb testing.TB) *Networks {
	tb.Helper()
	n, err := ReadNetworks(bytes.NewReader(assets.LocomotionNetworks()))
	if err != nil {
		tb.Fatalf("assets/locomotion.lmm: %v", err)
	}
	return n
}

// learnedMatcher is a matcher on the embedded set driven by its shipped
// networks.
func learnedMatcher(tb testing.TB, db *Database, s Settings) *Matcher {
	tb.Helper()
	m := NewMatcher(db, s)
	if err := m.UseNetworks(shipped(tb)); err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestShippedNetworksFit: the shipped networks were trained on the
// embedded set as it is: a change to the set (its clips, its skeleton)
// changes its digest, and this fails until `make networks` trains them
// again.
func TestShippedNetworksFit(t *testing.T) {
	db := embedded(t)
	n := shipped(t)
	if err := n.Fits(db); err != nil {
		t.Fatalf("%v: run make networks", err)
	}
	if n.Bytes()*4 > dbControllerBytes(db) {
		t.Errorf("the networks hold %d bytes, over a quarter of the database controller's %d", n.Bytes(), dbControllerBytes(db))
	}
	t.Logf("networks %d bytes, database controller %d (%.1fx)", n.Bytes(), dbControllerBytes(db), float64(dbControllerBytes(db))/float64(n.Bytes()))
}

func dbControllerBytes(db *Database) int {
	b := db.Bytes().Total()
	for c := range db.Clips {
		b += db.Clips[c].Bytes()
	}
	return b
}

// tinyTrainer is a training of small networks on db, steps steps a
// phase: seconds, not the minutes a real training takes.
func tinyTrainer(tb testing.TB, db *Database, steps int) (*Trainer, []Progress) {
	tb.Helper()
	cfg := DefaultTrain
	cfg.Width, cfg.Batch, cfg.Window = 32, 16, 6
	tr, err := NewTrainer(db, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	var reports []Progress
	if err := tr.Run(context.Background(), Budget{Steps: steps}, steps/4, func(p Progress) { reports = append(reports, p) }); err != nil {
		tb.Fatal(err)
	}
	return tr, reports
}

// TestTrainingLossesFall: in each phase the loss of the last quarter of
// the steps is below 0.8 of the first quarter's. Measured (width 32, 200
// steps a phase): decompressor 1.0 to 0.6, stepper 1.5 to 0.9, projector
// 0.8 to 0.6: a network that learns nothing (a sign error in a gradient)
// stays within a few percent of where it starts, or rises.
func TestTrainingLossesFall(t *testing.T) {
	db := embedded(t)
	_, reports := tinyTrainer(t, db, 200)
	first := map[int]float32{}
	last := map[int]float32{}
	for _, p := range reports {
		if _, ok := first[p.Phase]; !ok {
			first[p.Phase] = p.Loss
		}
		last[p.Phase] = p.Loss
	}
	for ph := 0; ph < NumPhases; ph++ {
		f, l := first[ph], last[ph]
		t.Logf("%s: loss %.4f in the first quarter, %.4f in the last", PhaseNames[ph], f, l)
		if !(l < 0.8*f) {
			t.Errorf("%s: loss %.4f in the first quarter, %.4f in the last: want below 0.8x", PhaseNames[ph], f, l)
		}
	}
}

// TestDecompressorReproducesFrames: trained on one clip (the walk), the
// decompressor gives back the clip's frames: the mean distance of a
// joint from where the frame has it (FK in the character's frame) is
// under 2 cm, against the 5-10 cm of the clip's mean pose (a network that
// learned only the mean). Measured: see the log.
func TestDecompressorReproducesFrames(t *testing.T) {
	src := embeddedSource(t)
	src.Clips = src.Clips[1:2] // the walk
	db, err := NewDatabase(src, DefaultWeights, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultTrain
	cfg.Width, cfg.Batch = 128, 32
	tr, err := NewTrainer(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr.Phase = PhaseAutoencoder
	for tr.Step = 0; tr.Step < 1500; tr.Step++ {
		tr.step(cfg.Rate * float32(math.Pow(0.1, float64(tr.Step)/1500)))
	}
	tr.Phase = NumPhases
	nets := tr.Networks()
	n := db.Skel.Len()
	got, want, gl, wl, root := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(1)
	y := make([]float32, poseDims(n))
	s := make([]float32, nets.Dims()+Latent)
	mean := make([]mgl32.Vec3, n)
	var errNet, errMean float64
	var count int
	cl := &db.Clips[0]
	for pass := 0; pass < 2; pass++ {
		for f := 0; f < cl.Frames; f++ {
			tr.state(s, f)
			nets.Decompressor.Forward(y, s, nets.Decompressor.NewScratch())
			decodePose(&gl, y, db.boneLen)
			animsys.FK(&got, &gl, db.Skel.Parents)
			db.Sample(&wl, &root, 0, float32(f)*cl.FrameTime)
			RootMotion(&wl)
			animsys.FK(&want, &wl, db.Skel.Parents)
			for j := 1; j < n; j++ {
				if pass == 0 {
					mean[j] = mean[j].Add(want.Pos[j].Mul(1 / float32(cl.Frames)))
					continue
				}
				errNet += float64(got.Pos[j].Sub(want.Pos[j]).Len())
				errMean += float64(mean[j].Sub(want.Pos[j]).Len())
				count++
			}
		}
	}
	errNet, errMean = 100*errNet/float64(count), 100*errMean/float64(count)
	t.Logf("mean joint error %.2f cm (the clip's mean pose: %.2f cm)", errNet, errMean)
	if !(errNet < 2) || !(errNet < errMean/3) {
		t.Errorf("mean joint error %.2f cm (the clip's mean pose: %.2f cm): want under 2 cm and a third of the mean's", errNet, errMean)
	}
}

// TestCheckpointResumes: a training stopped, checkpointed and resumed in
// another trainer ends with the same networks, to the bit, as one that
// ran straight through (steps, not time, bound the phases; the batch's
// rows are summed in the same order however many cores share them).
func TestCheckpointResumes(t *testing.T) {
	db := embedded(t)
	straight, _ := tinyTrainer(t, db, 40)
	cfg := DefaultTrain
	cfg.Width, cfg.Batch, cfg.Window = 32, 16, 6
	a, _ := NewTrainer(db, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	steps := 0
	err := a.Run(ctx, Budget{Steps: 40}, 1, func(p Progress) {
		if steps++; steps == 55 { // in the stepper's phase
			cancel()
		}
	})
	if err == nil {
		t.Fatal("the training did not stop at the cancel")
	}
	var ck bytes.Buffer
	if err := a.WriteCheckpoint(&ck); err != nil {
		t.Fatal(err)
	}
	b, _ := NewTrainer(db, cfg)
	if err := b.ReadCheckpoint(bytes.NewReader(ck.Bytes())); err != nil {
		t.Fatal(err)
	}
	if b.Phase != PhaseStepper {
		t.Fatalf("resumed in phase %d, want the stepper's", b.Phase)
	}
	if err := b.Run(context.Background(), Budget{Steps: 40}, 0, nil); err != nil {
		t.Fatal(err)
	}
	var x, y bytes.Buffer
	if err := straight.Networks().Write(&x); err != nil {
		t.Fatal(err)
	}
	if err := b.Networks().Write(&y); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x.Bytes(), y.Bytes()) {
		t.Error("the resumed training's networks differ from the straight one's")
	}
	other := cfg
	other.Width = 16
	c, _ := NewTrainer(db, other)
	if err := c.ReadCheckpoint(bytes.NewReader(ck.Bytes())); err == nil || !strings.Contains(err.Error(), "configuration") {
		t.Errorf("a checkpoint of another width read: %v", err)
	}
}

// TestNetworksFile: networks written and read give the same poses; a
// file that is not one, or ends early, or networks of another database,
// are refused saying why.
func TestNetworksFile(t *testing.T) {
	db := embedded(t)
	n := shipped(t)
	var buf bytes.Buffer
	if err := n.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), assets.LocomotionNetworks()) {
		t.Error("written again, the shipped networks differ from the file")
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte("hello"), "not a kinelab networks file"},
		{buf.Bytes()[:len(buf.Bytes())/2], "ends early"},
		{append(append([]byte(nil), buf.Bytes()...), 0), "goes on past"},
	} {
		if _, err := ReadNetworks(bytes.NewReader(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error saying %q, got %v", c.want, err)
		}
	}
	src := embeddedSource(t)
	src.Clips = src.Clips[:2]
	other, err := NewDatabase(src, DefaultWeights, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Fits(other); err == nil || !strings.Contains(err.Error(), "another database") {
		t.Errorf("networks of the embedded set fit two of its clips: %v", err)
	}
	if err := NewMatcher(other, DefaultSettings()).UseNetworks(n); err == nil {
		t.Error("a matcher took networks of another database")
	}
	_ = db
}

// TestLearnedVelocities: with the learned controller, the output's
// propagated velocities (the cubic through the decoded frames, exact,
// then the transitions, warps and feet as for the database's) agree with
// the finite difference better as the tick falls: the 90th percentile of
// the worst joint's |red - blue| falls at least fourfold from 1/60 s to
// 1/600 s (a first-order difference's error falls tenfold).
func TestLearnedVelocities(t *testing.T) {
	db := embedded(t)
	for _, p := range []Path{Circle, Random} {
		coarse, _, _ := redBlue(learnedMatcher(t, db, DefaultSettings()), p, 8, 1.0/60)
		fine, _, _ := redBlue(learnedMatcher(t, db, DefaultSettings()), p, 8, 1.0/600)
		t.Logf("%s: |red - blue| %.4f m/s at 1/60 s, %.4f at 1/600 (%.1fx)", p, coarse, fine, coarse/fine)
		if !(fine < coarse/4) {
			t.Errorf("%s: |red - blue| %.4f m/s at 1/60 s, %.4f at 1/600: want a fourfold fall", p, coarse, fine)
		}
	}
}

// TestLearnedTickAllocatesNothing: the learned controller's tick, a
// projection every tick, allocates nothing.
func TestLearnedTickAllocatesNothing(t *testing.T) {
	db := embedded(t)
	st := DefaultSettings()
	st.SearchPeriod = 0
	m := learnedMatcher(t, db, st)
	k := 0
	a := testing.AllocsPerRun(200, func() {
		m.Update(Random.Input(float32(k)/60, 1), 1.0/60)
		k++
	})
	if a != 0 {
		t.Errorf("%.1f allocations per tick", a)
	}
}

// TestLearnedExtremeTicks: dt 0, huge dt and NaN input, every half-life
// 0 and a search every tick, leave the learned controller's joints and
// its decoder's velocities finite.
func TestLearnedExtremeTicks(t *testing.T) {
	db := embedded(t)
	nan := float32(math.NaN())
	for _, hl := range []float32{0, 0.1} {
		s := DefaultSettings()
		s.Halflife, s.VelHalflife, s.FaceHalflife, s.BlendTime, s.Rate.Halflife, s.Lock.Halflife, s.Warp.Halflife = hl, hl, hl, hl, hl, hl, hl
		s.SearchPeriod = 0
		m := learnedMatcher(t, db, s)
		for k, dt := range []float32{0, 1e6, 1.0 / 60, 5, -1, nan, 1.0 / 60} {
			in := Random.Input(float32(k), 1)
			if k == 3 {
				in.Move = mgl32.Vec2{nan, nan}
			}
			for i := 0; i < 30; i++ {
				m.Update(in, dt)
			}
			for j := range m.World.Pos {
				if !finiteAll(m.World.Pos[j][:]) || !finiteAll(m.World.Vel[j][:]) || !finiteAll(m.Play.Learned.Said.Vel[j][:]) {
					t.Fatalf("half-life %g, dt %g: joint %d at %v, moving %v, said %v", hl, dt, j, m.World.Pos[j], m.World.Vel[j], m.Play.Learned.Said.Vel[j])
				}
			}
		}
	}
}

// BenchmarkLearnedFrame is the learned controller's inference a
// character-frame: the stepper and the decompressor once each (a frame
// played on), on the shipped networks.
func BenchmarkLearnedFrame(b *testing.B) {
	db := embedded(b)
	l := newLearned(db, shipped(b))
	l.jump(l.Nets.Anchors[0].State, -1)
	b.ReportAllocs()
	for b.Loop() {
		l.step(l.state[0], l.state[3])
		l.decode(0)
	}
}

// TestFKLossGradient: fkLoss's gradient at the pose vector (through FK
// and the axes' Gram-Schmidt) equals central differences of its loss.
// The targets are 10 m off, so no |error| changes sign within a step and
// the loss is smooth there; float32 with a 1e-3 step: differences good to
// about 1e-3 of the largest gradient, the bound 2e-2 of it.
func TestFKLossGradient(t *testing.T) {
	db := embedded(t)
	n := db.Skel.Len()
	local, char, root := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(1)
	db.Sample(&local, &root, 1, 0.37)
	RootMotion(&local)
	animsys.FK(&char, &local, db.Skel.Parents)
	y := make([]float32, poseDims(n))
	want := make([]float32, 15*(n-1))
	encodePose(y, &local, 0)
	encodeChar(want, &char)
	for j := 0; j < n-1; j++ {
		for c := 0; c < 3; c++ {
			want[15*j+c] += 10
		}
	}
	for k := range y { // a pose vector off the rotation group: axes not unit, not square
		y[k] += 0.05 * float32(math.Sin(float64(7*k)))
	}
	s := newFKScratch(n)
	dy := make([]float32, len(y))
	s.fkLoss(y, want, dy, db.Skel.Parents, 0.3, 0.01)
	var most float64
	for _, v := range dy {
		most = max(most, math.Abs(float64(v)))
	}
	scratch := make([]float32, len(y))
	const h = 1e-3
	for k := 0; k < 15*(n-1); k++ {
		yy := append([]float32(nil), y...)
		yy[k] += h
		up := s.fkLoss(yy, want, scratch, db.Skel.Parents, 0.3, 0.01)
		yy[k] -= 2 * h
		down := s.fkLoss(yy, want, scratch, db.Skel.Parents, 0.3, 0.01)
		fd := float64(up-down) / (2 * h)
		if math.Abs(fd-float64(dy[k])) > 2e-2*most {
			t.Errorf("value %d (joint %d, %d): gradient %.5f, differences %.5f (largest gradient %.5f)", k, k/15+1, k%15, dy[k], fd, most)
		}
	}
}

// TestShippedStepperFollowsFrames: the shipped networks, started at the
// projector's state for a frame's own features and stepped on, decode
// poses that keep near the database's next frames: the mean distance of
// a joint (FK in the character's frame) from where the database has it,
// over 200 starts, under 2 cm at the start (the projector and the
// decompressor) and under 3 cm 40 frames (0.67 s) on (the stepper's
// drift). Measured on the shipped networks (30 minutes, width 256):
// 0.54 cm, 0.56 after 6 frames, 0.72 after 12, 1.27 after 40.
func TestShippedStepperFollowsFrames(t *testing.T) {
	db := embedded(t)
	nets := shipped(t)
	n := db.Skel.Len()
	l := newLearned(db, nets)
	want, wl, root, got := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(1), animsys.NewPose(n)
	const frames = 40
	var errs [frames + 1]float64
	var r rawFeatures
	x := make([]float32, nets.Dims())
	s, next := make([]float32, nets.Dims()+Latent), make([]float32, nets.Dims()+Latent)
	y := make([]float32, poseDims(n))
	starts := 0
	for i := 0; starts < 200; i += 211 {
		i %= db.Frames
		c, fr := db.Locate(i)
		if !db.Searchable[i] || fr+frames >= db.Clips[c].Frames {
			continue
		}
		starts++
		nets.normalise(db.frameRaw(i, &r), x)
		nets.Projector.Forward(s, x, l.scratch[2])
		for k := 0; k <= frames; k++ {
			nets.Decompressor.Forward(y, s, l.scratch[0])
			decodePose(&wl, y, db.boneLen)
			animsys.FK(&got, &wl, db.Skel.Parents)
			db.Sample(&wl, &root, c, float32(fr+k)*db.Clips[c].FrameTime)
			RootMotion(&wl)
			animsys.FK(&want, &wl, db.Skel.Parents)
			for j := 1; j < n; j++ {
				errs[k] += 100 * float64(got.Pos[j].Sub(want.Pos[j]).Len()) / float64((n-1)*200)
			}
			l.step(next, s)
			s, next = next, s
		}
	}
	t.Logf("mean joint error: %.2f cm at the start, %.2f after 6 frames, %.2f after 12, %.2f after 40", errs[0], errs[6], errs[12], errs[frames])
	if !(errs[0] < 2) || !(errs[frames] < 3) {
		t.Errorf("mean joint error %.2f cm at the start (bound 2), %.2f after %d frames (bound 3)", errs[0], errs[frames], frames)
	}
}

// TestLearnedBends: on the circle the learned controller projects on the
// unbent path too, as the database's search does, and where that costs
// less it decides (Searcher.Bent) and the root turns beyond the clip;
// with --bend 0 it never does. On the Bandai captures, whose data has no
// running turn, this took the circle's ankles from 157 cm/s to 14 and
// the trajectory from 24 cm above its floor to 0.7 (docs/matching.md).
func TestLearnedBends(t *testing.T) {
	db := embedded(t)
	for _, turn := range []float32{1, 0} {
		s := DefaultSettings()
		s.Warp.Turn = turn
		m := learnedMatcher(t, db, s)
		bent := 0
		for k := 0; k < 30*60; k++ {
			m.Update(Circle.Input(float32(k)/60, 1), 1.0/60)
			if m.Search.Searched && m.Search.Bent {
				bent++
			}
		}
		t.Logf("turn %g rad/s: %d bent projections of %d", turn, bent, m.Search.Searches)
		if (turn > 0) != (bent > 0) {
			t.Errorf("turn %g rad/s: %d bent projections of %d", turn, bent, m.Search.Searches)
		}
	}
}
