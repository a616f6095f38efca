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
