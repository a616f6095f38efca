module kinelab

go 1.26

require (
	github.com/gen2brain/raylib-go/raygui v0.0.0-20260807193226-5ff77eb89080
	github.com/gen2brain/raylib-go/raylib v0.60.0
	github.com/go-gl/mathgl v1.2.0
	github.com/qmuntal/gltf v0.29.0
	golang.org/x/image v0.34.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/ebitengine/purego v0.10.0 // indirect
	github.com/jupiterrider/ffi v0.7.0 // indirect
	golang.org/x/exp v0.0.0-20260508232706-74f9aab9d74a // indirect
)
