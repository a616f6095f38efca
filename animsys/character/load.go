package character

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/humanoid"

	"kinelab/animsys/words"
)

// File is a BVH file read as kinelab reads every file: parsed, with its
// units, up axis and leading rest frames detected or chosen
// (bvh.ImportFor).
type File struct {
	BVH    *bvh.File
	Import bvh.Import
	Units  bvh.Units
	// Notes say what was detected and chosen, and why: units, up axis,
	// then the rest frames.
	Notes []string
	// Figure reads the file's skeleton as a human (indices into
	// BVH.Joints), nil when it does not read as one (bvh.Detect). A
	// character made of the file keeps it, on its joints (figureOn).
	Figure *humanoid.Figure
	// NotHuman is bvh.Detect's reading of a skeleton that is no human
	// (laid out by its trunk, and why it is none), when the file stands
	// as Detect read it (up +Y): a character made of the file keeps it
	// too, so that it gives the reason bvh info gives. Nil otherwise (a
	// human, or another up axis chosen: the character reads its own).
	NotHuman *humanoid.Figure
}

// Open reads the BVH file at path with opt. Errors are the parser's
// ("file:line:col: ...") or name the option that does not parse.
func Open(path string, opt bvh.ReadOptions) (*File, error) {
	return OpenContext(context.Background(), path, opt)
}

// OpenContext is Open stopping once ctx is done (an interrupted command),
// with ctx's error wrapped: parsing and detection check it every few
// milliseconds (bvh.ParseContext, bvh.DetectContext).
func OpenContext(ctx context.Context, path string, opt bvh.ReadOptions) (*File, error) {
	f, err := bvh.ReadFileContext(ctx, path)
	if err != nil {
		return nil, err
	}
	return readContext(ctx, f, opt)
}

// Read reads a parsed file with opt (see Open). A file whose clip has
// fewer than two frames, once its rest frames are dropped, is refused: no
// velocity, no lab, no export can be made of one pose.
func Read(f *bvh.File, opt bvh.ReadOptions) (*File, error) {
	return readContext(context.Background(), f, opt)
}

