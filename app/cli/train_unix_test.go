//go:build unix

package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO given as --networks, or lying where a training's checkpoint
// would be, is refused by name: read, it would block for ever (a FIFO
// nobody writes to), and nothing is written.
func TestNetworksFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "n.lmm")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	var out, errb bytes.Buffer
	code := Matching(context.Background(), []string{"eval", "--controller", "learned", "--networks", fifo, "--seconds", "1", "--path", "stand"}, &out, &errb)
	if code != ExitFail || !strings.Contains(errb.String(), "FIFO") {
		t.Errorf("eval --networks FIFO: exit %d, %q", code, errb.String())
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "m.lmm.ckpt"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	code = MatchingTrain(context.Background(), []string{"--steps", "2", "--width", "4", "--out", filepath.Join(dir, "m.lmm")}, &out, &errb)
	if code != ExitFail || !strings.Contains(errb.String(), "FIFO") {
		t.Errorf("train with a FIFO as its checkpoint: exit %d, %q", code, errb.String())
	}
}
