package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/export"
	"kinelab/animsys/gltf"
	"kinelab/animsys/retarget"
	"kinelab/animsys/words"
	"kinelab/assets"
)

const retargetSynopsis = "kinelab retarget SOURCE ... --onto CHARACTER.glb|default --out OUT.glb [--units U] [--up A] [--keep-rest] [--feet=false]"

// Retarget runs `kinelab retarget`: the clips of SOURCE (BVH files or
// folders read as one character, as the app reads them, or a glTF file's
// animations) retargeted onto the character in CHARACTER.glb (package
// retarget: the map from one figure to the other, exact velocities),
// written to OUT.glb as a copy of the character file with each clip
// added as an animation named after it (gltf.Asset.AddAnimations: every
// byte of its mesh, skin, materials and textures kept). "default" is the
// embedded character, written with its generated body
// (gltf.SkinnedGLB). A target or source that does not read as a human,
// and an OUT that is an input, are refused with why: exit 1, nothing
// written.
//
// Exit codes: 0 success, 1 an input that cannot be read or mapped, or an
// output that cannot be written, 2 bad usage.
func Retarget(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	stdout, finish := checkedStdout("kinelab retarget", stdout, stderr, &code)
	defer finish()
	fs := newFlagSet("kinelab retarget", retargetSynopsis,
		"Plays captures on your own character: each clip of SOURCE retargeted onto the glTF character\n"+
			"CHARACTER.glb (\"default\": the embedded one), written as a copy of the character with\n"+
			"each clip added as an animation of its name (CUBICSPLINE curves with the exact velocities).", stderr)
	onto := fs.String("onto", "", "the character to play the clips on: a `CHARACTER.glb` read as human, or \"default\"")
	out := fs.String("out", "", "the GLB `FILE` to write (never one of the inputs)")
	units := fs.String("units", "auto", "units of BVH files: auto, m, cm, mm, in, cmu, or metres per unit")
	up := fs.String("up", "auto", "up axis of BVH files: auto, y or z (x, -y, -z too)")
	keep := fs.Bool("keep-rest", false, "keep a BVH file's leading rest-pose frames (dropped by default, as in the app)")
	feet := fs.Bool("feet", true, "keep the feet where the source's stood by two-bone IK (false: rotations alone)")
	inputs, code := parseAnywhere(fs, args)
	if code >= 0 {
		return code
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinelab retarget: "+format+"\n", a...)
		fs.Usage()
		return ExitUsage
	}
	switch {
	case len(inputs) == 0:
		return usage("no SOURCE: give BVH files, folders or a glTF file")
	case *onto == "":
		return usage("no --onto CHARACTER.glb")
	case *out == "":
		return usage("no --out OUT.glb")
	case !strings.EqualFold(filepath.Ext(*out), ".glb"):
		return usage("--out %q: name a .glb file", *out)
	}
	fail := func(err error) int {
		if !errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "kinelab retarget: %v\n", err)
		}
		return ExitFail
	}
	opt := bvh.ReadOptions{Units: *units, Up: *up, KeepRest: *keep}
	job, err := newRetargetJob(ctx, *onto, inputs, opt, stderr)
	if err != nil {
		return fail(err)
	}
	job.m.Feet = job.m.Feet && *feet
	// Every input is an input before anything is written: OUT naming one
	// (through a link too) is refused.
	for _, in := range append(job.src.Files, job.ontoFile) {
		if in != "" {
			export.NoteInput(in)
		}
	}
	if err := export.CheckTarget(*out); err != nil {
		return fail(err)
	}
	glb, err := job.write(ctx)
	if err != nil {
		return fail(err)
	}
	f, err := export.Prepare(*out, func(w io.Writer) error { _, err := w.Write(glb); return err })
	if err != nil {
		return fail(err)
	}
	if err := f.Commit(); err != nil {
		return fail(fmt.Errorf("%s: %w", *out, err))
	}
	fmt.Fprintf(stdout, "%s: %s with %s added (%s), %s, %.1f MB\n", *out, job.target(), words.Count(len(job.clips), "animation"),
		strings.Join(job.names(), ", "), words.Count(job.dst.Skel.Len(), "joint"), float64(len(glb))/1e6)
	fmt.Fprintln(stdout, job.m.Summary())
	return ExitOK
}

