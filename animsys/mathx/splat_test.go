package mathx

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// Lane code takes its constants from this package's konst globals (Zero
// and Half outside it), never from Splat of a constant (the package
// doc's rule). This reads animsys and mathx for a Splat whose argument is
// made of literals and named math constants only.
func TestNoSplatOfConstants(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.go", "../*.go"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d files of animsys and mathx to read", len(files))
	}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || !isSplat(call.Fun) {
				return true
			}
			if constant(call.Args[0]) {
				t.Errorf("%s: Splat of a constant: use a konst global (mathx.Zero, Half)", fset.Position(call.Pos()))
			}
			return true
		})
	}
}

func isSplat(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name == "Splat"
	case *ast.SelectorExpr:
		return f.Sel.Name == "Splat"
	}
	return false
}

// constant reports whether e is made of literals and math's named
// constants (math.Pi, math.MaxFloat32, ...) only.
func constant(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return constant(e.X)
	case *ast.UnaryExpr:
		return constant(e.X)
	case *ast.BinaryExpr:
		return constant(e.X) && constant(e.Y)
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "math"
	case *ast.CallExpr: // float32(...)
		id, ok := e.Fun.(*ast.Ident)
		return ok && id.Name == "float32" && len(e.Args) == 1 && constant(e.Args[0])
	}
	return false
}
