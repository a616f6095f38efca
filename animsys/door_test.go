package animsys

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// doorCase is an exported pose op run on the poses in p, in the order of
// its pose arguments, whose names are roles. The role that sets the
// number of joints the others need (lhs of Blend, curr of FiniteDiff) is
// marked with a leading '*': given a short pose it is merely a smaller
// pose, so it gets an uneven one instead (Rot and Ang shorter than Pos
// and Vel). want is the joints the op needs (0: the bench skeleton's).
type doorCase struct {
	op    string
	roles []string
	run   func(p []*Pose)
	want  int
}

// Every exported pose op checks its poses' sizes at its door: a short
// pose in any argument panics with a message naming the op, the argument
// and the joints it wants, before any loop indexes it.
func TestOpsCheckTheirPoses(t *testing.T) {
	skel := BenchSkeleton()
	n, parents := skel.Len(), skel.Parents
	clip := GenerateBenchClip(1)
	leg := TwoBoneJoints{Root: BenchLeftUpLeg, Mid: BenchLeftLeg, End: BenchLeftFoot}
	target, fwd := mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 1, 0}
	cases := []doorCase{
		{op: "FK", roles: []string{"global", "local"}, run: func(p []*Pose) { FK(p[0], p[1], parents) }},
		{op: "FKStatic", roles: []string{"global", "local"}, run: func(p []*Pose) { FKStatic(p[0], p[1], parents) }},
		{op: "BK", roles: []string{"local", "global"}, run: func(p []*Pose) { BK(p[0], p[1], parents) }},
		{op: "Blend", roles: []string{"out", "*lhs", "rhs"}, run: func(p []*Pose) { Blend(p[0], p[1], p[2], .5, 1) }},
		{op: "BlendStatic", roles: []string{"out", "*lhs", "rhs"}, run: func(p []*Pose) { BlendStatic(p[0], p[1], p[2], .5) }},
		{op: "Additive", roles: []string{"*out", "add"}, run: func(p []*Pose) { Additive(p[0], p[1], .5, 1) }},
		{op: "AdditiveStatic", roles: []string{"*out", "add"}, run: func(p []*Pose) { AdditiveStatic(p[0], p[1], .5) }},
		{op: "AdditiveLocal", roles: []string{"*out", "add"}, run: func(p []*Pose) { AdditiveLocal(p[0], p[1], .5, 1) }},
		{op: "AdditiveLocalStatic", roles: []string{"*out", "add"}, run: func(p []*Pose) { AdditiveLocalStatic(p[0], p[1], .5) }},
		{op: "InertializeOffset", roles: []string{"offset", "*src", "dst"}, run: func(p []*Pose) { InertializeOffset(p[0], p[1], p[2]) }},
		{op: "Inertialize", roles: []string{"out", "offset", "*input"}, run: func(p []*Pose) { Inertialize(p[0], p[1], p[2], .1, .5) }},
		{op: "InertializeCritical", roles: []string{"out", "offset", "*input"}, run: func(p []*Pose) { InertializeCritical(p[0], p[1], p[2], .1, .2) }},
		{op: "InertializeWeights", roles: []string{"out", "offset", "*input"}, run: func(p []*Pose) { InertializeWeights(p[0], p[1], p[2], 1, 0, 0, 1) }},
		{op: "ExtrapolateDecayed", roles: []string{"out", "*in"}, run: func(p []*Pose) { ExtrapolateDecayed(p[0], p[1], .1, .2) }},
		{op: "DeadBlend", roles: []string{"out", "extrapolated", "*transition", "input"},
			run: func(p []*Pose) { DeadBlend(p[0], p[1], p[2], p[3], .2, .1, .5) }},
		{op: "FiniteDiff", roles: []string{"out", "*curr", "prev"}, run: func(p []*Pose) { FiniteDiff(p[0], p[1], p[2], 1.0/60) }},
		{op: "FiniteDiffInPlace", roles: []string{"*curr", "prev"}, run: func(p []*Pose) { FiniteDiffInPlace(p[0], p[1], 1.0/60) }},
		{op: "ExtrapolatePrev", roles: []string{"out", "*in"}, run: func(p []*Pose) { ExtrapolatePrev(p[0], p[1], .01) }},
		{op: "SampleLinear", roles: []string{"out"}, run: func(p []*Pose) { SampleLinear(p[0], &clip, 1) }},
		{op: "SampleCubic", roles: []string{"out"}, run: func(p []*Pose) { SampleCubic(p[0], &clip, 1) }},
		{op: "SampleLinearFrame", roles: []string{"out"}, run: func(p []*Pose) { SampleLinearFrame(p[0], &clip, 3, .5) }},
		{op: "SampleCubicFrame", roles: []string{"out"}, run: func(p []*Pose) { SampleCubicFrame(p[0], &clip, 3, .5) }},
		{op: "TimeScale", roles: []string{"*p"}, run: func(p []*Pose) { TimeScale(p[0], 2) }},
		{op: "RemoveGlobalRoot", roles: []string{"p"}, run: func(p []*Pose) { RemoveGlobalRoot(p[0]) }, want: 1},
		{op: "RandomAdditive", roles: []string{"*out"}, run: func(p []*Pose) { RandomAdditive(p[0], 1) }},
		{op: "LookAt", roles: []string{"local", "global"}, want: BenchHead + 1,
			run: func(p []*Pose) { LookAt(p[0], p[1], BenchHead, target, mgl32.Vec3{}, fwd) }},
		{op: "LookAtStatic", roles: []string{"local", "global"}, want: BenchHead + 1,
			run: func(p []*Pose) { LookAtStatic(p[0], p[1], BenchHead, target, fwd) }},
		{op: "TwoBoneIKStatic", roles: []string{"local", "global"},
			run: func(p []*Pose) { TwoBoneIKStatic(p[0], p[1], parents, leg, target) }},
		{op: "TwoBoneIK", roles: []string{"localCurr", "localTemp", "globalCurr", "globalTemp"},
			run: func(p []*Pose) { TwoBoneIK(p[0], p[1], p[2], p[3], parents, leg, target, mgl32.Vec3{}, .01) }},
		{op: "Clip.Frame", roles: []string{"out"}, run: func(p []*Pose) { clip.Frame(p[0], 2) }},
		{op: "Clip.SetFrame", roles: []string{"p"}, run: func(p []*Pose) { c := clip; c.SetFrame(2, p[0]) }},
	}
	for _, c := range cases {
		want := c.want
		if want == 0 {
			want = n
		}
		for k, role := range c.roles {
			poses := make([]*Pose, len(c.roles))
			for i := range poses {
				p := NewPose(n)
				poses[i] = &p
			}
			bad := NewPose(min(3, want-1))
			msg := fmt.Sprintf("animsys.%s: %s pose has %d joints, want %d", c.op, role, bad.Len(), want)
			if name, ok := strings.CutPrefix(role, "*"); ok {
				bad = NewPose(n)
				bad.Rot, bad.Ang = bad.Rot[:3], bad.Ang[:3]
				msg = fmt.Sprintf("animsys.%s: %s pose has 3 joints in ", c.op, name)
			}
			poses[k] = &bad
			t.Run(c.op+"/"+strings.TrimPrefix(role, "*"), func(t *testing.T) {
				defer func() {
					if got := fmt.Sprint(recover()); !strings.HasPrefix(got, msg) {
						t.Errorf("panic %q, want %q...", got, msg)
					}
				}()
				c.run(poses)
			})
		}
	}
}

