package retarget

import (
	"fmt"
	"slices"
	"strings"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/animsys/words"
)

// Onto is character dst playing character src's clips, each retargeted
// (Map.Clip) by the map New(src, dst) makes, which it returns too: dst's
// skeleton, figure, mesh, additive and procedural paths, src's clips
// (each of its name) and the files they came from, src itself as the
// character's Source, and a note saying what the map did (Map.Summary).
func Onto(dst, src *character.Character) (*character.Character, *Map, error) {
	m, err := New(src, dst)
	if err != nil {
		return nil, nil, err
	}
	out := *dst
	out.Clips = make([]animsys.Clip, len(src.Clips))
	for i := range src.Clips {
		out.Clips[i] = m.Clip(&src.Clips[i])
	}
	out.Start = src.Start
	out.Files, out.Skipped, out.Repeated = src.Files, src.Skipped, src.Repeated
	out.Source = src
	out.Notes = append(slices.Clip(dst.Notes), m.Summary())
	return &out, m, nil
}

// Summary says what the map does in a line: "walk's 31 joints onto robot's
// 44: 21 driven, 22 at rest; motion scaled 1.82 (leg length), feet kept
// by IK".
func (m *Map) Summary() string {
	feet := "feet by rotation alone"
	if m.Feet {
		feet = "feet kept where the source's stood, by IK"
	}
	return fmt.Sprintf("%s's %s onto %s's %d: %d driven, %d at rest; motion scaled %.3g (leg length), %s",
		m.Source.Name, words.Count(len(m.src), "joint"), m.Target.Name, len(m.dst), len(m.Pairs), len(m.Rest), m.Scale, feet)
}

// Lines names the map a line each: each target joint and the source
// joint that drives it ("Body <- Hips"), then the target joints at rest.
func (m *Map) Lines() []string {
	var out []string
	for _, p := range m.Pairs {
		out = append(out, m.Target.Joints[p.Target]+" <- "+m.Source.Joints[p.Source])
	}
	if len(m.Rest) > 0 {
		names := make([]string, len(m.Rest))
		for i, j := range m.Rest {
			names[i] = m.Target.Joints[j]
		}
		out = append(out, "at rest: "+strings.Join(names, ", "))
	}
	return out
}
