package app

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
)

// CSVFile is the --csv file of a headless run: a lab's header, then its
// rows, one per update (or the rows a CSVTableExporter gives).
type CSVFile struct {
	f   *os.File
	w   *csv.Writer
	row []string
	lab Lab // the lab whose header was written
}

// CreateCSV creates the --csv file at path for lab, which must be a
// CSVExporter.
func CreateCSV(path string, lab Lab) (*CSVFile, error) {
	if _, ok := lab.(CSVExporter); !ok {
		return nil, fmt.Errorf("--csv: lab %s has no signals to export", lab.Name())
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--csv: %v", err)
	}
	return &CSVFile{f: f, w: csv.NewWriter(bufio.NewWriter(f))}, nil
}

// CSVTableExporter is a CSVExporter that writes any number of rows per
// update instead of one: none, or a whole table at once (the
// Transition-cost lab writes its grid on the first update). The App calls
// CSVRows instead of CSVRow.
type CSVTableExporter interface {
	CSVExporter
	CSVRows() [][]string
}

// Write appends the lab's current signals (and the header first). A lab
// that is not a CSVExporter writes nothing.
func (c *CSVFile) Write(lab Lab) {
	e, ok := lab.(CSVExporter)
	if !ok {
		return
	}
	if c.lab != lab {
		c.lab = lab
		_ = c.w.Write(e.CSVHeader())
	}
	if r, ok := lab.(CSVTableExporter); ok {
		for _, row := range r.CSVRows() {
			_ = c.w.Write(row)
		}
		return
	}
	c.row = e.CSVRow(c.row[:0])
	_ = c.w.Write(c.row)
}

// Close flushes and closes the file.
func (c *CSVFile) Close() error {
	c.w.Flush()
	err := c.w.Error()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--csv: %v", err)
	}
	return nil
}
