// Package racebuild tells whether the race detector is built in, for
// tests whose long single-goroutine work it slows tenfold or more, with
// nothing to find in it that a shorter run does not show.
package racebuild
