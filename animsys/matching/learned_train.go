package matching

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"kinelab/animsys"
	"kinelab/animsys/internal/regular"
	"kinelab/animsys/mathx"
	"kinelab/animsys/nn"
)

// Training the learned controller's networks on a database, in three
// phases as Holden et al. 2020 train them: the compressor and the
// decompressor together (each frame's pose to a latent z and back, with
// the frame's features x beside z), then the stepper (x and z a frame
// on, trained on rollouts so its errors do not grow), then the projector
// (a noisy query to the x and z of the frame a search finds for it).

// TrainConfig is a training's configuration.
type TrainConfig struct {
	// Width is the networks' hidden units (the reference demo's 512).
	Width int
	// Batch is the frames (or rollouts, or queries) a step learns from.
	Batch int
	// Window is the frames of a stepper's rollout.
	Window int
	// Rate is the learning rate at the start; it falls to a tenth by the
	// end of each phase.
	Rate float32
	// Seed makes the training repeatable (in steps; a phase bounded in
	// time stops where the clock says).
	Seed uint32
	// Set is the feature set x is made of.
	Set Set
}

// DefaultTrain is the configuration `kinelab matching train` uses.
var DefaultTrain = TrainConfig{Width: 512, Batch: 64, Window: 12, Rate: 1e-3, Seed: 1, Set: InertialSet}

// Phases of a training.
const (
	PhaseAutoencoder = iota
	PhaseStepper
	PhaseProjector
	NumPhases
)

// PhaseNames name the phases for progress lines.
var PhaseNames = [NumPhases]string{"decompressor", "stepper", "projector"}

// PhaseShare is each phase's share of a training's time.
var PhaseShare = [NumPhases]float64{0.5, 0.25, 0.25}

// Progress is what a training reports every so often.
type Progress struct {
	Phase, Step int
	// Loss is the phase's loss (mean over the last report's steps, in
	// normalised units); Parts its terms (the decompressor's: local pose,
	// joints in the character's frame, latent size, latent change; the
	// stepper's: state, change; the projector's: state).
	Loss  float32
	Parts [4]float32
	// Done is the phase's share done (0 to 1).
	Done float64
}

// lmmData is the training data: every frame's features x (the set's
// normalised, weighted vector), its pose vector y (poseDims) followed by
// its pose in the character's frame for the compressor (15 values a
// joint but the root), and the next frame of its clip.
type lmmData struct {
	frames, xd, yd, cd int
	x, c               []float32
	next               []int32
	searchable         []int32
}

// trainingData gathers db's frames as the networks see them.
func trainingData(db *Database, set Set) *lmmData {
	n := db.Skel.Len()
	d := &lmmData{frames: db.Frames, xd: db.Dims(set), yd: poseDims(n), cd: poseDims(n) + 15*(n-1)}
	d.x = make([]float32, d.frames*d.xd)
	d.c = make([]float32, d.frames*d.cd)
	d.next = make([]int32, d.frames)
	local, char, root := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(1)
	var r rawFeatures
	for c := range db.Clips {
		cl := &db.Clips[c]
		for f := 0; f < cl.Frames; f++ {
			i := db.At(c, f)
			db.Sample(&local, &root, c, float32(f)*cl.FrameTime)
			RootMotion(&local)
			animsys.FK(&char, &local, db.Skel.Parents)
			row := d.c[i*d.cd : (i+1)*d.cd]
			encodePose(row, &local, db.contacts[i]&15)
			encodeChar(row[d.yd:], &char)
			db.normalise(set, db.frameRaw(i, &r), d.x[i*d.xd:(i+1)*d.xd])
			d.next[i] = -1
			if f+1 < cl.Frames {
				d.next[i] = int32(i + 1)
			}
			if db.Searchable[i] {
				d.searchable = append(d.searchable, int32(i))
			}
		}
	}
	return d
}

