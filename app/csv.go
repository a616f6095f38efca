package app

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
)

// csvOut is the --csv file of a headless run.
type csvOut struct {
	f   *os.File
	w   *csv.Writer
	row []string
	lab Lab // the lab whose header was written
}

func (a *App) openCSV(path string) error {
	if _, ok := a.lab().(CSVExporter); !ok {
		return fmt.Errorf("--csv: lab %s has no signals to export", a.lab().Name())
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--csv: %v", err)
	}
	a.csv = &csvOut{f: f, w: csv.NewWriter(bufio.NewWriter(f))}
	return nil
}

// CSVTableExporter is a CSVExporter that writes any number of rows per update instead
// of one: none, or a whole table at once (the Transition-cost lab writes
// its grid on the first update). The App calls CSVRows instead of CSVRow.
type CSVTableExporter interface {
	CSVExporter
	CSVRows() [][]string
}

// writeCSVRow appends the lab's current signals (and the header first).
func (a *App) writeCSVRow(lab Lab) {
	c, ok := lab.(CSVExporter)
	if a.csv == nil || !ok {
		return
	}
	if a.csv.lab != lab {
		a.csv.lab = lab
		_ = a.csv.w.Write(c.CSVHeader())
	}
	if r, ok := lab.(CSVTableExporter); ok {
		for _, row := range r.CSVRows() {
			_ = a.csv.w.Write(row)
		}
		return
	}
	a.csv.row = c.CSVRow(a.csv.row[:0])
	_ = a.csv.w.Write(a.csv.row)
}

func (a *App) closeCSV() error {
	if a.csv == nil {
		return nil
	}
	a.csv.w.Flush()
	err := a.csv.w.Error()
	if cerr := a.csv.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--csv: %v", err)
	}
	return nil
}
