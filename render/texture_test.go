package render

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

// TestDecodeTexture: PNG and JPEG decode to non-premultiplied RGBA, first
// row the image's top, whatever the decoder's own pixel type (NRGBA with
// alpha, paletted with translucent entries, grey, JPEG's YCbCr, a
// sub-image's offset bounds).
func TestDecodeTexture(t *testing.T) {
	encode := func(img image.Image) []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	check := func(what string, got *image.NRGBA, err error, w, h int, want func(x, y int) color.NRGBA, tol int) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got.Rect != image.Rect(0, 0, w, h) || got.Stride != 4*w {
			t.Fatalf("%s: bounds %v stride %d, want %dx%d packed", what, got.Rect, got.Stride, w, h)
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c, e := got.NRGBAAt(x, y), want(x, y)
				d := func(a, b uint8) bool { return int(a)-int(b) > tol || int(b)-int(a) > tol }
				if d(c.R, e.R) || d(c.G, e.G) || d(c.B, e.B) || d(c.A, e.A) {
					t.Fatalf("%s: pixel (%d, %d) is %v, want %v", what, x, y, c, e)
				}
			}
		}
	}

	// NRGBA, three wide and two high, with alpha: kept exactly.
	n := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	nPix := func(x, y int) color.NRGBA {
		return color.NRGBA{R: uint8(40 * x), G: uint8(100 * y), B: 7, A: uint8(255 - 60*x - 70*y)}
	}
	for y := 0; y < 2; y++ {
		for x := 0; x < 3; x++ {
			n.SetNRGBA(x, y, nPix(x, y))
		}
	}
	got, err := decodeTexture(encode(n))
	check("NRGBA PNG", got, err, 3, 2, nPix, 0)

	// A sub-image with bounds not at the origin encodes the same pixels.
	sub := n.SubImage(image.Rect(1, 1, 3, 2))
	got, err = decodeTexture(encode(sub))
	check("sub-image PNG", got, err, 2, 1, func(x, y int) color.NRGBA { return nPix(x+1, y+1) }, 0)

	// Paletted with a translucent entry: through premultiplied RGBA and
	// back, within rounding.
	pal := color.Palette{color.NRGBA{R: 200, G: 100, B: 50, A: 128}, color.NRGBA{R: 10, G: 250, B: 90, A: 255}}
	p := image.NewPaletted(image.Rect(0, 0, 2, 2), pal)
	p.SetColorIndex(1, 0, 1)
	p.SetColorIndex(0, 1, 1)
	got, err = decodeTexture(encode(p))
	check("paletted PNG", got, err, 2, 2, func(x, y int) color.NRGBA { return pal[(x+y)%2].(color.NRGBA) }, 2)

	// Grey.
	g := image.NewGray(image.Rect(0, 0, 2, 1))
	g.Pix[0], g.Pix[1] = 30, 220
	got, err = decodeTexture(encode(g))
	check("grey PNG", got, err, 2, 1, func(x, y int) color.NRGBA { v := uint8(30 + 190*x); return color.NRGBA{v, v, v, 255} }, 0)

	// JPEG, red above blue (16x16 so the blocks hold each colour whole).
	j := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			if y < 8 {
				j.SetRGBA(x, y, color.RGBA{R: 255, A: 255})
			} else {
				j.SetRGBA(x, y, color.RGBA{B: 255, A: 255})
			}
		}
	}
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, j, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	got, err = decodeTexture(jb.Bytes())
	check("JPEG", got, err, 16, 16, func(x, y int) color.NRGBA {
		if y < 8 {
			return color.NRGBA{R: 255, A: 255}
		}
		return color.NRGBA{B: 255, A: 255}
	}, 40) // chroma subsampling blurs the edge rows a little
}

// TestDecodeTextureErrors: what is not a whole PNG or JPEG, or is too
// large a texture, is an error that says so (the size found from the
// header, before any pixels are allocated).
func TestDecodeTextureErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a PNG or JPEG image"},
		{"text", []byte("GIF89a, or anything else"), "not a PNG or JPEG image"},
		{"truncated PNG", good[:len(good)-16], "png image: "},
		{"huge PNG", pngHeader(20000, 10), "png image of 20000x10 pixels; want 1 to 8192 a side"},
	} {
		img, err := decodeTexture(c.data)
		if img != nil || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: image %v, error %v; want an error with %q", c.name, img != nil, err, c.want)
		}
	}
}

// pngHeader is a PNG's signature and IHDR chunk (8-bit RGBA) for a w x h
// image, with no pixel data after it.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0)
	out := []byte("\x89PNG\r\n\x1a\n")
	out = binary.BigEndian.AppendUint32(out, uint32(len(ihdr)-4))
	out = append(out, ihdr...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(ihdr))
}