// encodeChar writes pose g (in the character's frame) as the compressor
// reads it: per joint but the root its position, two axes, velocity and
// angular velocity.
func encodeChar(y []float32, g *animsys.Pose) {
	k := 0
	put := func(v [3]float32) { y[k], y[k+1], y[k+2] = v[0], v[1], v[2]; k += 3 }
	for j := 1; j < len(g.Pos); j++ {
		put(g.Pos[j])
		put(mathx.QuatMulVec3(g.Rot[j], [3]float32{1, 0, 0}))
		put(mathx.QuatMulVec3(g.Rot[j], [3]float32{0, 1, 0}))
		put(g.Vel[j])
		put(g.Ang[j])
	}
}

// poseScales is the pose vector's normalisation: each dimension's mean,
// and one scale for each kind of value (every joint's positions share
// one, as do rotations, velocities, angular velocities, the root's motion
// and the contacts), so the loss weighs a centimetre the same on every
// joint, as the reference's training does.
func poseScales(d *lmmData, n int) (mean, scale []float32) {
	mean, std := nn.Normalise(stridedRows(d.c, d.cd, d.yd), d.yd, 0)
	kind := make([]int, d.yd) // 0 pos, 1 rot, 2 vel, 3 ang, 4 root vel, 5 root ang, 6 contact
	for j := 0; j < n-1; j++ {
		for k := 0; k < 15; k++ {
			kind[15*j+k] = [15]int{0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3}[k]
		}
	}
	for k := 0; k < 10; k++ {
		kind[15*(n-1)+k] = [10]int{4, 4, 4, 5, 5, 5, 6, 6, 6, 6}[k]
	}
	var sum, cnt [7]float64
	for i, s := range std {
		sum[kind[i]] += float64(s)
		cnt[kind[i]]++
	}
	scale = make([]float32, d.yd)
	for i := range scale {
		scale[i] = max(float32(sum[kind[i]]/max(cnt[kind[i]], 1)), 1e-3)
	}
	return mean, scale
}

// stridedRows copies the first w values of each row of width stride.
func stridedRows(data []float32, stride, w int) []float32 {
	n := len(data) / stride
	out := make([]float32, n*w)
	for r := 0; r < n; r++ {
		copy(out[r*w:(r+1)*w], data[r*stride:r*stride+w])
	}
	return out
}

// Trainer trains a learned controller's networks on a database. Run
// trains phase after phase; a checkpoint (WriteCheckpoint) holds where it
// is, and ReadCheckpoint resumes from one.
type Trainer struct {
	db   *Database
	cfg  TrainConfig
	data *lmmData
	// The networks: compressor (training only), decompressor, stepper,
	// projector; an optimiser each.
	nets [4]*nn.MLP
	opt  [4]*nn.AdamW
	// Phase and Step are where the training is; Spent (s) the time spent
	// in each phase so far.
	Phase, Step int
	Spent       [NumPhases]float64
	rng         mathx.Xorshift32
	z           []float32 // every frame's latent, once the decompressor is trained
	buf         trainBuffers
}

// The networks' slots in Trainer.nets.
const (
	netCompressor = iota
	netDecompressor
	netStepper
	netProjector
)

// trainBuffers are a step's scratch.
type trainBuffers struct {
	in, grad, out []float32
	tapes         []*nn.Tape
	tapePhase     int // the phase the tapes are for
	grads         [4]*nn.Grads
	results       []Result
	fk            *fkScratch // nil where a joint comes before its parent
	fkScale       float32    // m: the joints' spread in the character's frame (fkLoss's unit)
}