func readContext(ctx context.Context, f *bvh.File, opt bvh.ReadOptions) (*File, error) {
	if err := TooFewFrames(f, 0); err != nil {
		return nil, err
	}
	d, err := bvh.DetectContext(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	imp, units, notes, err := bvh.ImportFor(f, d, opt)
	if err != nil {
		return nil, err
	}
	if err := TooFewFrames(f, imp.Skip); err != nil {
		return nil, err
	}
	file := &File{BVH: f, Import: imp, Units: units, Notes: notes}
	if d.FigureErr == nil {
		file.Figure = &d.Figure
	} else if imp.Up == bvh.UpY {
		file.NotHuman = &d.Figure // standing as Detect read it
	}
	return file, nil
}

// TooFewFrames is the error Read gives for f if its clip keeps fewer than
// two frames once skip leading rest frames are dropped, or nil.
func TooFewFrames(f *bvh.File, skip int) error {
	switch left := f.Frames - skip; {
	case left >= 2:
		return nil
	case skip == 0:
		return fmt.Errorf("%s:%d: Frames: %d: a clip needs at least 2 frames", f.Name, f.FramesLine, f.Frames)
	default:
		return fmt.Errorf("%s:%d: Frames: %d: a clip needs at least 2 frames, and %d is left after dropping %s (keep them with --keep-rest)",
			f.Name, f.FramesLine, f.Frames, left, words.Count(skip, "rest frame"))
	}
}

// Load reads BVH files into one character: the skeleton most of them
// share and the clip of each file of it, in metres with +Y up, each file
// read as Open reads it.
//
// Files are grouped by skeleton: a file whose skeleton the first file of
// an earlier group does not take (below) starts a group, and a group
// holds every file its first file's skeleton takes. The largest group
// loads (on a tie, the one whose first file comes first), its first file
// first: that file's skeleton is the character's (ch.Name is its name,
// clip Start its clip), the other files' clips follow in the given order,
// and ch.Files lists the files in the clips' order. Units and up axis are
// the options' or detected from that file, and apply to every file; each
// file's leading rest frames are dropped unless opt.KeepRest. What was
// detected, and why, is in ch.Notes. Files of one skeleton make one
// group: they load as they always did, the first file's skeleton the
// character's.
//
// A skeleton takes another file's if the two differ only below the hands
// and feet (fingers, toes: its figure says which joints those are): the
// files load together on the joints they share, each clip keeping its own
// motion of them; ch.Notes names the joints each file lost. The files
// left out, whose skeleton differs elsewhere, are in ch.Skipped, one
// error each in order ("file: skipped: its skeleton differs from the 49
// files loaded (first's: the first joint that differs); load it on its
// own"): they are a choice Load made, not a failure. Files that fail to
// read are reported in err, which joins (errors.Join) one error for each,
// in order ("file:line:col: ..." or "file: ..."; FileErrors lists them),
// each wrapping its cause (*bvh.ParseError, fs.ErrNotExist...); ch is nil
// only if none was read.
//
// A glTF file (.gltf, .glb) is a character of its own (LoadGLTF), with
// every animation in it: it loads only if no BVH file was read before it,
// and the files after it are reported in err as not loaded. opt applies to
// BVH files only (glTF is metres and +Y up).
//
// The same file met twice (named twice, through a link, or a file and
// its folder) loads once, and ch.Repeated says so ("walk.bvh given
// twice; loaded once"). Each file is parsed, detected and its skeleton
// read as a figure once, and its clip prepared once
// (animsys.Clip.Prepare).
func Load(paths []string, opt bvh.ReadOptions) (ch *Character, err error) {
	return LoadContext(context.Background(), paths, opt)
}

// LoadContext is Load stopping once ctx is done (an interrupted command):
// it checks ctx between files and, through OpenContext, while parsing and
// detecting each. It then returns a nil character and an error wrapping
// ctx's.
func LoadContext(ctx context.Context, paths []string, opt bvh.ReadOptions) (ch *Character, err error) {
	return LoadProgress(ctx, paths, opt, nil)
}

// LoadProgress is LoadContext telling progress, when not nil, before each
// file is read (done files of total read so far, the next one's path)
// and once all are (done == total, path ""): a folder of captures takes
// seconds, and the app shows how far it is.
func LoadProgress(ctx context.Context, paths []string, opt bvh.ReadOptions, progress func(done, total int, path string)) (ch *Character, err error) {
	if err := checkOptions(opt); err != nil { // so for every file
		return nil, errors.Join(err)
	}
	paths, err = Expand(paths)
	errs := FileErrors(err)
	paths, twice := Unique(paths)
	var files []*File // the BVH files read, in order
	var read []string // their paths
	gltfName := ""    // the glTF file ch was read from
	for i, path := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if progress != nil {
			progress(i, len(paths), path)
		}
		if gltfName != "" || IsGLTF(path) {
			switch {
			case gltfName != "":
				errs = append(errs, fmt.Errorf("%s: not loaded: the character is %s, a glTF file, which loads on its own", path, filepath.Base(gltfName)))
			case len(files) > 0:
				errs = append(errs, fmt.Errorf("%s: not loaded: a glTF character loads on its own, not with BVH files", path))
			default:
				g, err := LoadGLTF(path)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				ch, gltfName = g, path
			}
			continue
		}
		file, err := OpenContext(ctx, path, opt)
		if ctx.Err() != nil {
			return nil, err // wraps ctx's error
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files, read = append(files, file), append(read, path)
	}
	if progress != nil {
		progress(len(paths), len(paths), "")
	}
	if len(files) > 0 {
		ch = loadGroup(files, read)
	}
	if ch != nil {
		ch.Repeated = twice
	}
	return ch, errors.Join(errs...)
}

// Unique leaves out of paths each that names a file met before in them:
// the same path twice, or the same file through another name (a link, a
// file and the folder that holds it, expanded). It returns the others in
// order, and a note for each file met more than once ("walk.bvh given
// twice; loaded once", with the other name when it differs). A path that
// names no file stays, for its reader to report.
func Unique(paths []string) (kept, notes []string) {
	type seen struct {
		st      os.FileInfo
		path    string
		times   int
		aliases []string
	}
	var files []*seen
	bySize := map[int64][]*seen{} // so that only files of one size are compared
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			kept = append(kept, p)
			continue
		}
		var first *seen
		for _, s := range bySize[st.Size()] {
			if os.SameFile(s.st, st) {
				first = s
				break
			}
		}
		if first == nil {
			s := &seen{st: st, path: p, times: 1}
			files, bySize[st.Size()] = append(files, s), append(bySize[st.Size()], s)
			kept = append(kept, p)
			continue
		}
		first.times++
		if b := filepath.Base(p); b != filepath.Base(first.path) && !slices.Contains(first.aliases, b) {
			first.aliases = append(first.aliases, b)
		}
	}
	for _, s := range files {
		if s.times < 2 {
			continue
		}
		times := "twice"
		if s.times > 2 {
			times = fmt.Sprintf("%d times", s.times)
		}
		also := ""
		if len(s.aliases) > 0 {
			also = " (also as " + strings.Join(s.aliases, ", ") + ")"
		}
		notes = append(notes, fmt.Sprintf("%s given %s%s; loaded once", filepath.Base(s.path), times, also))
	}
	return kept, notes
}

