package mutate

import (
	"context"
	"errors"

	"github.com/perfmut/perfmut/config"
)

// API CONTRACT (stubs; the engine work replaces the bodies, keeps the
// signatures; it may add fields and methods).

// Options says what to load and how to mutate it.
type Options struct {
	Dir       string   // module directory or a directory inside it (like go -C); "" = current
	Patterns  []string // package patterns, e.g. ./...; empty = ./...
	Tags      []string // build tags
	Config    *config.Config
	Operators []*Operator // the enabled operators (already filtered by config / -operators)
}

// Module describes the loaded main module.
type Module struct {
	Path      string // module path
	Dir       string // absolute module root
	GoVersion string // go directive
}

// Package is one loaded, in-scope package.
type Package struct {
	ImportPath string
	Name       string
	Dir        string   // absolute
	Imports    []string // direct imports that are packages of the main module
	Files      []string // absolute paths of the mutable files (no tests, no generated)
}

// Program is a loaded module, ready to generate mutants.
type Program struct {
	Module   Module
	Packages []*Package
}

// Load loads the packages matching opts.Patterns with full type information.
func Load(ctx context.Context, opts Options) (*Program, error) {
	return nil, errors.New("not implemented")
}

// Generate runs the operators over every in-scope file and returns the
// mutants in a stable order (file, offset, operator, params).
func (p *Program) Generate() ([]Mutant, error) { return nil, errors.New("not implemented") }

// Overlay returns what building m needs replaced or added: absolute path ->
// content (the mutated file, and the helper file if any). Use it to write
// a go build -overlay JSON.
func (p *Program) Overlay(m Mutant) (map[string][]byte, error) {
	return nil, errors.New("not implemented")
}

// Diff returns m's unified diff with module-relative paths (a/F, b/F).
func (p *Program) Diff(m Mutant) (string, error) { return "", errors.New("not implemented") }

// Check type-checks the mutated package in-process; nil if it compiles.
func (p *Program) Check(m Mutant) error { return errors.New("not implemented") }