// TwoBoneIK checks its chain too: joints outside parents, or not a chain,
// panic naming the op.
func TestTwoBoneIKChecksItsChain(t *testing.T) {
	skel := BenchSkeleton()
	n := skel.Len()
	l, g, lt, gt := NewPose(n), NewPose(n), NewPose(n), NewPose(n)
	for _, j := range []TwoBoneJoints{{Root: 2, Mid: 3, End: 40}, {Root: -1, Mid: 3, End: 4}, {Root: 2, Mid: 4, End: 5}} {
		func() {
			defer func() {
				if got := fmt.Sprint(recover()); !strings.HasPrefix(got, "animsys.TwoBoneIK: chain") {
					t.Errorf("chain %+v: panic %q, want one naming animsys.TwoBoneIK and the chain", j, got)
				}
			}()
			TwoBoneIK(&l, &lt, &g, &gt, skel.Parents, j, mgl32.Vec3{}, mgl32.Vec3{}, .01)
		}()
	}
}

// An op checks only the channels it reads or writes: FKStatic, Clip.Frame
// and FiniteDiff's inputs work on poses without velocities.
func TestTransformsOnlyPoses(t *testing.T) {
	skel := BenchSkeleton()
	n := skel.Len()
	// In NewPose's room, as FiniteDiff loads whole blocks of joints.
	m := mathx.PaddedLen(n)
	bare := func() *Pose {
		return &Pose{Pos: make([]mgl32.Vec3, n, m), Rot: make([]mgl32.Quat, n, m), Scl: make([]mgl32.Vec3, n, m)}
	}
	clip := GenerateBenchClip(1)
	local, global, prev, out := bare(), bare(), bare(), NewPose(n)
	clip.Frame(local, 10)
	FKStatic(global, local, skel.Parents)
	clip.Frame(local, 9)
	FKStatic(prev, local, skel.Parents)
	FiniteDiff(&out, global, prev, BenchFrameTime)
	if out.Pos[n-1] != global.Pos[n-1] || out.Vel[n-1] == (mgl32.Vec3{}) {
		t.Fatalf("FiniteDiff of transforms-only poses: %v %v", out.Pos[n-1], out.Vel[n-1])
	}
}