// loadGroup makes the character of the largest group of files, read from
// paths (Load): its first file's skeleton, the clips of the files that
// skeleton takes, the others skipped. Every file is matched first, so
// that the character is made once, of the joints every file of the group
// has.
func loadGroup(files []*File, paths []string) *Character {
	first, size := largestGroup(files)
	base, basePath := files[first], paths[first]
	keep := make([]bool, len(base.BVH.Joints)) // the first file's joints the character has
	for j := range keep {
		keep[j] = true
	}
	type member struct {
		file *File
		path string
		at   []int // the file's joint of each of the first file's
	}
	var members []member
	var notes []string
	var skipped []error
	loaded := fmt.Sprintf("the %d files loaded", size)
	if size == 1 {
		loaded = "the file loaded"
	}
	for i, file := range files {
		if i == first {
			continue
		}
		path := paths[i]
		m, err := matchJoints(base, keep, file.BVH)
		if err != nil {
			skipped = append(skipped, fmt.Errorf("%s: skipped: its skeleton differs from %s (%s's: %w); load it on its own", path, loaded, base.BVH.Name, err))
			continue
		}
		cut := slices.Contains(keep, false) // by a file before this one
		if lost := m.lost(keep); len(lost) > 0 {
			notes = append(notes, dropNote(base.BVH, handsFeet(base.Figure, nil), lost, filepath.Base(path)))
			for _, j := range lost {
				keep[j] = false
			}
		}
		if len(m.extra) > 0 {
			other := filepath.Base(base.BVH.Name)
			if cut {
				other = "every file before it"
			}
			notes = append(notes, dropNote(file.BVH, handsFeet(base.Figure, m.at), m.extra, other))
		}
		notes = append(notes, restNotes(path, file.Notes)...)
		members = append(members, member{file, path, m.at})
	}
	ch := fromFile(base, keep)
	ch.Notes = append(base.Notes[:2:2], ch.Notes...)
	// The first file's own notes as they are: they are the character's
	// (named after it), and every message about them names the character
	// ("01_cmu: 01_cmu: dropped frame 0" said it twice).
	ch.Notes = append(ch.Notes, base.Notes[2:]...)
	ch.Notes = append(ch.Notes, notes...)
	used := []string{basePath}
	for _, mb := range members {
		mb.file.Import.Scale, mb.file.Import.Up = base.Import.Scale, base.Import.Up
		ch.Clips = append(ch.Clips, ch.clipFrom(mb.file, mb.at, keep, clipName(mb.path)))
		used = append(used, mb.path)
	}
	ch.Files, ch.Skipped = used, skipped
	ch.fitPaths()
	return ch
}

// largestGroup groups files by skeleton (Load) and returns the first file
// of the largest group, and how many files that group holds. Of groups of
// as many files, the one with the most frames (once rest frames are
// dropped) wins, then the earliest: the earliest alone made a 0.6 s clip
// the whole database beside a group as large of longer captures.
func largestGroup(files []*File) (first, size int) {
	var firsts []int // each group's first file
	takes := func(g, k int) bool {
		if g == k {
			return true
		}
		ends, chain := endChains(files[g])
		_, _, err := matchCore(files[g].BVH, files[k].BVH, ends, chain)
		return err == nil
	}
	for k := range files {
		if !slices.ContainsFunc(firsts, func(g int) bool { return takes(g, k) }) {
			firsts = append(firsts, k)
		}
	}
	if len(firsts) == 1 { // one skeleton: the common case
		return 0, len(files)
	}
	first, size = -1, 0
	most := 0 // the frames of the group chosen
	for _, g := range firsts {
		n, frames := 0, 0
		for k := range files {
			if takes(g, k) {
				n++
				frames += files[k].BVH.Frames - files[k].Import.Skip
			}
		}
		if n > size || n == size && frames > most {
			first, size, most = g, n, frames
		}
	}
	return first, size
}

