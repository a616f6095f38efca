package bvh

import "os"

// ReadFile parses the BVH file at path. The file goes to Parse as it is, so
// Parse can size the motion data from the file's length up front.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return Parse(fh, path)
}

// UnitsFor is the units to read f in: the user's choice (anything
// ParseUnits takes), or DetectUnits(f) for "" or "auto".
func UnitsFor(f *File, choice string) (Units, error) {
	if choice == "" || choice == "auto" {
		return DetectUnits(f), nil
	}
	return ParseUnits(choice)
}
