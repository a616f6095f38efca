// Package tracking is kinelab's Tracking lab (tab 2, --lab tracking). It
// shows the article "Perfect Tracking with Springs" (docs/articles.md).
//
// On screen: a 1-D signal
// with discontinuities is tracked at once by a stiff plain spring, the
// lerp-gain tracking spring, the half-life ("improved") one and the exact
// dt-invariant one, each fed the signal's position, finite-difference
// velocity and acceleration through spring.CutTracker (known cuts, or
// clipped targets for unknown ones). Every tick runs at the shared clock's
// dt, so the Playback panel's tick rate and jitter show which springs are
// dt-invariant. Beyond the article, the same filter smooths a character's
// joints across cuts in its clip (pose.go).
//
// What the user can do: pick the input signal (G: two signals swapped, random
// jumps, or one drawn with Ctrl+drag in the top plot) and make it jump now
// (J); set the plain spring's half-life and the tracking springs' gains and
// half-lives; turn known-cut handling (K) and velocity/acceleration clipping
// (L) on and off; change the tick rate and jitter in the Playback panel to
// see which springs are dt-invariant; and watch a character whose clip has
// cuts (X cuts it now, M shows it, V picks its filter), raw beside filtered.
// --csv writes the input and every variant's position and velocity.
package tracking