// FileErrors lists the errors that err, as Load or Expand returns it,
// joins: one for each file or folder that failed, in order; nil for nil.
func FileErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err != nil {
		return []error{err}
	}
	return nil
}

// Expand replaces each folder among paths by the BVH files in it (by
// name, not recursing), so a folder of captures loads as one character.
// A folder with no BVH file, or one that cannot be read, is an error:
// the error returned joins one for each (FileErrors).
func Expand(paths []string) ([]string, error) {
	var files []string
	var errs []error
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			files = append(files, p) // Open reports what is wrong with it
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n := len(files)
		for _, e := range entries {
			if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".bvh") {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
		if len(files) == n {
			errs = append(errs, fmt.Errorf("%s: a folder with no .bvh file", p))
		}
	}
	return files, errors.Join(errs...)
}

// checkOptions reports a choice of units or up axis that does not parse,
// named by its flag, as bvh.ImportFor would for each file.
func checkOptions(opt bvh.ReadOptions) error {
	if opt.Units != "" && opt.Units != "auto" {
		if _, err := bvh.ParseUnits(opt.Units); err != nil {
			return fmt.Errorf("--units: %w", err)
		}
	}
	if opt.Up != "" && opt.Up != "auto" {
		if _, err := bvh.ParseUp(opt.Up); err != nil {
			return fmt.Errorf("--up: %w", err)
		}
	}
	return nil
}

// restNotes are ImportFor's notes on a file's rest frames, named by the
// file's clip.
func restNotes(path string, notes []string) []string {
	var out []string
	for _, n := range notes[2:] {
		out = append(out, clipName(path)+": "+n)
	}
	return out
}

func clipName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// match is how another file's joints meet the first file's: at[j] is the
// other file's joint for the first file's joint j (-1 when it has none,
// or j is no longer the character's), extra the other file's joints the
// first's lack (below its hands and feet).
type match struct {
	at    []int
	extra []int
}

// lost lists the first file's joints the character has (keep) that the
// other file lacks.
func (m match) lost(keep []bool) []int {
	var out []int
	for j, k := range keep {
		if k && m.at[j] < 0 {
			out = append(out, j)
		}
	}
	return out
}

// matchJoints matches file b's joints to the first file's joints the
// character keeps. Outside the end chains (the joints below the first
// file's hands and feet, as its figure reads them) the two must be the
// same joints in the same order, with the same names and parents; within
// them, joints match by name (End Sites with End Sites) under matching
// parents, and the rest are dropped. Without a figure to say which joints
// those are, the whole skeletons must be the same. The error names the
// first joint of b that differs.
func matchJoints(base *File, keep []bool, b *bvh.File) (match, error) {
	a := base.BVH
	m := match{at: make([]int, len(a.Joints))}
	for j := range m.at {
		m.at[j] = -1
	}
	ends, chain := endChains(base)
	back, bChain, err := matchCore(a, b, ends, chain)
	if err != nil {
		return m, err
	}
	m.extra = matchEndChains(a, b, keep, chain, back, bChain)
	for k, j := range back {
		if j >= 0 && keep[j] {
			m.at[j] = k
		}
	}
	return m, nil
}

// endChains marks the first file's hands and feet (ends[j]) and the
// joints below them (chain[j]), as its figure reads them.
func endChains(base *File) (ends, chain []bool) {
	a := base.BVH
	ends, chain = make([]bool, len(a.Joints)), make([]bool, len(a.Joints))
	e := handsFeet(base.Figure, nil)
	for _, j := range append(e.hands[:], e.feet[:]...) {
		if j >= 0 {
			ends[j] = true
		}
	}
	for j, jt := range a.Joints {
		chain[j] = jt.Parent >= 0 && (ends[jt.Parent] || chain[jt.Parent])
	}
	return ends, chain
}