// NewTrainer prepares a training on db: its data, and the networks at
// their initial weights with their normalisation taken from the data.
func NewTrainer(db *Database, cfg TrainConfig) (*Trainer, error) {
	if cfg.Width < 1 || cfg.Batch < 1 || cfg.Window < 2 || !(cfg.Rate > 0) || cfg.Set < 0 || cfg.Set >= NumSets {
		return nil, fmt.Errorf("matching: training configuration out of range: %+v", cfg)
	}
	if cfg.Set == Exact { // Exact searches Inertial's features
		cfg.Set = InertialSet
	}
	t := &Trainer{db: db, cfg: cfg, data: trainingData(db, cfg.Set), rng: mathx.NewXorshift32(cfg.Seed)}
	d, w, n := t.data, cfg.Width, db.Skel.Len()
	s := d.xd + Latent
	t.nets[netCompressor] = nn.New([]int{d.cd, w, w, Latent}, nn.ELU, &t.rng)
	t.nets[netDecompressor] = nn.New([]int{s, w, d.yd}, nn.ReLU, &t.rng)
	t.nets[netStepper] = nn.New([]int{s, w, w, s}, nn.ReLU, &t.rng)
	t.nets[netProjector] = nn.New([]int{d.xd, w, w, w, w, s}, nn.ReLU, &t.rng)
	comp, dec := t.nets[netCompressor], t.nets[netDecompressor]
	comp.InMean, comp.InStd = nn.Normalise(d.c, d.cd, 1e-3)
	dec.OutMean, dec.OutStd = poseScales(d, n)
	xm, xs := nn.Normalise(d.x, d.xd, 1e-3)
	copy(dec.InMean, xm)
	copy(dec.InStd, xs)
	copy(t.nets[netProjector].InMean, xm)
	copy(t.nets[netProjector].InStd, xs)
	ordered := true
	for j, p := range db.Skel.Parents {
		ordered = ordered && p < j
	}
	if ordered {
		// fkLoss's unit: the mean spread (standard deviation) of a joint's
		// coordinates in the character's frame, some centimetres, as the
		// local loss is in the local values' spreads.
		t.buf.fk = newFKScratch(n)
		var sum float32
		for j := 0; j < n-1; j++ {
			for c := 0; c < 3; c++ {
				sum += comp.InStd[d.yd+15*j+c]
			}
		}
		t.buf.fkScale = max(sum/float32(3*(n-1)), 1e-3)
	}
	for k := range t.nets {
		t.opt[k] = nn.NewAdamW(t.nets[k], cfg.Rate, 1e-4)
		t.buf.grads[k] = t.nets[k].NewGrads()
	}
	return t, nil
}

// Config is the training's configuration.
func (t *Trainer) Config() TrainConfig { return t.cfg }

// Budget bounds each phase: Steps steps, or where Steps is 0, Seconds
// (its PhaseShare of them) of time.
type Budget struct {
	Steps   int
	Seconds float64
}

// done is how far phase p is through its budget at step with spent
// seconds (0 to 1).
func (b Budget) done(p, step int, spent float64) float64 {
	if b.Steps > 0 {
		return float64(step) / float64(b.Steps)
	}
	return spent / (b.Seconds * PhaseShare[p])
}

// Run trains until the last phase is done or ctx ends (then it returns
// ctx's error, the trainer where it stopped: a checkpoint written then
// resumes there), calling report every reportEvery steps.
func (t *Trainer) Run(ctx context.Context, b Budget, reportEvery int, report func(Progress)) error {
	var acc Progress
	count := 0
	for t.Phase < NumPhases {
		if t.Phase >= PhaseStepper && t.z == nil {
			t.encodeAll()
		}
		start, spent0 := time.Now(), t.Spent[t.Phase]
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			done := b.done(t.Phase, t.Step, t.Spent[t.Phase])
			if done >= 1 {
				break
			}
			rate := t.cfg.Rate * float32(math.Pow(0.1, min(done, 1)))
			loss, parts := t.step(rate)
			t.Step++
			t.Spent[t.Phase] = spent0 + time.Since(start).Seconds()
			acc.Loss += loss
			for k := range parts {
				acc.Parts[k] += parts[k]
			}
			count++
			if report != nil && (count == reportEvery || b.done(t.Phase, t.Step, t.Spent[t.Phase]) >= 1) {
				p := Progress{Phase: t.Phase, Step: t.Step, Loss: acc.Loss / float32(count), Done: b.done(t.Phase, t.Step, t.Spent[t.Phase])}
				for k := range parts {
					p.Parts[k] = acc.Parts[k] / float32(count)
				}
				report(p)
				acc, count = Progress{}, 0
			}
		}
		t.Phase++
		t.Step = 0
		acc, count = Progress{}, 0
	}
	return nil
}

