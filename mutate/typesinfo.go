package mutate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Types is the package's type-checked package (nil for a package built
// by hand rather than loaded by Load).
func (p *Package) Types() *types.Package {
	if p.pkg == nil {
		return nil
	}
	return p.pkg.Types
}

// TypesInfo is the type information of the package's syntax (nil for a
// package not loaded by Load).
func (p *Package) TypesInfo() *types.Info {
	if p.pkg == nil {
		return nil
	}
	return p.pkg.TypesInfo
}

// Syntax is the syntax of the package's mutable files, parallel to Files.
func (p *Package) Syntax() []*ast.File { return p.syntax }

// Fset is the file set of the package's syntax (nil for a package not
// loaded by Load).
func (p *Package) Fset() *token.FileSet {
	if p.pkg == nil {
		return nil
	}
	return p.pkg.Fset
}