// matchCore matches b's joints outside the end chains to a's, which must
// be the same joints in the same order with the same names and parents.
// back[k] is a's joint for b's joint k (-1 for none yet); bChain[k] says
// b's joint k lies below a matched hand or foot, to be matched by name.
func matchCore(a, b *bvh.File, ends, chain []bool) (back []int, bChain []bool, err error) {
	back = make([]int, len(b.Joints)) // b's joint -> a's, -1 for none
	bChain = make([]bool, len(b.Joints))
	i := 0 // the next core joint of a
	for k, jb := range b.Joints {
		back[k] = -1
		if jb.Parent >= 0 && (bChain[jb.Parent] || (back[jb.Parent] >= 0 && ends[back[jb.Parent]])) {
			bChain[k] = true
			continue
		}
		for i < len(a.Joints) && chain[i] {
			i++
		}
		if i == len(a.Joints) {
			return nil, nil, fmt.Errorf("joint %d, %q, is past the last of %s", k+1, jb.Name, words.Count(len(a.Joints), "joint"))
		}
		ja := &a.Joints[i]
		if ja.Name != jb.Name {
			return nil, nil, fmt.Errorf("joint %d is %q, not %q", k+1, jb.Name, ja.Name)
		}
		if pb := parentIn(back, jb.Parent); pb != ja.Parent {
			return nil, nil, fmt.Errorf("joint %d (%s) hangs from %s, not %s", k+1, jb.Name, jointName(b, jb.Parent), jointName(a, ja.Parent))
		}
		back[k] = i
		i++
	}
	for ; i < len(a.Joints); i++ {
		if !chain[i] {
			return nil, nil, fmt.Errorf("it has %s, and no %q", words.Count(len(b.Joints), "joint"), a.Joints[i].Name)
		}
	}
	return back, bChain, nil
}

// matchEndChains matches b's end-chain joints (bChain) by name to a's
// kept end-chain joints under the matched parent (End Sites with End
// Sites), each of a's at most once, setting back; it returns b's joints
// that match none.
func matchEndChains(a, b *bvh.File, keep, chain []bool, back []int, bChain []bool) (extra []int) {
	// a's kept end-chain joints by parent, name and kind, each list in
	// joint order (the first unused one matches): a lookup per joint of
	// b, so matching stays linear in the joints.
	type key struct {
		parent int
		name   string
		end    bool
	}
	free := map[key][]int{}
	for j := range a.Joints {
		if chain[j] && keep[j] {
			k := key{a.Joints[j].Parent, a.Joints[j].Name, a.Joints[j].EndSite}
			free[k] = append(free[k], j)
		}
	}
	for k, jb := range b.Joints {
		if !bChain[k] {
			continue
		}
		if p := back[jb.Parent]; p >= 0 {
			kk := key{p, jb.Name, jb.EndSite}
			if js := free[kk]; len(js) > 0 {
				back[k], free[kk] = js[0], js[1:]
			}
		}
		if back[k] < 0 {
			extra = append(extra, k)
		}
	}
	return extra
}

// parentIn is the joint of a matched to b's joint p (-1 for a root, -2
// for a joint of b that matched none).
func parentIn(back []int, p int) int {
	if p < 0 {
		return -1
	}
	if back[p] < 0 {
		return -2
	}
	return back[p]
}

func jointName(f *bvh.File, j int) string {
	if j < 0 {
		return "nothing (a root)"
	}
	return f.Joints[j].Name
}

// dropNote says that the joints js of file f were dropped, not being in
// other: "02_x: 2 finger joints not in 01_y.bvh dropped: LeftFingerIndex1,
// LeftFingerIndex1_End" ("3 finger and 2 toe joints"...). A finger lies
// below one of the ends' hands, a toe below a foot.
func dropNote(f *bvh.File, ends limbEnds, js []int, other string) string {
	var fingers, toes, rest int
	for _, j := range js {
		switch ends.below(f, j) {
		case "finger":
			fingers++
		case "toe":
			toes++
		default:
			rest++
		}
	}
	var kinds []string
	for _, k := range []struct {
		n    int
		name string
	}{{fingers, "finger"}, {toes, "toe"}, {rest, "other"}} {
		if k.n > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %s", k.n, k.name))
		}
	}
	names := make([]string, 0, len(js))
	for _, j := range js {
		names = append(names, f.Joints[j].Name)
	}
	const shown = 8
	if len(names) > shown {
		names = append(names[:shown], fmt.Sprintf("and %d more", len(js)-shown))
	}
	return fmt.Sprintf("%s: %s joints not in %s dropped: %s", clipName(f.Name), strings.Join(kinds, " and "), other, strings.Join(names, ", "))
}

// limbEnds are a file's hands and feet (joint indices, -1 for none).
type limbEnds struct{ hands, feet [2]int }