// step takes one optimiser step of the phase at learning rate rate, and
// returns its loss and the loss's parts.
func (t *Trainer) step(rate float32) (float32, [4]float32) {
	switch t.Phase {
	case PhaseAutoencoder:
		return t.stepAutoencoder(rate)
	case PhaseStepper:
		return t.stepStepper(rate)
	}
	return t.stepProjector(rate)
}

// frame is a random frame with a next one in its clip.
func (t *Trainer) frame() int {
	for {
		i := int(t.rng.Next() % uint32(t.data.frames))
		if t.data.next[i] >= 0 {
			return i
		}
	}
}

// grow returns s with room for n values.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// Latent regularisers of the decompressor's phase: the latent's size
// (L2 and L1) and its change from a frame to the next (L1), which keeps
// z smooth in time so that the stepper can follow it.
const (
	latentL2   = 0.01
	latentL1   = 0.01
	latentStep = 0.1
)

// stepAutoencoder trains the compressor and decompressor on Batch pairs
// of frames (a frame and the next): the L1 distance of the decoded pose
// to the frame's in normalised units, and the latent's regularisers.
func (t *Trainer) stepAutoencoder(rate float32) (float32, [4]float32) {
	d, comp, dec := t.data, t.nets[netCompressor], t.nets[netDecompressor]
	rows := 2 * t.cfg.Batch
	t.tapes(2, rows)
	t.buf.in = grow(t.buf.in, rows*d.cd)
	cin := t.buf.in
	frames := make([]int, rows) // small: allocated each step, not each tick
	for b := 0; b < t.cfg.Batch; b++ {
		frames[2*b] = t.frame()
		frames[2*b+1] = int(d.next[frames[2*b]])
	}
	for r, i := range frames {
		copy(cin[r*d.cd:(r+1)*d.cd], d.c[i*d.cd:(i+1)*d.cd])
	}
	comp.NormIn(cin, cin, rows)
	z := comp.ForwardBatch(t.buf.tapes[0], cin, rows)
	s := d.xd + Latent
	t.buf.out = grow(t.buf.out, rows*s)
	din := t.buf.out
	for r, i := range frames {
		copy(din[r*s:], d.x[i*d.xd:(i+1)*d.xd])
		copy(din[r*s+d.xd:(r+1)*s], z[r*Latent:(r+1)*Latent])
	}
	for r := 0; r < rows; r++ { // x normalised; z as it is
		for k := 0; k < d.xd; k++ {
			din[r*s+k] = (din[r*s+k] - dec.InMean[k]) / dec.InStd[k]
		}
	}
	y := dec.ForwardBatch(t.buf.tapes[1], din, rows)
	t.buf.grad = grow(t.buf.grad, rows*d.yd)
	g := t.buf.grad
	var parts [4]float32
	scale := 1 / float32(rows*d.yd)
	for r, i := range frames {
		truth := d.c[i*d.cd : i*d.cd+d.yd]
		for k := 0; k < d.yd; k++ {
			e := y[r*d.yd+k] - (truth[k]-dec.OutMean[k])/dec.OutStd[k]
			parts[0] += abs32(e) * scale
			g[r*d.yd+k] = sign(e) * scale
		}
	}
	// The joints in the character's frame (fkLoss), where the skeleton
	// lists parents before children.
	if t.buf.fk != nil {
		raw := make([]float32, 2*d.yd)
		yr, dr := raw[:d.yd], raw[d.yd:]
		norm := 1 / float32(rows*3*(t.db.Skel.Len()-1))
		for r, i := range frames {
			for k := range yr {
				yr[k], dr[k] = y[r*d.yd+k]*dec.OutStd[k]+dec.OutMean[k], 0
			}
			parts[1] += t.buf.fk.fkLoss(yr, d.c[i*d.cd+d.yd:(i+1)*d.cd], dr, t.db.Skel.Parents, t.buf.fkScale, norm)
			for k, v := range dr {
				g[r*d.yd+k] += v * dec.OutStd[k]
			}
		}
	}
	t.zero(netCompressor, netDecompressor)
	dz := dec.Backward(t.buf.tapes[1], g, t.buf.grads[netDecompressor])
	gz := grow(t.buf.in, rows*Latent) // cin is done with
	zs := 1 / float32(rows*Latent)
	for r := 0; r < rows; r++ {
		for k := 0; k < Latent; k++ {
			v := z[r*Latent+k]
			parts[2] += (latentL2*v*v + latentL1*abs32(v)) * zs
			gz[r*Latent+k] = dz[r*s+d.xd+k] + (2*latentL2*v+latentL1*sign(v))*zs
		}
	}
	for b := 0; b < t.cfg.Batch; b++ { // the change from frame to next
		for k := 0; k < Latent; k++ {
			e := z[(2*b+1)*Latent+k] - z[2*b*Latent+k]
			parts[3] += latentStep * abs32(e) * 2 * zs
			gz[(2*b+1)*Latent+k] += latentStep * sign(e) * 2 * zs
			gz[2*b*Latent+k] -= latentStep * sign(e) * 2 * zs
		}
	}
	comp.Backward(t.buf.tapes[0], gz, t.buf.grads[netCompressor])
	t.update(rate, netCompressor, netDecompressor)
	return parts[0] + parts[1] + parts[2] + parts[3], parts
}

