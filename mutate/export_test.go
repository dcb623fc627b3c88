package mutate

// CheckFull is Check without the reduced check: the whole package,
// always. The reduced check is tested against it.
func (p *Program) CheckFull(m Mutant) error { return p.check(m, false) }

// CheckReduced runs only the reduced check of a local mutant (see
// checkPkg.local); local is false, and err nil, for the others.
func (p *Program) CheckReduced(m Mutant) (local bool, err error) {
	name, orig, _, err := p.mutated(m)
	if err != nil {
		return false, err
	}
	cp := p.checkPkg(p.byPath[m.Package])
	fi := cp.index[name]
	if !cp.local(fi, orig, m.Edits) {
		return false, nil
	}
	src, err := ApplyEdits(cp.blankBodies(fi, orig, m.Edits), m.Edits)
	if err != nil {
		return true, err
	}
	return true, p.typeCheck(m, cp, fi, src, cp.reducedFiles(), true)
}