// handsFeet are the hands and feet of fig, in its file, or through at
// (at[j]: another file's joint for fig's joint j) in another.
func handsFeet(fig *humanoid.Figure, at []int) limbEnds {
	e := limbEnds{hands: [2]int{-1, -1}, feet: [2]int{-1, -1}}
	if fig == nil {
		return e
	}
	in := func(j int) int {
		if j < 0 || at == nil {
			return j
		}
		return at[j]
	}
	for s := range 2 {
		e.hands[s], e.feet[s] = in(fig.Arms[s].End), in(fig.Legs[s].End)
	}
	return e
}

// below says whether joint j of f lies below a hand ("finger") or a foot
// ("toe"), "" when neither.
func (e limbEnds) below(f *bvh.File, j int) string {
	for p := f.Joints[j].Parent; p >= 0; p = f.Joints[p].Parent {
		if slices.Contains(e.hands[:], p) {
			return "finger"
		}
		if slices.Contains(e.feet[:], p) {
			return "toe"
		}
	}
	return ""
}

// fromFile makes a character of the joints keep of a file's skeleton (a
// joint kept with its parent), with a ground-level root joint ("Entity")
// added above the file's root that carries the hips' ground projection as
// root motion, unless the file's root already is such a joint. Its figure
// is the file's (bvh.Detect's reading of a human), on the character's
// joints (figureOn); its clip is prepared once.
func fromFile(file *File, keep []bool) *Character {
	f, imp := file.BVH, file.Import
	name := clipName(f.Name)
	at := make([]int, 0, len(keep))
	for j, k := range keep {
		if k {
			at = append(at, j)
		}
	}
	fs, fc := f.SkeletonWith(imp), f.ClipUnprepared(imp, name)
	fs, fc = gather(&fs, &fc, at)
	ch := &Character{Name: name}
	hips := 0
	if file.Figure != nil {
		hips = max(slices.Index(at, file.Figure.Hips), 0) // the trunk is never cut
	}
	shift := 0
	if rootFollows(&fs, &fc, hips) {
		// The file's root already is a ground-level root under the hips
		// (as kinelab's own exports): use the skeleton and clip as they are.
		fc.Prepare()
		ch.Skel, ch.Clips, ch.root = fs, []animsys.Clip{fc}, -1
	} else {
		n := fs.Len() + 1
		sk := animsys.Skeleton{Names: make([]string, n), Parents: make([]int, n), Offsets: make([]mgl32.Vec3, n)}
		sk.Names[0], sk.Parents[0] = "Entity", -1
		for j := 0; j < fs.Len(); j++ {
			sk.Names[j+1], sk.Offsets[j+1] = fs.Names[j], fs.Offsets[j]
			sk.Parents[j+1] = fs.Parents[j] + 1 // a file root (-1) hangs from the Entity (0)
		}
		ch.Skel, ch.root, shift = sk, hips, 1
		ch.Clips = []animsys.Clip{rootedClip(&fs, &fc, hips)}
	}
	var fig humanoid.Figure
	switch {
	case file.Figure != nil:
		fig = figureOn(file.Figure, at, shift, &ch.Skel)
	case file.NotHuman != nil:
		// Detect's reading, its reason the one bvh info gives: read again
		// on other frames, the figure could read otherwise (bvh info said
		// "4 limbs reach the ground" of a capture the app said 3 of).
		fig = figureOn(file.NotHuman, at, shift, &ch.Skel)
	default:
		// A skeleton that is no human, standing on an up axis the
		// options chose, is laid out by its trunk as the character
		// stands: read here.
		fig = ch.read()
	}
	ch.Figure = &fig
	if !fig.Human {
		ch.Notes = append(ch.Notes, ch.NotHuman())
	}
	ch.roles()
	ch.bind()
	ch.Additive = nodAdditive(ch)
	ch.standing()
	return ch
}

