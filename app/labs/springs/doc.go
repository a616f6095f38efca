// Package springs is kinelab's Springs lab (tab 5, --lab springs). It shows
// the springs the articles lean on (docs/spring-math.md).
//
// On screen: one goal chased at once by the exact damper, the critical spring, the general
// spring-damper — its damping ratio slider walks it through the under-,
// critically and over-damped regimes — and the inertializer's decay spring,
// which carries the offset left by each jump of the goal to zero while
// following the goal's own motion exactly. The goal steps, ramps or swings
// by itself, on the S and R keys, or follows a Ctrl+drag in the top plot.
//
// What the user can do: pick the goal's motion (G: steps, ramps or a sine),
// step (S) or ramp (R) it now, repeat steps and ramps on a period (A), or
// drag it with Ctrl+drag in the top plot; set each spring's half-life, the
// general spring's frequency and damping ratio (Z cycles under-, critically
// and over-damped) and whether the springs get the goal's velocity (Q);
// and change the tick rate in the Playback panel. --csv writes the goal and
// every spring's position and velocity.
package springs
