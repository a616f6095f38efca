package cli

import (
	"os"
	"testing"
)

func TestZZPrint(t *testing.T) {
	if os.Getenv("PRINTCLI") == "" {
		t.Skip()
	}
	Verify(nil, os.Stdout, os.Stderr)
}

func TestZZBench(t *testing.T) {
	if os.Getenv("PRINTBENCH") == "" {
		t.Skip()
	}
	Bench(nil, os.Stdout, os.Stderr)
	Bench([]string{"--json", "--characters", "1000", "--threads", "2"}, os.Stdout, os.Stderr)
}