// figureOn is fig, a file's figure, on a character made of its joints at
// (in that order) from joint shift on, joint 0 an added Entity (shift 1)
// on skeleton sk. The joints a character leaves out lie below the hands
// and feet (fingers, toes): its trunk and limbs are the file's, and a
// limb's path and tip lose only the joints left out. The Entity, a root
// on the floor carrying the root motion, is ground (humanoid.Figure); the
// file's joints are ground as the file's reading found them.
func figureOn(fig *humanoid.Figure, at []int, shift int, sk *animsys.Skeleton) humanoid.Figure {
	to := make([]int, len(fig.Parents)) // the character's joint of each file joint, -1 for none
	for j := range to {
		to[j] = -1
	}
	for i, j := range at {
		to[j] = i + shift
	}
	one := func(j int) int {
		if j < 0 {
			return j
		}
		return to[j]
	}
	list := func(js []int) []int {
		out := make([]int, 0, len(js))
		for _, j := range js {
			if k := one(j); k >= 0 {
				out = append(out, k)
			}
		}
		return out
	}
	limb := func(l humanoid.Limb) humanoid.Limb {
		return humanoid.Limb{Path: list(l.Path), Upper: one(l.Upper), Mid: one(l.Mid), End: one(l.End), Tip: one(l.Tip)}
	}
	out := *fig
	out.Parents, out.Names = sk.Parents, sk.Names
	out.Hips, out.Chest, out.Head, out.Spine = one(fig.Hips), one(fig.Chest), one(fig.Head), list(fig.Spine)
	for s := range out.Legs {
		out.Legs[s], out.Arms[s] = limb(fig.Legs[s]), limb(fig.Arms[s])
	}
	out.Ground = make([]bool, sk.Len())
	out.Ground[0] = shift > 0
	for i, j := range at {
		out.Ground[i+shift] = j < len(fig.Ground) && fig.Ground[j]
	}
	return out
}

// clipFrom reads another file as a clip of the character: at[j] is the
// file's joint for the first file's joint j, which the character has when
// keep[j]. The clip is prepared once, as the character plays it.
func (ch *Character) clipFrom(file *File, at []int, keep []bool, name string) animsys.Clip {
	var js []int
	for j, k := range keep {
		if k {
			js = append(js, at[j])
		}
	}
	fs, fc := file.BVH.SkeletonWith(file.Import), file.BVH.ClipUnprepared(file.Import, name)
	fs, fc = gather(&fs, &fc, js)
	if ch.root < 0 {
		fc.Prepare()
		return fc
	}
	return rootedClip(&fs, &fc, ch.root)
}

// gather is the skeleton sk and its clip c cut to the joints js (each
// after its parent, which it keeps; a joint whose parent is not kept
// becomes a root), in that order; js of every joint in order returns them
// as they are. The clip cut is not prepared: the caller prepares what it
// samples.
func gather(sk *animsys.Skeleton, c *animsys.Clip, js []int) (animsys.Skeleton, animsys.Clip) {
	if len(js) == sk.Len() && slices.IsSorted(js) {
		return *sk, *c
	}
	index := make([]int, sk.Len())
	for i := range index {
		index[i] = -1
	}
	out := animsys.Skeleton{Names: make([]string, len(js)), Parents: make([]int, len(js)), Offsets: make([]mgl32.Vec3, len(js))}
	for i, j := range js {
		index[j] = i
		out.Names[i], out.Offsets[i], out.Parents[i] = sk.Names[j], sk.Offsets[j], -1
		if p := sk.Parents[j]; p >= 0 {
			out.Parents[i] = index[p]
		}
	}
	cut := animsys.NewClip(c.Name, c.Frames, len(js), c.FrameTime)
	cut.LoopStart, cut.LoopEnd = c.LoopStart, c.LoopEnd
	for i, j := range js {
		cut.CopyJoint(i, c, j)
	}
	return out, cut
}

// rootFollows reports whether the skeleton's root is a ground-level joint
// with a single child that stays under the hips: on every sampled frame
// below 15% of the figure's height and within 10% of it of the hips'
// ground projection.
func rootFollows(sk *animsys.Skeleton, c *animsys.Clip, hips int) bool {
	if hips == 0 || c.Frames == 0 {
		return false
	}
	pos, _ := humanoid.ClipFrames(sk, c, rootFrames)
	return rootFollowsIn(sk.Parents, pos, hips)
}

// rootFrames is how many frames rootFollows samples.
const rootFrames = 24

// rootFollowsIn is rootFollows on frames pos (global positions).
func rootFollowsIn(parents []int, pos [][]mgl32.Vec3, hips int) bool {
	if hips == 0 || len(pos) == 0 {
		return false
	}
	children := 0
	for _, p := range parents {
		if p == 0 {
			children++
		}
	}
	if children != 1 {
		return false
	}
	for _, fr := range pos {
		lo, hi := fr[0][1], fr[0][1]
		for _, p := range fr {
			lo, hi = min(lo, p[1]), max(hi, p[1])
		}
		h := hi - lo
		d := fr[hips].Sub(fr[0])
		if fr[0][1]-lo > 0.15*h || d[0]*d[0]+d[2]*d[2] > 0.01*h*h {
			return false
		}
	}
	return true
}