// FK's door check refuses what its loop cannot do: the same pose as local
// and global (a joint's global values would overwrite local ones its
// children read), a joint that is its own parent, a parent after its
// child; and the lane ops refuse a channel of the right length in memory
// not laid out as NewPose's (no room for a whole block: a store would
// write past it), naming the channel and the room they want.
func TestDoorRefusesBadHierarchies(t *testing.T) {
	skel := BenchSkeleton()
	n := skel.Len()
	p, q := NewPose(n), NewPose(n)
	own := append([]int(nil), skel.Parents...)
	own[5] = 5
	after := append([]int(nil), skel.Parents...)
	after[3] = 7
	short := NewPose(n)
	short.Vel = make([]mgl32.Vec3, n) // no room past the joints
	for _, c := range []struct {
		name, want string
		run        func()
	}{
		{"same pose", "FK: global and local are the same pose", func() { FK(&p, &p, skel.Parents) }},
		{"own parent", "animsys.FK: joint 5 is its own parent", func() { FK(&p, &q, own) }},
		{"parent after", "animsys.FK: joint 3 has parent 7; a parent must come before its child", func() { FK(&p, &q, after) }},
		{"BK own parent", "animsys.BK: joint 5 is its own parent", func() { BK(&p, &q, own) }},
		{"no room", fmt.Sprintf("animsys.Blend: lhs pose's Vel has room for %d joints, want %d (NewPose's for %d joints)", n, mathx.PaddedLen(n), n),
			func() { Blend(&p, &short, &q, .5, 0) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if got := fmt.Sprint(recover()); !strings.Contains(got, c.want) {
					t.Errorf("panic %q, want %q", got, c.want)
				}
			}()
			c.run()
		})
	}
}

// Every lane loop is followed by mathx.ClearUpper (mathx's package doc:
// the door clears the vector registers' upper halves as an op begins, the
// op as its lane code ends, before any scalar code). A lane loop steps by
// mathx.Lanes or ranges over blocks(n); this reads animsys's files for a
// function statement holding one whose next statement is not the clear.
func TestLaneLoopsEndClean(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	loops := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			body := fn.Body.List
			for k, s := range body {
				if !hasLaneLoop(s) {
					continue
				}
				loops++
				if k+1 == len(body) || !isCall(body[k+1], "mathx", "ClearUpper") {
					t.Errorf("%s: %s's lane loop is not followed by mathx.ClearUpper()", fset.Position(s.Pos()), fn.Name.Name)
				}
			}
		}
	}
	if loops < 8 {
		t.Fatalf("found %d lane loops; the ops have more", loops)
	}
}

// hasLaneLoop reports whether body holds a loop over blocks of joints.
func hasLaneLoop(body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.ForStmt:
			if a, ok := s.Post.(*ast.AssignStmt); ok && a.Tok == token.ADD_ASSIGN && len(a.Rhs) == 1 && isSel(a.Rhs[0], "mathx", "Lanes") {
				found = true
			}
		case *ast.RangeStmt:
			if c, ok := s.X.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "blocks" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func isSel(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != name {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == pkg
}

func isCall(s ast.Stmt, pkg, name string) bool {
	e, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	c, ok := e.X.(*ast.CallExpr)
	return ok && isSel(c.Fun, pkg, name)
}
