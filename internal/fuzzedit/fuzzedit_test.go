package fuzzedit

import (
	"bytes"
	"testing"
	"time"
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

// The watchdog trips on CPU time spent, not on time waited.
func TestWatchdog(t *testing.T) {
	if _, ok := cpuTime(); !ok {
		t.Skip("SKIPPED: no CPU time on this system; Watchdog does nothing here")
	}
	fired := make(chan string, 1)
	stop := watch(50*time.Millisecond, func() string { return "waiting" }, func(m string) { fired <- m })
	time.Sleep(300 * time.Millisecond) // waiting uses no CPU time
	stop()
	select {
	case m := <-fired:
		t.Errorf("tripped while waiting: %s", m)
	default:
	}
	watch(20*time.Millisecond, func() string { return "spinning" }, func(m string) { fired <- m })
	for len(fired) == 0 { // spin until it trips: a watchdog that never does hangs the test
	}
	if m := <-fired; m != "spinning took over 20ms of CPU time" {
		t.Errorf("tripped saying %q", m)
	}
}
