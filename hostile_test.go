package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"kinelab/internal/fixture"
	"kinelab/internal/gltftest"
)

// hostileGrace is what is left of the test binary's -timeout when a run
// of the corpus that has not ended is killed: a run reading /dev/zero or
// waiting on a FIFO nobody writes to never ends, and this names it and
// ends it, where the -timeout's panic would leave it running. No limit of
// its own: how long a run takes depends on how busy the machine is.
const hostileGrace = 30 * time.Second

// hostilePeak bounds one run's peak memory (resident set) by the stated
// read limit (1 GiB a file): every input here is refused before it is
// read whole, or is small (the largest run peaked at 35 MB here).
// Reading /dev/zero whole, the bug this guards, took 6 GB in 16 s.
const hostilePeak = 1 << 30

// claimPeak bounds the peak memory of a run on a file whose header claims
// a gigabyte it does not hold (refused before it is read; before that
// bound, 2.2 GB).
const claimPeak = 300 << 20

// A corpus of hostile inputs, generated in a temporary folder, run
// through every entry point of the command line (info, export, bvh
// export, verify --file, golden, matching eval, and a lab with --csv,
// which runs without a window). For every run: no input file changes
// (hashed before and after), an output that was there is unchanged when
// the run fails, no temporary file is left, no run hangs (killed before
// the test's -timeout) or panics, and a run that exits 0 wrote no NaN or Inf. Each case also
// says which exit code and message it expects.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED the hostile-input corpus: -short")
	}
	bin := buildKinelab(t)
	root := t.TempDir()
	in := filepath.Join(root, "in")
	out := filepath.Join(root, "out")
	for _, d := range []string{in, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := newCorpus(t, in, out)

	for _, k := range c.cases {
		t.Run(k.name, func(t *testing.T) {
			for p, b := range k.outputs {
				writeOutput(t, p, b)
			}
			before := hashTree(t, root)
			ctx, cancel := context.WithCancel(context.Background())
			if d, ok := t.Deadline(); ok {
				ctx, cancel = context.WithDeadline(context.Background(), d.Add(-min(hostileGrace, time.Until(d)/2)))
			}
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, k.args...)
			cmd.Dir = out
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Env = append(os.Environ(), "HOME="+root) // no user settings read or written
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("kinelab %s: still running as the test's -timeout nears (stderr %q)", strings.Join(k.args, " "), stderr.String())
			}
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				peak := ru.Maxrss << 10 // kB on Linux
				t.Logf("%s: peak memory %.0f MB", t.Name(), float64(peak)/1e6)
				if limit := cmp.Or(k.peak, hostilePeak); peak > limit {
					t.Errorf("kinelab %s: peak memory %d MB, over the %d MB budget", strings.Join(k.args, " "), peak>>20, limit>>20)
				}
			}
			after := hashTree(t, root)
			msg := stderr.String()
			if strings.Contains(msg, "panic:") || strings.Contains(msg, "goroutine ") {
				t.Errorf("panicked:\n%s", msg)
			}
			if code != k.code || !strings.Contains(msg, k.says) {
				t.Errorf("kinelab %s: exit %d, stderr %q; want exit %d saying %q", strings.Join(k.args, " "), code, msg, k.code, k.says)
			}
			for p, h := range before {
				changed := after[p] != h
				switch {
				case strings.HasPrefix(p, in) && changed:
					t.Errorf("input %s changed", p)
				case code != 0 && changed:
					t.Errorf("the run failed (exit %d) and changed %s", code, p)
				}
			}
			for p := range after {
				base := filepath.Base(p)
				if strings.Contains(base, ".tmp-") || strings.HasPrefix(base, ".kinelab-export-") {
					t.Errorf("left a temporary file %s", p)
				}
				if _, ok := before[p]; !ok && code != 0 && !strings.HasPrefix(p, filepath.Join(root, ".config")) {
					t.Errorf("the run failed (exit %d) and made %s", code, p)
				}
			}
			if code == 0 {
				checkFinite(t, "stdout", stdout.Bytes())
				for p, h := range after {
					if before[p] != h && strings.HasPrefix(p, out) && (strings.HasSuffix(p, ".csv") || strings.HasSuffix(p, ".json")) {
						b, _ := os.ReadFile(p)
						checkFinite(t, p, b)
					}
				}
			}
			for p := range k.outputs {
				os.Remove(p)
			}
			cleanOut(t, out)
		})
	}
}

// hostileCase is one command line of the corpus: its arguments, the
// outputs to put in place first (path: content), the exit code and a
// piece of the message it should give.
type hostileCase struct {
	name    string
	args    []string
	outputs map[string][]byte
	code    int
	says    string
	// peak, if set, bounds the run's peak memory below hostilePeak.
	peak int64
}

