package app

import (
	"encoding/csv"
	"fmt"
	"strconv"

	"kinelab/animsys/export"
)

// CSVFloat formats a float32 for CSV with the fewest digits that parse
// back to the same value: the one number format of every lab's CSV
// (export.CSVFloat).
func CSVFloat(x float32) string { return export.CSVFloat(x) }

// CSVTime formats a simulated time (s) for CSV's first column: to the
// microsecond, so a time that 1/60 s steps add up to reads 0.016667
// (export.CSVTime).
func CSVTime(t float64) string { return export.CSVTime(t) }

// CSVBool formats a switch for CSV.
func CSVBool(b bool) string { return strconv.FormatBool(b) }

// CSVFile is the --csv file of a headless run: a lab's header, then its
// rows. It is written through an export.Output: a run that fails to
// write it leaves what was at its path.
type CSVFile struct {
	f    *export.Output
	w    *csv.Writer
	rows [][]string
	lab  Lab // the lab whose header was written
}

// CreateCSV creates the --csv file at path for lab, which must have a
// CSV header.
func CreateCSV(path string, lab Lab) (*CSVFile, error) {
	if lab.CSVHeader() == nil {
		return nil, fmt.Errorf("--csv: lab %s has no signals to export", lab.Name())
	}
	f, err := export.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--csv: %w", err)
	}
	return &CSVFile{f: f, w: csv.NewWriter(f)}, nil
}

// Write appends the rows of the lab's last update (and the header first).
// A lab with no CSV header writes nothing. A write error is kept
// by the csv.Writer and returned by Close.
func (c *CSVFile) Write(lab Lab) {
	if c.lab != lab {
		head := lab.CSVHeader()
		if head == nil {
			return
		}
		c.lab = lab
		_ = c.w.Write(head)
	}
	c.rows = lab.CSVRows(c.rows[:0])
	for _, row := range c.rows {
		_ = c.w.Write(row)
	}
}

// Abort gives the file up: the path is as it was.
func (c *CSVFile) Abort() { c.f.Abort() }

// Close flushes the file and puts it in place; after an error the path
// is as it was.
func (c *CSVFile) Close() error {
	c.w.Flush()
	err := c.w.Error()
	if err == nil {
		err = c.f.Commit()
	}
	c.f.Abort()
	if err != nil {
		return fmt.Errorf("--csv: %w", err)
	}
	return nil
}
