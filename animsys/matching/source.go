package matching

import (
	"errors"
	"slices"

	"kinelab/animsys/character"
)

// SourceOf is the database source of a character: its skeleton and clips,
// and the feet, hips and sides of its figure (the one reading of the
// skeleton as a body). It fails for a figure without two legs: motion
// matching steps on feet.
func SourceOf(ch *character.Character) (Source, error) {
	f := ch.Figure
	src := Source{Skel: ch.Skel, Clips: ch.Clips, Hips: f.Hips}
	for s := range f.Legs {
		if f.Legs[s].Upper < 0 || f.Legs[s].End < 0 {
			return Source{}, errors.New(ch.Name + ": no two legs to match feet on")
		}
		src.Feet[s] = f.Legs[s].End
		src.Toes[s] = f.Legs[s].Tip // -1 when the foot is a leaf
	}
	if src.Hips <= 0 {
		return Source{}, errors.New(ch.Name + ": no hips")
	}
	// The lateral axis: across the thighs, and across the upper arms when
	// the figure has both.
	src.Legs = ch.Legs
	// The spine from the hips' child up to the chest, the joint the arms
	// hang from (Figure.Spine runs on to the head).
	for _, j := range f.Spine {
		if j == f.Hips {
			continue
		}
		src.Spine = append(src.Spine, j)
		if j == f.Chest {
			break
		}
	}
	if f.Chest < 0 || !slices.Contains(src.Spine, f.Chest) {
		src.Spine = nil
	}
	src.Left, src.Right = []int{f.Legs[0].Upper}, []int{f.Legs[1].Upper}
	if f.Arms[0].Upper > 0 && f.Arms[1].Upper > 0 {
		src.Left, src.Right = append(src.Left, f.Arms[0].Upper), append(src.Right, f.Arms[1].Upper)
	}
	return src, nil
}
