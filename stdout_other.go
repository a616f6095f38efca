//go:build !linux

package main

// stdoutClosed is false where kinelab cannot tell: see stdout_linux.go.
func stdoutClosed() bool { return false }
