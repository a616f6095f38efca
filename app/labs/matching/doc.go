// Package matching is kinelab's Motion-matching lab: the four articles
// driving one character the user steers. A spring-predicted trajectory
// (perfect-tracking-with-springs) and the output pose's exact velocities
// (propagating-velocities) make the query; a search over a database of
// clips — the embedded locomotion set or the user's captures, mirrored on
// request — finds the next frame by one of three feature sets (standard,
// article 4's inertialization feature, or the exact transition cost
// re-ranking the best); the transition is inertialized (spring, cubic or
// dead blending) with velocities propagated through it, drawn red beside
// the finite difference's blue. A table shows the best candidates with
// each term's cost, plots the cost and the clip over time, and the last
// 10 s of decisions can be stepped back through. On the embedded set a
// switch (--controller learned) hands the frames to the learned
// controller (learned motion matching): its decompressor's own
// velocities drawn green beside red and blue, its memory against the
// database's, and a plot of its pose's distance from the database frame
// its state stands for. The math is package
// kinelab/animsys/matching; this package is its screen.
package matching
