// Package scalar is kinelab's Scalar-velocity lab (tab 3, --lab scalar).
// It shows the article "Scalar Velocity" (docs/articles.md).
//
// On screen: objects on the ground
// growing from 0.1 to 10 by a naive (additive) and a natural (log/exp)
// scalar velocity side by side; lerp beside eerp; an object moved by a
// base-2 scalar velocity with its doublelife / half-life; a scale spring
// beside a quaternion spring; and a small hierarchy whose parent's scalar
// velocity adds the "expansion" term to its children's linear velocities,
// propagated by animsys.FK (red) beside the finite difference (blue).
//
// Units: scales are ratios (no unit); naive velocities are scale units per
// second; natural scalar velocities (animsys poses) are e-foldings per
// second (1/s); base-2 scalar velocities (the spring package's scale spring,
// the Base-2 object) are doublings per second. The two meet in the
// hierarchy, where the scale spring's base-2 velocity times ln 2 is the
// natural one FK takes.
//
// What the user can do: set the growth's duration and restart it (R); move
// or animate lerp and eerp's alpha; set the base-2 velocity (Up, Down) and
// read its doublelife and half-life; give the scale and quaternion springs
// new goals (G, the panel's buttons; U for uniform scale goals) and set
// their half-life (--halflife too); drive the hierarchy's parent scale by an
// oscillation or the scale spring (S), spin its root and elbow, and show FK
// without the expansion term (E); pick the plot beside the hierarchy's (P).
// --csv writes every demo's values with units in the header.
package scalar
