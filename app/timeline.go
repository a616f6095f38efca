package app

import (
	"fmt"
	"slices"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys"
	"kinelab/render"
	"kinelab/ui"
)

// timelineH is the timeline's height (units): a line of clip, time and
// controls over a scrub bar.
const timelineH = 64

// Timeline is what a lab playing a clip shows on the framework's timeline.
type Timeline struct {
	Clip      string
	Time      float32 // s into the clip's loop, where the pose is sampled
	Length    float32 // s, the loop's length
	FrameTime float32 // s per frame of the clip
	Mode      animsys.PlayMode
	Speed     float32 // clip speed (1: as recorded)
}

// TimelineEdit is what the user changed on the timeline: the play mode
// and clip speed it shows (changed or not), and a time to jump to.
type TimelineEdit struct {
	Mode  animsys.PlayMode
	Speed float32 // clip speed, 0 to MaxClipSpeed
	// Seek, if >= 0, jumps the clip to Seek s into its loop at the next
	// update: an event (the pose jumps) that the lab marks like a
	// teleport.
	Seek float32
}

// playModes are the play modes the timeline offers, in its order.
var playModes = []animsys.PlayMode{animsys.PlayLoop, animsys.PlayClamp, animsys.PlayPingPong}

// MaxClipSpeed is the top of the clip speed slider.
const MaxClipSpeed = 3

// drawTimeline draws lab t's timeline in r and returns the user's
// changes, for the frame to apply before the next update.
func (a *App) drawTimeline(t Lab, r rl.Rectangle) (asked []func()) {
	tl, ok := t.Timeline()
	if !ok || r.Width <= 0 {
		return nil
	}
	edit := TimelineEdit{Mode: tl.Mode, Speed: tl.Speed, Seek: -1}
	ui.BeginBlock(ui.KindPanel, "timeline", r)
	rl.DrawRectangleRec(r, rl.Color{R: 22, G: 24, B: 29, A: 215})
	rl.DrawRectangleLinesEx(r, 1, rl.Color{R: 70, G: 76, B: 88, A: 255})
	top := rl.Rectangle{X: r.X + 8, Y: r.Y + 6, Width: r.Width - 16, Height: 24}

	// Right to left: speed slider, play mode, then the clip and its time.
	speed := rl.Rectangle{X: top.X + top.Width - 200, Y: top.Y, Width: 200, Height: top.Height}
	sp := tl.Speed
	if ui.SliderBar(speed, &sp, 0, MaxClipSpeed, fmt.Sprintf("speed %.2fx", sp)) {
		e := edit
		e.Speed = sp
		asked = append(asked, func() { t.EditTimeline(e) })
	}
	modes := rl.Rectangle{X: speed.X - 8 - 260, Y: top.Y, Width: 260, Height: top.Height}
	m := int32(slices.Index(playModes, tl.Mode))
	if ui.Toggles(modes, []string{"Loop", "Clamp", "Ping-pong"}, &m) && m >= 0 {
		e := edit
		e.Mode = playModes[m]
		asked = append(asked, func() { t.EditTimeline(e) })
	}
	name, rest := timelineText(tl, modes.X-8-top.X)
	y := top.Y + (top.Height-ui.TextSize)/2
	ui.DrawText(name+rest, top.X, y, ui.TextSize, render.TextColor)
	if name != tl.Clip {
		ui.Tip(rl.Rectangle{X: top.X, Y: top.Y, Width: ui.Measure(name, ui.TextSize), Height: top.Height}, tl.Clip)
	}

	// The scrub bar: dragging it seeks; while paused each seek steps one
	// tick so the pose follows the bar.
	bar := rl.Rectangle{X: top.X, Y: top.Y + top.Height + 6, Width: top.Width, Height: 20}
	x := tl.Time
	if ui.SliderBar(bar, &x, 0, max(tl.Length, 1e-3), "") && x != tl.Time {
		e := edit
		e.Seek = x
		asked = append(asked, func() {
			t.EditTimeline(e)
			if a.clock.Paused {
				a.clock.Step()
			}
		})
	}
	ui.EndBlock()
	return asked
}

// timelineMinName is the least room (units) the timeline leaves the
// clip's name before it shows less of the time: a dozen characters, enough
// to tell clips apart.
const timelineMinName = 100

// timelineText is the timeline's line for width units: the clip's name and
// the rest (time, length, frame and frames), the rest shorter on a narrow
// timeline and the name shortened in its middle (shown whole on hover)
// rather than dropped.
func timelineText(tl Timeline, width float32) (name, rest string) {
	frame, frames := 0, 0
	if tl.FrameTime > 0 {
		frame, frames = int(tl.Time/tl.FrameTime+0.5), int(tl.Length/tl.FrameTime+0.5)
	}
	rests := []string{
		fmt.Sprintf("   %.2f / %.2f s   frame %d / %d", tl.Time, tl.Length, frame, frames),
		fmt.Sprintf("  %.2f / %.2f s  f %d / %d", tl.Time, tl.Length, frame, frames),
		fmt.Sprintf("  %.2f / %.2f s", tl.Time, tl.Length),
	}
	need := min(ui.Measure(tl.Clip, ui.TextSize), timelineMinName)
	for _, rest = range rests {
		if room := width - ui.Measure(rest, ui.TextSize); room >= need {
			return ui.Shorten(tl.Clip, room, ui.TextSize), rest
		}
	}
	if room := width - ui.Measure(rest, ui.TextSize); room > 0 {
		return ui.Shorten(tl.Clip, room, ui.TextSize), rest
	}
	return "", ui.Clip(rest, width, ui.TextSize) // a timeline too narrow for any name
}