// Rooting stands a file's frames on the skeleton a character made of all
// the file's joints has: an Entity (joint 0) added above the file's root,
// carrying the hips' ground projection as root motion (rootedClip), unless
// the file's root already is such a joint (kinelab's own exports). The app
// and every export use this one joint list. For streaming a file frame by
// frame (package export): no clip is built.
type Rooting struct {
	// Entity reports whether an Entity is added: joint 0, the file's
	// joints then from 1 on.
	Entity  bool
	parents []int // of the joints with the Entity
	chain   []int // from the Entity's child to the hips
	p       animsys.Pose
}

// Rooting is how a character of all of file's joints stands its frames
// (fromFile's choice, made on frames sampled from the file).
func (file *File) Rooting() *Rooting {
	f, imp := file.BVH, file.Import
	sk := f.SkeletonWith(imp)
	hips := 0
	if file.Figure != nil {
		hips = file.Figure.Hips
	}
	n := sk.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	frames := f.Frames - imp.Skip
	var pos [][]mgl32.Vec3
	for i := range min(rootFrames, frames) {
		fr := 0
		if k := min(rootFrames, frames); k > 1 {
			fr = i * (frames - 1) / (k - 1)
		}
		f.FrameWith(imp, fr+imp.Skip, local.Pos, local.Rot)
		animsys.FKStatic(&global, &local, sk.Parents)
		pos = append(pos, slices.Clone(global.Pos))
	}
	r := &Rooting{}
	if rootFollowsIn(sk.Parents, pos, hips) {
		return r
	}
	r.Entity = true
	r.parents = make([]int, n+1)
	r.parents[0] = -1
	for j, p := range sk.Parents {
		r.parents[j+1] = p + 1
	}
	r.chain = chainTo(r.parents, hips+1)
	r.p = animsys.NewPose(n + 1)
	return r
}

// Frame makes a frame of the file's joints (pos, rot and scl from index 1
// on; index 0 the Entity's, ignored) a frame of the character's: the
// Entity where the hips stand, the file's roots hanging from it. Without
// an Entity it does nothing.
func (r *Rooting) Frame(pos []mgl32.Vec3, rot []mgl32.Quat, scl []mgl32.Vec3) {
	if !r.Entity {
		return
	}
	p := &r.p
	copy(p.Pos, pos)
	copy(p.Rot, rot)
	copy(p.Scl, scl)
	p.SetKform(0, animsys.KformIdentity())
	reroot(p, r.parents, r.chain)
	copy(pos, p.Pos)
	copy(rot, p.Rot)
	copy(scl, p.Scl)
}

// rootedClip converts clip c of skeleton sk into a clip on the skeleton
// with an Entity root added: each frame, the Entity takes the hips' ground
// projection (x, 0, z), and the file's roots hang from it where they were
// (reroot, which glTF curves share).
func rootedClip(sk *animsys.Skeleton, c *animsys.Clip, hips int) animsys.Clip {
	n := c.Joints + 1
	parents := make([]int, n)
	parents[0] = -1
	for j, p := range sk.Parents {
		parents[j+1] = p + 1 // a file root (-1) hangs from the Entity (0)
	}
	out := animsys.NewClip(c.Name, c.Frames, n, c.FrameTime)
	for j := 0; j < c.Joints; j++ {
		out.CopyJoint(j+1, c, j) // the values they hold, and their tracks
	}
	chain := chainTo(parents, hips+1)
	frame, p := animsys.NewPose(c.Joints), animsys.NewPose(n)
	for fr := 0; fr < c.Frames; fr++ {
		c.Frame(&frame, fr)
		p.SetKform(0, animsys.KformIdentity())
		copy(p.Pos[1:], frame.Pos)
		copy(p.Rot[1:], frame.Rot)
		copy(p.Scl[1:], frame.Scl)
		reroot(&p, parents, chain)
		if fr == 0 {
			out.SetPosAll(0, p.Pos[0])
		}
		for j, pj := range parents {
			if j == 0 || pj == 0 {
				out.SetPos(fr, j, p.Pos[j])
			}
		}
	}
	out.Prepare()
	return out
}
