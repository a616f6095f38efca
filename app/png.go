package app

import (
	"image"
	"image/png"
	"os"
)

// SavePNG writes img to path, reporting any error (raylib's exporter only
// says false).
func SavePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
