// Package cost is kinelab's Transition-cost lab (tab 4, --lab cost). It
// shows the article "Inertialization Transition Cost"
// (docs/articles.md).
//
// On screen: heat maps over (position offset x, velocity offset v) of the exact
// inertialized displacement ∫|offset(t)| dt, the summed absolute
// difference |x| + w|v| that motion matching usually uses, and the error
// of the approximate feature |(2xy + v)/y²|; one picked (x, v) with its
// decaying offset, shaded area and zero crossing; and, beyond the
// article, a transition finder ranking every frame of the character's
// clips (the default ones, or loaded BVH) as a target from the playing
// pose by those costs, playing the inertialized transition to the chosen
// one (finder.go).
//
// Units: x in m, v in m/s, the exact and approximate costs in m·s, the SAD
// cost in m (its velocity weight w is in s), half-lives in s.
//
// What the user can do: set the half-life (+ and -, or --halflife), the maps'
// ranges and the SAD cost's velocity weight; click a map, or Ctrl+drag in
// it, to pick an offset and see its decay curve, or step through examples
// (P); rank the character's frames as targets by the exact, SAD or feature
// cost (R) and play the best (B) or any listed one, or let the lab play the
// best every few seconds (A), comparing the predicted cost with the one
// measured through FK. --csv writes the whole grid at the --halflife. BVH
// files replace the character whose frames are ranked.
package cost
