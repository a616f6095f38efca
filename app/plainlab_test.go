package app_test

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/app"
	"kinelab/ui"
)

// plainLab is the least lab: the framework's window tests draw it. It has
// one setting, on a slider in a section, and keeps the last click.
type plainLab struct {
	S     plainSettings
	open  bool
	click app.Pointer
	name  string // "springs" unless set
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
func (l *plainLab) Title() string   { return "plain " + l.Name() }
func (*plainLab) Update(float32)    {}
func (*plainLab) Draw3D(*app.View)  {}
func (*plainLab) Draw2D(*app.View)  {}
func (*plainLab) Keys() []app.Key   { return nil }
func (*plainLab) Focus() mgl32.Vec3 { return mgl32.Vec3{} }
func (l *plainLab) Settings() any   { return &l.S }

func (l *plainLab) Panel(p *ui.Panel) {
	if p.Section("Things", &l.open) {
		p.Slider("Value", &l.S.Value, 0, 10, "%.1f")
	}
}

func (l *plainLab) Point(ptr app.Pointer) {
	if ptr.Click {
		l.click = ptr
	}
}
