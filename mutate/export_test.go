package mutate

// CheckFull is Check without leaving out the other files' function
// bodies: the reference the fast path is tested against.
func (p *Program) CheckFull(m Mutant) error { return p.check(m, false) }
