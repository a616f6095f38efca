package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // registers JPEG with image.Decode: raylib's own build may lack it
	_ "image/png"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// maxTextureSide bounds a decoded texture's width and height, checked in
// the header before decoding: a broken or hostile file could otherwise
// make the decoder allocate gigabytes. 8192 (256 MiB of RGBA) is within
// every desktop driver's limit (llvmpipe's is 16384) and above any
// character texture's usual 4096.
const maxTextureSide = 8192

// decodeTexture decodes PNG or JPEG bytes to non-premultiplied RGBA with
// its first row the image's top, as raylib's R8G8B8A8 textures take it.
func decodeTexture(data []byte) (*image.NRGBA, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not a PNG or JPEG image: %w", err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxTextureSide || cfg.Height > maxTextureSide {
		return nil, fmt.Errorf("%s image of %dx%d pixels; want 1 to %d a side", format, cfg.Width, cfg.Height, maxTextureSide)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s image: %w", format, err)
	}
	b := src.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	if n, ok := src.(*image.NRGBA); ok {
		// PNG with alpha decodes to NRGBA: copy rows, keeping full
		// precision where alpha is low.
		for y := 0; y < b.Dy(); y++ {
			copy(out.Pix[y*out.Stride:y*out.Stride+4*b.Dx()], n.Pix[n.PixOffset(b.Min.X, b.Min.Y+y):])
		}
		return out, nil
	}
	// Anything else (JPEG's YCbCr, grey, paletted PNG) goes through
	// image/draw's fast paths to premultiplied RGBA, un-premultiplied
	// after: a no-op for opaque pixels, which JPEG's all are.
	rgba := &image.RGBA{Pix: out.Pix, Stride: out.Stride, Rect: out.Rect}
	draw.Draw(rgba, rgba.Rect, src, b.Min, draw.Src)
	p := out.Pix
	for i := 0; i < len(p); i += 4 {
		if a := uint32(p[i+3]); a != 0 && a != 255 {
			p[i] = uint8((uint32(p[i])*255 + a/2) / a)
			p[i+1] = uint8((uint32(p[i+1])*255 + a/2) / a)
			p[i+2] = uint8((uint32(p[i+2])*255 + a/2) / a)
		}
	}
	return out, nil
}

// loadTexture uploads img with mipmaps, trilinear filtering (a body's
// texture is seen from far off in the crowd, where it would shimmer
// without mipmaps) and repeat wrap (glTF's default sampler).
func loadTexture(img *image.NRGBA) (rl.Texture2D, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	// The rl.Image points into img.Pix, which holds no Go pointers, so
	// cgo allows it; raylib copies the pixels to the GPU and keeps none.
	tex := rl.LoadTextureFromImage(rl.NewImage(img.Pix, int32(w), int32(h), 1, rl.UncompressedR8g8b8a8))
	if tex.ID == 0 {
		return tex, errors.New("the GL driver refused the texture")
	}
	rl.GenTextureMipmaps(&tex)
	if tex.Mipmaps > 1 {
		rl.SetTextureFilter(tex, rl.FilterTrilinear)
	} else { // 1x1, or mipmaps failed: raylib would warn of trilinear
		rl.SetTextureFilter(tex, rl.FilterBilinear)
	}
	rl.SetTextureWrap(tex, rl.WrapRepeat)
	return tex, nil
}

// whiteTexture is a 1x1 white texture: sampling it leaves colours as they
// are, so one shader draws meshes with and without a texture.
func whiteTexture() rl.Texture2D {
	return rl.LoadTextureFromImage(rl.NewImage([]byte{255, 255, 255, 255}, 1, 1, 1, rl.UncompressedR8g8b8a8))
}
