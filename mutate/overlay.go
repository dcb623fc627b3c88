package mutate

import (
	"fmt"
	"go/types"
	"path/filepath"
	"strings"
)

// paths returns the absolute paths of m's mutated file and helper file
// ("" if none), and its package.
func (p *Program) paths(m Mutant) (file, helper string, pkg *Package, err error) {
	pkg = p.byPath[m.Package]
	if pkg == nil {
		return "", "", nil, fmt.Errorf("mutant %s: package %s is not loaded", m.ID, m.Package)
	}
	file = filepath.Join(p.Module.Dir, filepath.FromSlash(m.File))
	if m.HelperFile != "" {
		helper = filepath.Join(pkg.Dir, m.HelperFile)
	}
	return file, helper, pkg, nil
}

// mutated returns m's file name, original content and mutated content.
func (p *Program) mutated(m Mutant) (name string, orig, mut []byte, err error) {
	name, _, _, err = p.paths(m)
	if err != nil {
		return "", nil, nil, err
	}
	orig, ok := p.source(name)
	if !ok {
		return "", nil, nil, fmt.Errorf("mutant %s: %s is not a loaded file", m.ID, m.File)
	}
	mut, err = m.Apply(orig)
	if err != nil {
		return "", nil, nil, fmt.Errorf("mutant %s: %v", m.ID, err)
	}
	return name, orig, mut, nil
}

// Overlay returns what building m needs replaced or added: absolute path ->
// content (the mutated file, and the helper file if any). Use it to write
// a go build -overlay JSON.
func (p *Program) Overlay(m Mutant) (map[string][]byte, error) {
	name, _, mut, err := p.mutated(m)
	if err != nil {
		return nil, err
	}
	ov := map[string][]byte{name: mut}
	if _, helper, _, _ := p.paths(m); helper != "" {
		ov[helper] = []byte(m.Helper)
	}
	return ov, nil
}

// Diff returns m's unified diff with module-relative paths (a/F, b/F). A
// helper file appears as a new file.
func (p *Program) Diff(m Mutant) (string, error) {
	_, orig, mut, err := p.mutated(m)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(UnifiedDiff("a/"+m.File, "b/"+m.File, string(orig), string(mut)))
	if m.HelperFile != "" {
		_, helper, _, _ := p.paths(m)
		rel, err := filepath.Rel(p.Module.Dir, helper)
		if err != nil {
			return "", err
		}
		b.WriteString(UnifiedDiff("/dev/null", "b/"+filepath.ToSlash(rel), "", m.Helper))
	}
	return b.String(), nil
}

// relErr renders a type error with a module-relative position.
func (p *Program) relErr(err error) string {
	msg := firstLine(err)
	if rel, e := filepath.Rel(p.Module.Dir, msg); e == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return msg
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func firstLine(err error) string { return oneLine(err.Error()) }