func sign(x float32) float32 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// tapes makes sure there are n tapes of rows rows for the networks of
// the phase.
func (t *Trainer) tapes(n, rows int) {
	if len(t.buf.tapes) == n && t.buf.tapes[0].Rows >= rows && t.buf.tapePhase == t.Phase {
		return
	}
	t.buf.tapes, t.buf.tapePhase = t.buf.tapes[:0], t.Phase
	for k := 0; k < n; k++ {
		var m *nn.MLP
		switch t.Phase {
		case PhaseAutoencoder:
			m = t.nets[netCompressor+k]
		case PhaseStepper:
			m = t.nets[netStepper]
		default:
			m = t.nets[netProjector]
		}
		t.buf.tapes = append(t.buf.tapes, m.NewTape(rows))
	}
}

func (t *Trainer) zero(nets ...int) {
	for _, k := range nets {
		t.buf.grads[k].Zero()
	}
}

func (t *Trainer) update(rate float32, nets ...int) {
	for _, k := range nets {
		t.opt[k].LR = rate
		t.opt[k].Update(t.nets[k], t.buf.grads[k])
	}
}

// encodeAll computes every frame's latent with the trained compressor,
// and sets the stepper's and the projector's normalisation from the
// states (x, z) and their changes a frame on.
func (t *Trainer) encodeAll() {
	d, comp := t.data, t.nets[netCompressor]
	const rows = 256
	tape := comp.NewTape(rows)
	in := make([]float32, rows*d.cd)
	t.z = make([]float32, d.frames*Latent)
	for i0 := 0; i0 < d.frames; i0 += rows {
		n := min(rows, d.frames-i0)
		comp.NormIn(in, d.c[i0*d.cd:], n)
		copy(t.z[i0*Latent:], comp.ForwardBatch(tape, in, n)[:n*Latent])
	}
	s := d.xd + Latent
	states := make([]float32, d.frames*s)
	var deltas []float32
	for i := 0; i < d.frames; i++ {
		t.state(states[i*s:(i+1)*s], i)
	}
	for i := 0; i < d.frames; i++ {
		if j := d.next[i]; j >= 0 {
			for k := 0; k < s; k++ {
				deltas = append(deltas, states[int(j)*s+k]-states[i*s+k])
			}
		}
	}
	st, pr := t.nets[netStepper], t.nets[netProjector]
	if t.Phase == PhaseStepper && t.Step == 0 { // not on a resume: the networks carry theirs
		st.InMean, st.InStd = nn.Normalise(states, s, 1e-3)
		st.OutMean, st.OutStd = nn.Normalise(deltas, s, 1e-4)
		pr.OutMean, pr.OutStd = nn.Normalise(states, s, 1e-3)
	}
}

// state writes frame i's state (x then z) into out.
func (t *Trainer) state(out []float32, i int) {
	copy(out, t.data.x[i*t.data.xd:(i+1)*t.data.xd])
	copy(out[t.data.xd:], t.z[i*Latent:(i+1)*Latent])
}