// retargetJob is the character, the captures and the map of a retarget.
type retargetJob struct {
	dst, src *character.Character
	ontoFile string // the character's file, "" for the embedded one
	m        *retarget.Map
	clips    []animsys.Clip // the source's clips retargeted
}

// newRetargetJob reads the character onto (a glTF file, or "default")
// and the captures inputs (with opt), refusing either when it does not
// read as a human, and maps one onto the other. What loading noted, and
// the files it skipped, go to stderr.
func newRetargetJob(ctx context.Context, onto string, inputs []string, opt bvh.ReadOptions, stderr io.Writer) (*retargetJob, error) {
	dst, err := assets.OpenCharacter(onto)
	if err != nil {
		return nil, fmt.Errorf("--onto: %w", err)
	}
	if why := dst.NotHuman(); why != "" {
		return nil, fmt.Errorf("--onto %s: %s: no human figure to play captures on", onto, why)
	}
	src, err := character.LoadContext(ctx, inputs, opt)
	if err != nil {
		return nil, errors.Join(character.FileErrors(err)...)
	}
	for _, s := range src.Skipped {
		fmt.Fprintf(stderr, "kinelab retarget: %v\n", s)
	}
	j := &retargetJob{dst: dst, src: src}
	if dst != assets.Character() {
		j.ontoFile = onto
	}
	ch, m, err := retarget.Onto(dst, src)
	if err != nil {
		return nil, err
	}
	j.m, j.clips = m, ch.Clips
	return j, nil
}

// target names the character written: its file, or the embedded one.
func (j *retargetJob) target() string {
	if j.ontoFile == "" {
		return "the embedded character"
	}
	return filepath.Base(j.ontoFile)
}

// names are the animations added: "walk (994 keys)".
func (j *retargetJob) names() []string {
	var out []string
	for i := range j.clips {
		out = append(out, fmt.Sprintf("%s: %s", j.clips[i].Name, words.Count(j.clips[i].Frames, "key")))
	}
	return out
}

// write is the character's GLB file with the retargeted clips added, a
// key at each of their frames, sampled exactly (their Curves).
func (j *retargetJob) write(ctx context.Context) ([]byte, error) {
	var glb []byte
	var err error
	if j.ontoFile != "" {
		if glb, err = os.ReadFile(j.ontoFile); err != nil {
			return nil, err
		}
	} else {
		bind := j.dst.Skel.BindPose()
		mesh := body.Generate(j.dst.Figure, bind.Pos, bind.Rot)
		// The body's colour: the labs' skin tone, linear.
		if glb, err = gltf.SkinnedGLB(j.dst.Name, &j.dst.Skel, &mesh, [4]float32{0.73, 0.5, 0.37, 1}); err != nil {
			return nil, err
		}
	}
	name := j.ontoFile
	if name == "" {
		name = j.dst.Name + ".glb"
	}
	a, err := gltf.Read(bytes.NewReader(glb), name, "")
	if err != nil {
		return nil, err
	}
	if a.Skel.Len() != j.dst.Skel.Len() {
		return nil, fmt.Errorf("%s: %d joints read back, the character has %d", name, a.Skel.Len(), j.dst.Skel.Len())
	}
	var anims []gltf.Animation
	for i := range j.clips {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := &j.clips[i]
		times := make([]float32, c.Frames)
		for k := range times {
			times[k] = float32(k) * c.FrameTime
		}
		last := c.Frames - 2
		anims = append(anims, gltf.Animation{Name: c.Name, Times: times, Sample: func(k int, out *animsys.Pose) {
			animsys.SampleCubicFrame(out, c, min(k, last), float32(k-min(k, last)))
		}})
	}
	out, err := a.AddAnimations(glb, anims)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}
