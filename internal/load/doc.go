// Package load loads what a perfmut command acts on: the module's
// configuration (perfmut.yaml or -config), its packages and the mutants of
// the enabled operators, narrowed to the IDs and the changed lines asked
// for. Bad input (not a module, no matching packages, a package that does
// not type-check, a bad configuration, operator or mutant ID) comes back as
// an *inputerr.Error.
package load