// stepStepper trains the stepper on Batch rollouts of Window frames from
// a frame's state, each step fed the stepper's own last state: the L1
// distance of each state and each change to the frames' own, in
// normalised units, back through the rollout.
func (t *Trainer) stepStepper(rate float32) (float32, [4]float32) {
	d, st := t.data, t.nets[netStepper]
	s, bt, w := d.xd+Latent, t.cfg.Batch, t.cfg.Window
	t.tapes(w-1, bt)
	starts := make([]int, 0, bt)
	for len(starts) < bt {
		i := t.frame()
		j := i
		for k := 1; k < w && j >= 0; k++ {
			j = int(d.next[j])
		}
		if j >= 0 {
			starts = append(starts, i)
		}
	}
	// cur[k] holds the rollout's states at step k (raw), truth the frames'.
	cur := make([][]float32, w)
	truth := make([][]float32, w)
	for k := range cur {
		cur[k], truth[k] = make([]float32, bt*s), make([]float32, bt*s)
	}
	for b, i := range starts {
		for k := 0; k < w; k++ {
			t.state(truth[k][b*s:(b+1)*s], i)
			i = int(d.next[i])
		}
	}
	copy(cur[0], truth[0])
	outs := make([][]float32, w)
	t.buf.in = grow(t.buf.in, bt*s)
	in := t.buf.in
	for k := 1; k < w; k++ {
		st.NormIn(in, cur[k-1], bt)
		outs[k] = st.ForwardBatch(t.buf.tapes[k-1], in, bt)
		for r := 0; r < bt*s; r++ {
			cur[k][r] = cur[k-1][r] + outs[k][r]*st.OutStd[r%s] + st.OutMean[r%s]
		}
	}
	var parts [4]float32
	scale := 1 / float32((w-1)*bt*s)
	g := make([]float32, bt*s) // the loss's gradient at cur[k] (raw units)
	t.buf.grad = grow(t.buf.grad, bt*s)
	dout := t.buf.grad
	t.zero(netStepper)
	for k := w - 1; k >= 1; k-- {
		for r := 0; r < bt*s; r++ {
			sd := st.InStd[r%s]
			e := (cur[k][r] - truth[k][r]) / sd
			parts[0] += abs32(e) * scale
			g[r] += sign(e) * scale / sd
			// the change's own term, in the change's normalised units
			de := outs[k][r] - (truth[k][r]-truth[k-1][r]-st.OutMean[r%s])/st.OutStd[r%s]
			parts[1] += abs32(de) * scale
			dout[r] = g[r]*st.OutStd[r%s] + sign(de)*scale
		}
		din := st.Backward(t.buf.tapes[k-1], dout, t.buf.grads[netStepper])
		for r := range g { // cur[k] = cur[k-1] + ..., and cur[k-1] fed the stepper
			g[r] += din[r] / st.InStd[r%s]
		}
	}
	t.update(rate, netStepper)
	return parts[0] + parts[1], parts
}

// projectorNoise is the largest noise a projector's training query gets,
// in standard deviations of each feature: a query is a frame's features
// moved by up to this, and its target is the frame a search finds for it.
const projectorNoise = 1.0

