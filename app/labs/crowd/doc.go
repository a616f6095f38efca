// Package crowd is kinelab's Crowd lab (tab 6, --lab crowd). It shows the
// velocity chain of "Propagating Velocities through Animation Systems"
// (docs/articles.md) at scale: the core benchmark's chain
// (docs/bench-spec.md) ticked for a crowd.
//
// On screen (issue 8): hundreds of characters, each with its own two clips
// (the default character's, a loaded BVH character's, or the bench-spec
// library), start times, additive pose and inertialization offset, ticked
// through the bench-spec velocity chain (kinelab/animsys/crowd) over a pool
// of worker goroutines. They stand on a grid, each pinned to its cell
// (walking in place), and are drawn with a simplified skinned body (a
// generated one, or a glTF character's own mesh, simplified alike to 250,
// 150 and 100 vertices by distance), or as skeleton lines beyond a
// distance or a count. The readout times the tick and the drawing
// separately; one picked character shows its propagated (red) and
// finite-difference (blue) world velocities. The characters' state is
// held to crowd.MemoryBudget (1 GiB): a count of a large skeleton that
// would not fit is reduced to what does, and the messages say so.
//
// What the user can do: set the number of characters (+ doubles, - halves,
// up to 2,000), the worker threads (T) and the grid's spacing; choose the
// character's clips or the bench-spec library (B) and inertialization every
// 0.5 s (I); switch skinned bodies and skeleton lines (M) and set how many
// bodies are drawn and at which distances each level of detail is used;
// pick a character (P, or Ctrl+click) whose red and blue lines show (L).
// BVH files replace the character the crowd is made of.
package crowd
