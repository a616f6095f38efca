package app

import (
	"bufio"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"unsafe"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys/export"
)

// writeScreenshot saves the frame drawn so far as a PNG and says where.
func (a *App) writeScreenshot(path string) error {
	img, err := a.readPixels()
	if err == nil {
		err = SavePNG(path, img)
	}
	if err != nil {
		msg := fmt.Sprintf("could not save screenshot %s: %v", path, err)
		a.sayErr(msg)
		fmt.Fprintln(os.Stderr, "kinelab:", msg)
		return err
	}
	abs, _ := filepath.Abs(path)
	if _, err := fmt.Println("kinelab:", a.say("screenshot saved to "+abs)); err != nil {
		fmt.Fprintf(os.Stderr, "kinelab: writing the output: %v\n", err)
		return err // a scripted run exits 1: its stdout is lost
	}
	return nil
}

// ReadPixels returns what has been drawn this frame (call it from Frame's
// onDrawn), or nil if raylib could not read the screen.
func (a *App) ReadPixels() *image.RGBA {
	img, _ := a.readPixels()
	return img
}

// readPixels copies the screen's pixels straight from raylib's image:
// raylib-go's LoadImageColors cannot return more than 16.7 million pixels
// (a 7680x4320 window has 33 million).
func (a *App) readPixels() (*image.RGBA, error) {
	rl.DrawRenderBatchActive()
	img := rl.LoadImageFromScreen()
	defer rl.UnloadImage(img)
	w, h := int(img.Width), int(img.Height)
	if img.Data == nil || w <= 0 || h <= 0 || img.Format != rl.UncompressedR8g8b8a8 {
		return nil, fmt.Errorf("raylib could not read the screen (%dx%d, format %d)", w, h, img.Format)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	copy(out.Pix, unsafe.Slice((*byte)(img.Data), 4*w*h))
	for i := 3; i < len(out.Pix); i += 4 {
		out.Pix[i] = 255
	}
	return out, nil
}

// SavePNG writes img to path, reporting any error (raylib's exporter only
// says false). A file that was there is replaced only by a whole one
// (export.Output).
func SavePNG(path string, img image.Image) error {
	f, err := export.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := png.Encode(bw, img); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Commit()
}
