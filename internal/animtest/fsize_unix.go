//go:build unix

package animtest

import (
	"bytes"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// UnderFileLimit runs the calling test again in a child process whose
// writes past n bytes of any file fail (EFBIG, as a full disk fails them;
// Go ignores SIGXFSZ): it returns true in the child, which runs the test,
// and false in this process once the child has passed. A child, because
// the limit would also stop this test binary's own log.
func UnderFileLimit(t *testing.T, n uint64) bool {
	t.Helper()
	if os.Getenv("KINELAB_TEST_FSIZE") != "" {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
		lim.Cur = n
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			t.Fatal(err)
		}
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), "KINELAB_TEST_FSIZE=1")
	if out, err := cmd.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Errorf("under a %d-byte file size limit: %v\n%s", n, err, out)
	}
	return false
}
