package fuzzedit

import (
	"bytes"
	"testing"
)

func TestApply(t *testing.T) {
	base := []byte("HIERARCHY\nROOT Hips\n")
	for _, c := range []struct {
		script []byte
		want   string
	}{
		{nil, "HIERARCHY\nROOT Hips\n"},
		{Replace(0, 'h', 'i'), "hiERARCHY\nROOT Hips\n"},
		{[]byte{0x02, 0, 9, ' ', '!'}, "HIERARCHY !\nROOT Hips\n"},              // insert 2 at 9
		{[]byte{0x50, 0, 10}, "HIERARCHY\nHips\n"},                              // delete 5 at 10 ("ROOT" and its space)
		{[]byte{0xf0, 0, 15}, "HIERARCHY\nROOT "},                               // delete past the end
		{[]byte{0x01, 0, 20, 'x'}, "HIERARCHY\nROOT Hips\nx"},                   // at the end
		{[]byte{0x01, 0, 21, 'x'}, "xHIERARCHY\nROOT Hips\n"},                   // modulo len + 1
		{[]byte{0x03, 0, 0, 'a'}, "aHIERARCHY\nROOT Hips\n"},                    // a short last edit
		{append(Replace(0, 'h'), Replace(1, 'i')...), "hiERARCHY\nROOT Hips\n"}, // in turn
	} {
		if got := Apply(base, c.script); string(got) != c.want {
			t.Errorf("Apply(%q) = %q, want %q", c.script, got, c.want)
		}
	}
	if !bytes.Equal(base, []byte("HIERARCHY\nROOT Hips\n")) {
		t.Errorf("base changed: %q", base)
	}
}
