package matching

import "testing"

// The table shows a mirrored clip's name as a star and its head, the
// time kept: its " (mirrored)" took the room of the head.
func TestTableName(t *testing.T) {
	for in, want := range map[string]string{
		"obstacles_3 (mirrored) @ 6.73 s": "*obstacles_3 @ 6.73 s",
		"walk @ 1.25 s":                   "walk @ 1.25 s",
		"a (mirrored) b @ 2.00 s":         "a (mirrored) b @ 2.00 s",
	} {
		if got, m := tableName(in); got != want || m != (got != in) {
			t.Errorf("tableName(%q) = %q, %v; want %q", in, got, m, want)
		}
	}
}