type corpus struct {
	cases []hostileCase
}

// newCorpus writes the hostile inputs to in and lists the cases, whose
// outputs go to out.
func newCorpus(t *testing.T, in, out string) *corpus {
	c := &corpus{}
	j := func(names ...string) string { return filepath.Join(append([]string{in}, names...)...) }
	o := func(name string) string { return filepath.Join(out, name) }
	before := []byte("before\n")

	// Good inputs, for the links onto them.
	spec := fixture.Mixamo()
	spec.Name, spec.Frames = "walk", 30
	walk := fixture.File(t, in, spec)
	gltfFile, bin := externalGLTF(t, in, "char")

	// A device and FIFOs named as inputs, as a URI, in a folder.
	mustSymlink(t, "/dev/zero", j("zero.bvh"))
	mustFIFO(t, j("pipe.bvh"))
	zeroGLTF, zeroBin := externalGLTF(t, in, "zero")
	os.Remove(zeroBin)
	mustSymlink(t, "/dev/zero", zeroBin)
	fifoGLTF, fifoBin := externalGLTF(t, in, "fifo")
	os.Remove(fifoBin)
	mustFIFO(t, fifoBin)
	dirGLTF, dirBin := externalGLTF(t, in, "dirbuf")
	os.Remove(dirBin)
	if err := os.Mkdir(dirBin, 0o755); err != nil {
		t.Fatal(err)
	}
	folder := j("folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	spec.Name = "a_walk"
	fixture.File(t, folder, spec)
	mustFIFO(t, filepath.Join(folder, "b_pipe.bvh"))

	// Broken GLB files: cut short, a header claiming 4 GB, a JSON chunk
	// past the end.
	glb := j("good.glb")
	if err := gltftest.Default(glb, gltftest.Options{GLB: true}); err != nil {
		t.Fatal(err)
	}
	g, err := os.ReadFile(glb)
	if err != nil {
		t.Fatal(err)
	}
	writeInput(t, j("cut.glb"), g[:len(g)/2])
	huge := bytes.Clone(g)
	binary.LittleEndian.PutUint32(huge[8:], 0xfffffff0)
	writeInput(t, j("huge.glb"), huge)
	chunk := bytes.Clone(g)
	binary.LittleEndian.PutUint32(chunk[12:], 0xfffffff0)
	writeInput(t, j("chunk.glb"), chunk)
	writeInput(t, j("tiny.glb"), g[:10])
	os.Remove(glb)

	// Files over kinelab's size limits, sparse (they take no room): a
	// BVH file, a GLB file, and a glTF buffer behind a URI.
	sparse := func(path string, size int64) {
		f, err := os.Create(path)
		if err == nil {
			err = f.Truncate(size)
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	sparse(j("large.bvh"), 1<<30+1)
	sparse(j("large.glb"), 3<<30)
	largeGLTF, largeBin := externalGLTF(t, in, "large")
	os.Remove(largeBin)
	sparse(largeBin, 1<<30+1)

	// Under the size limits, sparse files whose headers claim a gigabyte
	// over a few bytes of data: a GLB JSON chunk, a GLB binary chunk (and
	// the buffer the JSON names), a glTF buffer behind a URI, a BVH file.
	// Each is refused within claimPeak of memory: memory follows what a
	// file holds, never what its header claims.
	claim := func(path string, size int64, head ...[]byte) {
		sparse(path, size)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			_, err = f.Write(bytes.Join(head, nil))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	le := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	const gig = 1<<30 - 1<<10
	claim(j("claim-json.glb"), gig, []byte("glTF"), le(2), le(gig), le(gig-20), []byte("JSON"), []byte(`{"asset":{"version":"2.0"}}`))
	binDoc := []byte(fmt.Sprintf(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":%d}]}`, gig-1024))
	binDoc = append(binDoc, bytes.Repeat([]byte(" "), -len(binDoc)&3)...)
	claim(j("claim-bin.glb"), gig, []byte("glTF"), le(2), le(gig), le(uint32(len(binDoc))), []byte("JSON"), binDoc, le(uint32(gig-28-len(binDoc))), []byte("BIN\x00"))
	claimGLTF, claimBin := externalGLTF(t, in, "claim")
	os.Remove(claimBin)
	claim(claimBin, gig)
	claim(j("claim.bvh"), gig, []byte("HIERARCHY\nROOT Hips\n{\n"))

	// A glTF file requiring an extension kinelab does not know.
	reqExt := editGLTF(t, gltfFile, j("required.gltf"), func(doc map[string]any) {
		doc["extensionsUsed"] = []any{"KHR_draco_mesh_compression"}
		doc["extensionsRequired"] = []any{"KHR_draco_mesh_compression"}
	})

	// BVH files: 10,000 joints over 3 frames; values of 3e38; no
	// extension.
	writeInput(t, j("wide.bvh"), wideBVH(10000, 3))
	writeInput(t, j("deep.bvh"), deepBVH(10000, 30))
	b, err := os.ReadFile(walk)
	if err != nil {
		t.Fatal(err)
	}
	writeInput(t, j("big.bvh"), bigValues(b))
	writeInput(t, j("capture"), b)

	lab := func(csv string, files ...string) []string {
		return append([]string{"--lab", "velocities", "--frames", "5", "--csv", csv}, files...)
	}
	refused := func(name string, args []string, says string) {
		c.cases = append(c.cases, hostileCase{name: name, args: args, outputs: map[string][]byte{o("o.csv"): before}, code: 1, says: says})
	}
	for _, f := range []struct{ name, path, says string }{
		{"dev-zero-link", j("zero.bvh"), "a device, not a file"},
		{"fifo", j("pipe.bvh"), "a named pipe (FIFO), not a file"},
		{"uri-dev-zero", zeroGLTF, "a device, not a file"},
		{"uri-fifo", fifoGLTF, "a named pipe (FIFO), not a file"},
		{"uri-folder", dirGLTF, "a folder, not a file"},
		{"glb-cut", j("cut.glb"), "truncated"},
		{"glb-huge-length", j("huge.glb"), "the GLB header says 4294967280 bytes"},
		{"glb-chunk-length", j("chunk.glb"), "JSON chunk says 4294967280 bytes"},
		{"glb-tiny", j("tiny.glb"), "truncated"},
		{"over-limit-bvh", j("large.bvh"), "1.1 GB is over the 1 GiB limit for a BVH file"},
		{"over-limit-glb", j("large.glb"), "3.2 GB is over the 1 GiB limit for a glTF file"},
		{"over-limit-uri", largeGLTF, "1.1 GB is over the 1 GiB limit for a glTF buffer"},
		{"claim-json-glb", j("claim-json.glb"), "the rest holes"},
		{"claim-bin-glb", j("claim-bin.glb"), "the rest holes"},
		{"claim-uri", claimGLTF, "the rest holes"},
		{"claim-bvh", j("claim.bvh"), "the rest holes"},
	} {
		refused(f.name+"/info", []string{"info", f.path}, f.says)
		refused(f.name+"/export", []string{"export", f.path, "--out", o("o.csv")}, f.says)
		refused(f.name+"/verify", []string{"verify", "--file", f.path}, f.says)
		refused(f.name+"/lab", lab(o("o.csv"), f.path), f.says)
		if strings.HasPrefix(f.name, "claim-") {
			for i := len(c.cases) - 4; i < len(c.cases); i++ {
				c.cases[i].peak = claimPeak
			}
		}
	}
	refused("fifo-in-folder/matching", []string{"matching", "eval", folder}, "a named pipe (FIFO), not a file")
	refused("fifo-in-folder/lab", lab(o("o.csv"), folder), "a named pipe (FIFO), not a file")

	// Outputs that are inputs: a symbolic link, a hard link, a link onto
	// a glTF file's buffer.
	mustSymlink(t, walk, o("sym.csv"))
	if err := os.Link(walk, o("hard.csv")); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, bin, o("bin.csv"))
	c.cases = append(c.cases,
		hostileCase{name: "out-symlink-to-input/export", args: []string{"export", walk, "--out", o("sym.csv")}, code: 1, says: "is a file this run reads"},
		hostileCase{name: "out-hardlink-to-input/export", args: []string{"export", walk, "--out", o("hard.csv")}, code: 1, says: "is a file this run reads"},
		hostileCase{name: "out-link-to-buffer/export", args: []string{"export", gltfFile, "--out", o("bin.csv")}, code: 1, says: "is a file this run reads"},
		hostileCase{name: "out-link-to-buffer/lab", args: lab(o("bin.csv"), gltfFile), code: 1, says: "is a file this run reads"},
		hostileCase{name: "out-symlink-to-input/lab", args: lab(o("sym.csv"), walk), code: 2, says: "it would be overwritten"},
	)

	// Read-only outputs, kept as they were.
	ro := func(name string) string {
		p := o(name)
		writeOutput(t, p, before)
		if err := os.Chmod(p, 0o444); err != nil {
			t.Fatal(err)
		}
		return p
	}
	roGolden := filepath.Join(out, "golden")
	if err := os.Mkdir(roGolden, 0o755); err != nil {
		t.Fatal(err)
	}
	writeOutput(t, filepath.Join(roGolden, "additive.json"), before)
	if err := os.Chmod(filepath.Join(roGolden, "additive.json"), 0o444); err != nil {
		t.Fatal(err)
	}
	c.cases = append(c.cases,
		hostileCase{name: "read-only/export", args: []string{"export", walk, "--out", ro("ro.csv")}, code: 1, says: "read-only; not replaced"},
		hostileCase{name: "read-only/export-npz", args: []string{"export", walk, "--out", ro("ro.npz")}, code: 1, says: "read-only; not replaced"},
		hostileCase{name: "read-only/bvh-export", args: []string{"bvh", "export", ro("ro.bvh"), "--clip", "walk"}, code: 1, says: "read-only; not replaced"},
		hostileCase{name: "read-only/lab", args: lab(ro("ro2.csv"), walk), code: 1, says: "read-only; not replaced"},
		hostileCase{name: "read-only/golden", args: []string{"golden", roGolden}, code: 1, says: "read-only; not replaced"},
		// One read-only output among several: none is replaced (the
		// others, there before, are checked unchanged).
		hostileCase{name: "read-only/bvh-export-all", args: []string{"bvh", "export", o("all.bvh")}, code: 1, says: "all-run.bvh: read-only; not replaced",
			outputs: map[string][]byte{o("all-idle.bvh"): before, o("all-walk.bvh"): before, ro("all-run.bvh"): before}},
	)

	// A failed load writes no --csv (the default character's rows would
	// pass for the file's).
	refused("missing-input/lab", lab(o("o.csv"), j("missing.bvh")), "no such file")
	refused("missing-input/export", []string{"export", walk, j("missing.bvh"), "--out", out}, "no such file")

	// Files that load, or are refused cleanly (values of 3e38, whose
	// velocities overflow, are refused by name); no NaN or Inf with exit 0.
	// A required extension kinelab cannot read is refused by name.
	c.cases = append(c.cases,
		hostileCase{name: "required-extension/info", args: []string{"info", reqExt}, code: 1, says: "KHR_draco_mesh_compression"},
		hostileCase{name: "required-extension/export", args: []string{"export", reqExt, "--out", out}, code: 1, says: "KHR_draco_mesh_compression"},
		hostileCase{name: "big-values/export", args: []string{"export", j("big.bvh"), "--out", o("big.csv")}, code: 1, says: "big.bvh"},
		hostileCase{name: "big-values/verify", args: []string{"verify", "--file", j("big.bvh")}, code: 1, says: "big.bvh"},
		hostileCase{name: "wide/info", args: []string{"info", j("wide.bvh")}, code: 0},
		hostileCase{name: "wide/export", args: []string{"export", j("wide.bvh"), "--out", o("wide.csv")}, code: 0},
		// Checked on 6 of its 29 intervals (verify.MaxJointIntervals): on
		// every one it ran past 90 s.
		hostileCase{name: "deep/verify", args: []string{"verify", "--file", j("deep.bvh")}, code: 0, says: "10002 joints: at most 6 frame intervals a clip checked"},
		hostileCase{name: "extensionless/info", args: []string{"info", j("capture")}, code: 0},
		hostileCase{name: "extensionless/export", args: []string{"export", j("capture"), "--out", o("capture.csv")}, code: 0},
		hostileCase{name: "extensionless/verify", args: []string{"verify", "--file", j("capture")}, code: 0},
		hostileCase{name: "extensionless/lab", args: lab(o("capture.csv"), j("capture")), code: 0},
		hostileCase{name: "extensionless/matching", args: []string{"matching", "eval", j("capture")}, code: 0},
	)
	return c
}

// externalGLTF writes the default glTF character with one animation to
// dir/name.gltf, its buffer in dir/name.bin, and returns both paths.
func externalGLTF(t *testing.T, dir, name string) (gltfPath, binPath string) {
	t.Helper()
	gltfPath, binPath = filepath.Join(dir, name+".gltf"), filepath.Join(dir, name+".bin")
	sk, mesh, clips := gltftest.DefaultCharacter()
	if err := gltftest.Write(gltfPath, &sk, mesh, clips[:1], gltftest.Options{}); err != nil {
		t.Fatal(err)
	}
	editGLTF(t, gltfPath, gltfPath, func(doc map[string]any) {
		buf := doc["buffers"].([]any)[0].(map[string]any)
		uri := buf["uri"].(string)
		data, err := base64.StdEncoding.DecodeString(uri[strings.Index(uri, ",")+1:])
		if err != nil {
			t.Fatal(err)
		}
		writeInput(t, binPath, data)
		buf["uri"] = name + ".bin"
	})
	return gltfPath, binPath
}

// editGLTF writes to dst the glTF JSON file src as edit changes it.
func editGLTF(t *testing.T, src, dst string, edit func(map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	writeInput(t, dst, b)
	return dst
}

// wideBVH is a BVH file of n joints (a root with chains of 100 below it)
// and frames frames of small rotations.
func wideBVH(n, frames int) []byte {
	var b strings.Builder
	b.WriteString("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n")
	channels, joints := 6, 1
	for joints < n {
		depth := 0
		for ; depth < 100 && joints < n; depth++ {
			fmt.Fprintf(&b, "JOINT J%d\n{\n OFFSET 0 1 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n", joints)
			joints++
			channels += 3
		}
		b.WriteString("End Site\n{\n OFFSET 0 1 0\n}\n")
		b.WriteString(strings.Repeat("}\n", depth))
	}
	b.WriteString("}\n")
	fmt.Fprintf(&b, "MOTION\nFrames: %d\nFrame Time: 0.0333333\n", frames)
	for f := 0; f < frames; f++ {
		for k := 0; k < channels; k++ {
			fmt.Fprintf(&b, "%g ", float64((f+k)%7)*0.1)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// deepBVH is a BVH file of one chain of n joints (n levels), over frames
// frames of small rotations.
func deepBVH(n, frames int) []byte {
	var b strings.Builder
	b.WriteString("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n")
	for j := 1; j < n; j++ {
		fmt.Fprintf(&b, "JOINT J%d\n{\n OFFSET 0 1 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n", j)
	}
	b.WriteString("End Site\n{\n OFFSET 0 1 0\n}\n")
	b.WriteString(strings.Repeat("}\n", n))
	fmt.Fprintf(&b, "MOTION\nFrames: %d\nFrame Time: 0.0333333\n", frames)
	for f := 0; f < frames; f++ {
		b.WriteString("0 0 0 0 0 0")
		for k := 1; k < n; k++ {
			fmt.Fprintf(&b, " %g 0 0", float64((f+k)%7)*0.01)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// bigValues is a BVH file whose root position on its middle frame is
// 3e38 (a float32 still, whose differences are not).
func bigValues(bvh []byte) []byte {
	lines := strings.Split(string(bvh), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "Frame Time:") {
			k := i + 1 + (len(lines)-i-1)/2
			f := strings.Fields(lines[k])
			f[0], f[1] = "3e38", "-3e38"
			lines[k] = strings.Join(f, " ")
			break
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

func writeInput(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeOutput(t *testing.T, path string, b []byte) {
	t.Helper()
	if st, err := os.Stat(path); err == nil && st.Mode().Perm()&0o200 == 0 {
		return // a read-only output in place
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mustFIFO(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("SKIPPED the hostile-input corpus: no FIFO here: %v", err)
	}
}

// hashTree hashes every regular file under root (not through links, not
// FIFOs or devices), by path; a file over 64 MB (the sparse ones) by its
// size and modification time.
func hashTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if st, err := d.Info(); err == nil && st.Size() > 64<<20 {
			out[p] = fmt.Sprint(st.Size(), st.ModTime())
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// cleanOut removes what a run made in out: new files (not the links and
// read-only outputs the corpus put there).
func cleanOut(t *testing.T, out string) {
	t.Helper()
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		p := filepath.Join(out, e.Name())
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink != 0 || st.IsDir() || st.Mode().Perm()&0o200 == 0 {
			continue
		}
		if s, ok := st.Sys().(*syscall.Stat_t); ok && s.Nlink > 1 {
			continue // the hard link onto an input
		}
		os.Remove(p)
	}
}

// checkFinite fails t if b (an output) holds a NaN or an Inf.
func checkFinite(t *testing.T, name string, b []byte) {
	t.Helper()
	for _, bad := range []string{"NaN", "Inf", "nan", "inf"} {
		if i := bytes.Index(b, []byte(bad)); i >= 0 && !isWordIn(b, i, len(bad)) {
			t.Errorf("%s holds %s at byte %d", name, bad, i)
		}
	}
}

// isWordIn reports whether the match at b[i:i+n] is inside a longer word
// ("info", "Infinity" aside: a CSV value is a number).
func isWordIn(b []byte, i, n int) bool {
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
	return i > 0 && letter(b[i-1]) || i+n < len(b) && letter(b[i+n])
}
