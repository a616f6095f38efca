package app_test

import (
	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
)

// plainLab is the least lab: the framework's window tests draw it. It has
// one setting, on a slider in a section, and keeps the last click.
type plainLab struct {
	app.Base
	S     plainSettings
	open  bool
	click app.Pointer
	name  string // "springs" unless set
	// held: the Held key "hold" (K) as Input last saw it; asks: how many
	// times the panel's Ask button's action ran, as the last Panel and
	// Update saw it.
	held                 bool
	asks                 int
	asksDrawn, asksTickd int
}

type plainSettings struct {
	Value float32
}

func newPlainLab() *plainLab { return &plainLab{S: plainSettings{Value: 2}} }

func (l *plainLab) Name() string {
	if l.name != "" {
		return l.name
	}
	return "springs"
}
func (l *plainLab) Title() string  { return "plain " + l.Name() }
func (l *plainLab) Update(float32) { l.asksTickd = l.asks }
func (l *plainLab) Settings() any  { return &l.S }

func (l *plainLab) Panel(p *app.Panel) {
	l.asksDrawn = l.asks
	if p.Section("Things", &l.open) {
		p.Slider("Value", &l.S.Value, 0, 10, "%.1f")
		if p.Button("Ask") {
			p.Ask(func() { l.asks++ })
		}
	}
}

func (*plainLab) Keys() []app.Key {
	return []app.Key{{Code: int32(rl.KeyK), Label: "K", Name: "hold", Help: "held", Held: true}}
}

func (l *plainLab) Input(in *app.Input) {
	l.held = in.Held("hold")
	if in.Click {
		l.click = in.Pointer
	}
}