// stepProjector trains the projector on Batch noisy queries: the L1
// distance of its state to that of the frame the database's search finds
// for the query, in normalised units.
func (t *Trainer) stepProjector(rate float32) (float32, [4]float32) {
	d, pr := t.data, t.nets[netProjector]
	s, bt := d.xd+Latent, t.cfg.Batch
	t.tapes(1, bt)
	t.buf.in = grow(t.buf.in, bt*d.xd)
	q := t.buf.in
	want := make([]float32, bt*s)
	idx := t.db.Index(t.cfg.Set)
	for b := 0; b < bt; b++ {
		i := int(d.searchable[t.rng.Next()%uint32(len(d.searchable))])
		u := t.rng.Float() * projectorNoise
		row := q[b*d.xd : (b+1)*d.xd]
		for k := range row {
			row[k] = d.x[i*d.xd+k] + u*pr.InStd[k]*nn.Normal(&t.rng)
		}
		t.buf.results = idx.Search(Query{Features: row, N: 1, Bound: float32(math.Inf(1))}, t.buf.results[:0])
		if len(t.buf.results) > 0 {
			i = t.buf.results[0].Frame
		}
		t.state(want[b*s:(b+1)*s], i)
	}
	t.buf.out = grow(t.buf.out, bt*d.xd)
	in := t.buf.out
	pr.NormIn(in, q, bt)
	y := pr.ForwardBatch(t.buf.tapes[0], in, bt)
	t.buf.grad = grow(t.buf.grad, bt*s)
	g := t.buf.grad
	var parts [4]float32
	scale := 1 / float32(bt*s)
	for r := 0; r < bt*s; r++ {
		e := y[r] - (want[r]-pr.OutMean[r%s])/pr.OutStd[r%s]
		parts[0] += abs32(e) * scale
		g[r] = sign(e) * scale
	}
	t.zero(netProjector)
	pr.Backward(t.buf.tapes[0], g, t.buf.grads[netProjector])
	t.update(rate, netProjector)
	return parts[0], parts
}

// Networks are the trained networks, with the database's digest, its
// features' normalisation and the states of its anchors (the frames the
// matcher starts and stands in). The stepper and projector are trained
// only once their phases are done.
func (t *Trainer) Networks() *Networks {
	db := t.db
	if t.z == nil {
		t.encodeAll()
	}
	n := &Networks{Digest: db.Digest(), Set: t.cfg.Set, Halflife: db.Halflife, Weights: db.weights, Scale: db.scale,
		FrameTime: db.Clips[0].FrameTime, Joints: db.Skel.Len(),
		Decompressor: t.nets[netDecompressor], Stepper: t.nets[netStepper], Projector: t.nets[netProjector]}
	for g := range db.mean {
		copy(n.Mean[g][:], db.mean[g])
	}
	first := 0
	for i, ok := range db.Searchable {
		if ok {
			first = i
			break
		}
	}
	add := func(i int, stance bool) {
		a := Anchor{Frame: i, Stance: stance, State: make([]float32, t.data.xd+Latent)}
		t.state(a.State, i)
		if stance {
			pos, _ := db.FootState(i)
			a.Feet = [4]float32{pos[0][0], pos[0][2], pos[1][0], pos[1][2]}
			h := db.raw[HipVel][3*i:]
			a.HipSpeed = float32(math.Sqrt(float64(h[0]*h[0] + h[1]*h[1] + h[2]*h[2])))
		}
		n.Anchors = append(n.Anchors, a)
	}
	add(first, false)
	if db.IdleFrom >= 0 {
		add(db.IdleFrom, true)
	}
	for _, i := range spreadStances(db, maxStances-1) {
		if i != db.IdleFrom {
			add(i, true)
		}
	}
	return n
}

// spreadStances picks up to k of db's stances (and idle frames) spread
// over where they put the feet: each the one furthest (feet on the
// ground, m) from those picked before it, the first the stillest.
func spreadStances(db *Database, k int) []int {
	var all []int
	all = append(all, db.stances...)
	for i := db.IdleFrom; i >= 0 && i <= db.IdleTo; i++ {
		all = append(all, i)
	}
	if len(all) == 0 {
		return nil
	}
	feet := func(i int) [4]float32 {
		pos, _ := db.FootState(i)
		return [4]float32{pos[0][0], pos[0][2], pos[1][0], pos[1][2]}
	}
	dist := make([]float32, len(all))
	for j := range dist {
		dist[j] = float32(math.Inf(1))
	}
	pick := 0
	for j, i := range all {
		if db.stillness(i) < db.stillness(all[pick]) {
			pick = j
		}
	}
	var out []int
	for len(out) < min(k, len(all)) {
		out = append(out, all[pick])
		f := feet(all[pick])
		next := -1
		for j, i := range all {
			g := feet(i)
			var d float32
			for c := range g {
				d += (g[c] - f[c]) * (g[c] - f[c])
			}
			dist[j] = min(dist[j], d)
			if dist[j] > 0 && (next < 0 || dist[j] > dist[next]) {
				next = j
			}
		}
		if next < 0 {
			break
		}
		pick = next
	}
	return out
}

