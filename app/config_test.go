package app

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestParseFlags(t *testing.T) {
	good := []struct {
		args []string
		want Config
	}{
		{nil, Config{Lab: "velocities", Width: 1280, Height: 720, MSAA: true, DT: 1.0 / 60, Seed: 1, Units: "auto"}},
		{[]string{"--frames", "10", "--screenshot", "a.png"}, Config{Lab: "velocities", Frames: 10, Screenshot: "a.png", Width: 1280, Height: 720, DT: 1.0 / 60, Seed: 1, Units: "auto"}},
		{[]string{"--width=800", "--height=600", "--msaa=off", "--dt", "0.5", "--jitter", "0.25", "--seed", "7"}, Config{Lab: "velocities", Width: 800, Height: 600, DT: 0.5, Jitter: 0.25, Seed: 7, Units: "auto"}},
	}
	for _, g := range good {
		got, err := ParseFlags(g.args, io.Discard)
		if err != nil || !reflect.DeepEqual(got, g.want) {
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
		{[]string{"--dt", "0"}, "0 < dt"},
		{[]string{"--units", "ft"}, "auto, cm, m or in"},
		{[]string{"walk.bvh", "--frames", "3"}, "flags (--name) before BVH files"},
		{[]string{"--jitter", "2"}, "0 <= J"},
		{[]string{"--csv", "a.csv"}, "needs --frames"},
		{[]string{"--do", "x:teleport"}, "FRAME:NAME"},
		{[]string{"--do", "10:fly"}, "no action \"fly\""},
	}
	for _, b := range bad {
		_, err := ParseFlags(b.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("ParseFlags(%q) error %v; want one containing %q", b.args, err, b.msg)
		}
	}
	c, err := ParseFlags([]string{"--frames", "9", "--do", "3:teleport, 5:pause"}, io.Discard)
	if err != nil || !reflect.DeepEqual(c.Do, []Action{{3, "teleport"}, {5, "pause"}}) {
		t.Errorf("--do parsed as %+v, %v", c.Do, err)
	}
	c, err = ParseFlags([]string{"--units", "cm", "a.bvh", "B.BVH"}, io.Discard)
	if err != nil || !reflect.DeepEqual(c.Files, []string{"a.bvh", "B.BVH"}) || c.Units != "cm" {
		t.Errorf("BVH files parsed as %q units %q, %v", c.Files, c.Units, err)
	}
	if _, err := ParseFlags([]string{"-h"}, io.Discard); !IsHelp(err) {
		t.Errorf("-h gave %v, want flag.ErrHelp", err)
	}
}
