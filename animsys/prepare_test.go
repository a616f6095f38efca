package animsys

import (
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Sampling a prepared clip gives the same bits as sampling it without the
// cache, anywhere in the clip and beyond its ends.
func TestPrepareIsBitIdentical(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, seed := range []uint32{1, 2, 100} {
		prepared := GenerateBenchClip(seed)
		plain := prepared
		plain.recs, plain.posRecs, plain.sclRecs = nil, nil, nil
		if !prepared.prepared() || plain.prepared() {
			t.Fatal("cache state not as set up")
		}
		n := prepared.Joints
		a, b := NewPose(n), NewPose(n)
		for k := 0; k < 2000; k++ {
			tm := (r.Float32()*1.1 - 0.05) * prepared.Duration()
			for _, cubic := range []bool{true, false} {
				if cubic {
					SampleCubic(&a, &prepared, tm)
					SampleCubic(&b, &plain, tm)
				} else {
					SampleLinear(&a, &prepared, tm)
					SampleLinear(&b, &plain, tm)
				}
				for j := 0; j < n; j++ {
					if a.Pos[j] != b.Pos[j] || a.Rot[j] != b.Rot[j] || a.Scl[j] != b.Scl[j] ||
						a.Vel[j] != b.Vel[j] || a.Ang[j] != b.Ang[j] || a.Svl[j] != b.Svl[j] {
						t.Fatalf("seed %d t %v cubic %v joint %d: prepared and plain sampling differ", seed, tm, cubic, j)
					}
				}
			}
		}
	}
}

// Poses made together by NewPoses start at identity, padding included,
// and share no memory: writing every element of one, its room past its
// joints (mathx.PaddedLen) included, leaves the others as they were.
func TestNewPosesDisjoint(t *testing.T) {
	const n = 5
	var a, b, c Pose
	NewPoses(n, &a, &b, &c)
	ident := NewPose(n)
	for _, p := range []*Pose{&a, &b, &c} {
		if m := mathx.PaddedLen(n); p.Len() != n || cap(p.Pos) != m || cap(p.Rot) != m || cap(p.Svl) != m {
			t.Fatalf("pose of %d joints (caps %d %d %d), want %d joints in room for %d", p.Len(), cap(p.Pos), cap(p.Rot), cap(p.Svl), n, m)
		}
		room, identRoom := roomOf(p), roomOf(&ident)
		for j := 0; j < room.Len(); j++ {
			if room.Kform(j) != identRoom.Kform(j) || room.Kform(j) != KformIdentity() {
				t.Fatalf("joint %d not at identity: %+v", j, p.Kform(j))
			}
		}
	}
	junk := Kform{Pos: mgl32.Vec3{9, 9, 9}, Rot: mgl32.Quat{W: 9, V: mgl32.Vec3{9, 9, 9}}, Scl: mgl32.Vec3{9, 9, 9},
		Vel: mgl32.Vec3{9, 9, 9}, Ang: mgl32.Vec3{9, 9, 9}, Svl: mgl32.Vec3{9, 9, 9}}
	bb := roomOf(&b)
	for j := 0; j < bb.Len(); j++ {
		bb.SetKform(j, junk)
	}
	for _, p := range []*Pose{&a, &c} {
		room := roomOf(p)
		for j := 0; j < room.Len(); j++ {
			if room.Kform(j) != KformIdentity() {
				t.Fatalf("writing one pose changed another at joint %d: %+v", j, p.Kform(j))
			}
		}
	}
}

// roomOf is p with its channels extended to their capacity.
func roomOf(p *Pose) Pose {
	return Pose{Pos: p.Pos[:cap(p.Pos)], Rot: p.Rot[:cap(p.Rot)], Scl: p.Scl[:cap(p.Scl)],
		Vel: p.Vel[:cap(p.Vel)], Ang: p.Ang[:cap(p.Ang)], Svl: p.Svl[:cap(p.Svl)]}
}
