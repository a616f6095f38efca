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