// ckptMagic begins a training checkpoint.
const ckptMagic = "kinelab lmm checkpoint 1\n"

// WriteCheckpoint stores where the training is: its configuration,
// phase, step and time spent, its random state, and every network with
// its optimiser's state.
func (t *Trainer) WriteCheckpoint(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(ckptMagic)
	put := func(v any) { _ = binary.Write(bw, binary.LittleEndian, v) }
	put(t.db.Digest())
	put([]int32{int32(t.cfg.Width), int32(t.cfg.Batch), int32(t.cfg.Window), int32(t.cfg.Set), int32(t.Phase), int32(t.Step)})
	put(t.cfg.Rate)
	put(t.cfg.Seed)
	put(t.rng.X)
	put(t.Spent)
	for k := range t.nets {
		if err := t.nets[k].Write(bw); err != nil {
			return err
		}
		if err := t.opt[k].Write(bw); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ReadCheckpointFile resumes from the checkpoint at path
// (ReadCheckpoint), a regular file: a FIFO or a folder is refused by
// name. A missing file's error wraps fs.ErrNotExist.
func (t *Trainer) ReadCheckpointFile(path string) error {
	f, err := regular.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return t.ReadCheckpoint(f)
}

// readNets reads a checkpoint's networks and their optimisers' states,
// each network of the size of the trainer's own.
func (t *Trainer) readNets(br *bufio.Reader) (nets [4]*nn.MLP, opts [4]*nn.AdamW, err error) {
	for k := range nets {
		m, err := nn.Read(br)
		if err != nil {
			return nets, opts, err
		}
		if m.In() != t.nets[k].In() || m.Out() != t.nets[k].Out() || len(m.Layers) != len(t.nets[k].Layers) {
			return nets, opts, errors.New("the checkpoint's networks are of other sizes")
		}
		opts[k] = nn.NewAdamW(m, t.cfg.Rate, t.opt[k].Decay)
		if err := opts[k].ReadState(br); err != nil {
			return nets, opts, err
		}
		nets[k] = m
	}
	return nets, opts, nil
}

// ReadCheckpoint resumes a training from a checkpoint of one on the same
// database with the same configuration (else it says what differs).
func (t *Trainer) ReadCheckpoint(r io.Reader) error {
	br := bufio.NewReader(r)
	magic := make([]byte, len(ckptMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != ckptMagic {
		return errors.New("not a kinelab training checkpoint")
	}
	var digest [32]byte
	var hdr [6]int32
	var rate float32
	var seed, x uint32
	var spent [NumPhases]float64
	for _, v := range []any{&digest, &hdr, &rate, &seed, &x, &spent} {
		if err := binary.Read(br, binary.LittleEndian, v); err != nil {
			return errors.New("the checkpoint ends early")
		}
	}
	c := t.cfg
	switch {
	case digest != t.db.Digest():
		return errors.New("the checkpoint is of a training on another database")
	case int(hdr[0]) != c.Width || int(hdr[1]) != c.Batch || int(hdr[2]) != c.Window || Set(hdr[3]) != c.Set || rate != c.Rate || seed != c.Seed:
		return fmt.Errorf("the checkpoint is of another configuration (width %d, batch %d, window %d, set %v, rate %g, seed %d)",
			hdr[0], hdr[1], hdr[2], Set(hdr[3]), rate, seed)
	case hdr[4] < 0 || hdr[4] > NumPhases || hdr[5] < 0:
		return fmt.Errorf("the checkpoint's phase %d, step %d are out of range", hdr[4], hdr[5])
	}
	nets, opts, err := t.readNets(br)
	if err != nil {
		return err
	}
	t.nets, t.opt = nets, opts
	for k := range t.nets {
		t.buf.grads[k] = t.nets[k].NewGrads()
	}
	t.Phase, t.Step, t.rng.X, t.Spent = int(hdr[4]), int(hdr[5]), x, spent
	t.z, t.buf.tapes = nil, nil
	return nil
}
