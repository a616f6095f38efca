package app_test

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/app"
	"kinelab/ui"
)

// plainLab is the least lab: the framework's tests draw it.
type plainLab struct{}

func (plainLab) Name() string      { return "springs" }
func (plainLab) Title() string     { return "plain" }
func (plainLab) Update(float32)    {}
func (plainLab) Draw3D(*app.View)  {}
func (plainLab) Draw2D(*app.View)  {}
func (plainLab) Panel(p *ui.Panel) { p.Text("nothing here") }
func (plainLab) Keys() []app.Key   { return nil }
func (plainLab) Focus() mgl32.Vec3 { return mgl32.Vec3{} }
