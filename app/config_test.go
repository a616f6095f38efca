package app

import (
	"io"
	"strings"
	"testing"
)

func TestParseFlags(t *testing.T) {
	good := []struct {
		args []string
		want Config
	}{
		{nil, Config{Lab: "velocities", Width: 1280, Height: 720, MSAA: true}},
		{[]string{"--frames", "10", "--screenshot", "a.png"}, Config{Lab: "velocities", Frames: 10, Screenshot: "a.png", Width: 1280, Height: 720}},
		{[]string{"--width=800", "--height=600", "--msaa=off"}, Config{Lab: "velocities", Width: 800, Height: 600}},
	}
	for _, g := range good {
		got, err := ParseFlags(g.args, io.Discard)
		if err != nil || got != g.want {
			t.Errorf("ParseFlags(%q) = %+v, %v; want %+v", g.args, got, err, g.want)
		}
	}
	bad := []struct {
		args []string
		msg  string
	}{
		{[]string{"--lab", "nope"}, "no such lab"},
		{[]string{"--frames", "-1"}, "want 0 or more"},
		{[]string{"--frames", "ten"}, "invalid value"},
		{[]string{"--width", "10"}, "want 320"},
		{[]string{"--screenshot", "a.jpg"}, ".png"},
		{[]string{"--msaa", "maybe"}, "on, off or auto"},
		{[]string{"--bogus"}, "not defined"},
		{[]string{"stray"}, "unexpected argument"},
	}
	for _, b := range bad {
		_, err := ParseFlags(b.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("ParseFlags(%q) error %v; want one containing %q", b.args, err, b.msg)
		}
	}
	if _, err := ParseFlags([]string{"-h"}, io.Discard); !IsHelp(err) {
		t.Errorf("-h gave %v, want flag.ErrHelp", err)
	}
}
