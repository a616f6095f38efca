package app

import (
	"encoding/csv"
	"fmt"
	"strconv"

	"kinelab/animsys/export"
)

// CSVExporter is a lab whose signals --csv writes. The header names every
// column with its unit, e.g. "t_s". CSVRows appends the rows the last
// update adds to rows and returns it: one row of signals for a lab that
// plots them over time; for a lab whose data is a table (the
// Transition-cost lab's grid), the whole table on the first update and
// nothing after (its LabEntry gives CSVFrames, so it needs no --frames).
type CSVExporter interface {
	CSVHeader() []string
	CSVRows(rows [][]string) [][]string
}

// CSVFloat formats a float32 for CSV with the fewest digits that parse
// back to the same value: the one number format of every lab's CSV.
func CSVFloat(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }

// CSVTime formats a simulated time (s) for CSV's first column: to the
// microsecond, so a time that 1/60 s steps add up to reads 0.016667.
func CSVTime(t float64) string { return strconv.FormatFloat(t, 'f', 6, 64) }

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

// CreateCSV creates the --csv file at path for lab, which must be a
// CSVExporter.
func CreateCSV(path string, lab Lab) (*CSVFile, error) {
	if _, ok := lab.(CSVExporter); !ok {
		return nil, fmt.Errorf("--csv: lab %s has no signals to export", lab.Name())
	}
	f, err := export.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--csv: %v", err)
	}
	return &CSVFile{f: f, w: csv.NewWriter(f)}, nil
}

// Write appends the rows of the lab's last update (and the header first).
// A lab that is not a CSVExporter writes nothing. A write error is kept
// by the csv.Writer and returned by Close.
func (c *CSVFile) Write(lab Lab) {
	e, ok := lab.(CSVExporter)
	if !ok {
		return
	}
	if c.lab != lab {
		c.lab = lab
		_ = c.w.Write(e.CSVHeader())
	}
	c.rows = e.CSVRows(c.rows[:0])
	for _, row := range c.rows {
		_ = c.w.Write(row)
	}
}

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
		return fmt.Errorf("--csv: %v", err)
	}
	return nil
}
