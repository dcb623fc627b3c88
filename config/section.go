package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// A Section is a top-level key of the file that an operator owns, as an
// analysis.Analyzer owns its Flags. Operators sharing options (oblivion and
// global-oblivion) share one Section value.
type Section struct {
	// Key is the section's top-level key, e.g. "spin-loop".
	Key string

	// New returns the section's options at their defaults: a pointer to a
	// struct whose yaml-tagged fields are the section's keys, or to a slice
	// of such structs for a list section. A struct field declared
	// `Line int yaml:"-"` receives the line of its mapping in the file.
	// A list key whose default is not empty may not be set to an empty
	// list (the operator would report nothing; disable it instead).
	//
	// The value may implement Validator and NameChecker.
	New func() any
}

// A Validator checks decoded options beyond what their types say (sizes in
// range, required fields). Its errors should be ValueErrors, which say where
// the bad value is; Parse reports them as path:line: msg.
type Validator interface {
	Validate() error
}

// A NameChecker checks options that name code (functions, variables)
// against the loaded program; Config.CheckNames calls it. Its errors should
// be ValueErrors with the Line of the entry at fault.
type NameChecker interface {
	CheckNames(r Resolver) error
}

// A ValueError is a bad value in a section, found by a Validator or a
// NameChecker.
type ValueError struct {
	// At locates the value below the section's key: map keys (strings) and
	// list indexes (ints), e.g. {"iterations", 1}. Empty means the section.
	At []any
	// Line is the value's line, for a checker that knows it (an entry's
	// Line field) rather than its place; it wins over At.
	Line int
	Msg  string
}

func (e *ValueError) Error() string { return e.Msg }

// Invalid returns a ValueError for the value at at.
func Invalid(at []any, format string, args ...any) error {
	return &ValueError{At: at, Msg: fmt.Sprintf(format, args...)}
}

// InvalidAtLine returns a ValueError for the value at line.
func InvalidAtLine(line int, format string, args ...any) error {
	return &ValueError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// A Schema is what a file may hold beyond the fixed keys (operators,
// packages, metrics, skip-benchmarks): the valid operator names (nil: any)
// and the operators' sections, in the order the valid keys are listed.
type Schema struct {
	Operators []string
	Sections  []*Section
}

// fixedKeys returns the keys of Config itself.
func fixedKeys() []string {
	return []string{"operators", "packages", "metrics", "skip-benchmarks"}
}

// Validate checks the schema: every section has a key that no other
// section and no fixed key uses, and a New returning a pointer.
func (s Schema) Validate() error {
	var errs []error
	keys := map[string]*Section{}
	for _, k := range fixedKeys() {
		keys[k] = nil
	}
	for _, sec := range s.sections() {
		if other, dup := keys[sec.Key]; dup {
			if other == nil {
				errs = append(errs, fmt.Errorf("section %q: the key is one of the file's own keys", sec.Key))
			} else {
				errs = append(errs, fmt.Errorf("section %q: two sections have that key; operators sharing options share one *Section", sec.Key))
			}
			continue
		}
		keys[sec.Key] = sec
		if sec.New == nil {
			errs = append(errs, fmt.Errorf("section %q: New is nil", sec.Key))
		} else if v := sec.New(); v == nil || reflect.TypeOf(v).Kind() != reflect.Pointer {
			errs = append(errs, fmt.Errorf("section %q: New returns %T, want a pointer", sec.Key, v))
		}
	}
	return errors.Join(errs...)
}

// sections returns the distinct sections of s, in order.
func (s Schema) sections() []*Section {
	var out []*Section
	for _, sec := range s.Sections {
		if sec != nil && !containsSection(out, sec) {
			out = append(out, sec)
		}
	}
	return out
}

func containsSection(secs []*Section, s *Section) bool {
	for _, x := range secs {
		if x == s {
			return true
		}
	}
	return false
}

// Section returns the options of s: decoded from the file, or the defaults
// (a fresh s.New()) when the file has no such section or s is not in the
// schema it was parsed with. It returns nil for a nil s.
func (c *Config) Section(s *Section) any {
	if s == nil {
		return nil
	}
	if v, ok := c.sections[s.Key]; ok {
		return v
	}
	return s.New()
}

// CheckNames checks the names that the sections' options give (functions,
// callers, variables) against r, and reports the first one r does not
// know as path:line: msg.
func (c *Config) CheckNames(r Resolver) error {
	for _, s := range c.order {
		nc, ok := c.sections[s.Key].(NameChecker)
		if !ok {
			continue
		}
		if err := nc.CheckNames(r); err != nil {
			var ve *ValueError
			if errors.As(err, &ve) {
				return &Error{Path: c.Path, Line: ve.Line, Msg: ve.Msg}
			}
			return &Error{Path: c.Path, Msg: s.Key + ": " + err.Error()}
		}
	}
	return nil
}

// A Resolver answers whether names exist in the loaded program;
// mutate.Program implements it.
type Resolver interface {
	HasFunc(name string) bool                       // pkg/path.Func or (*pkg/path.T).M
	HasFunction(name string) bool                   // a declared function: Lower, T.M, (*T).M
	HasLocalVar(name string, callers []string) bool // a local variable, in callers if any
	PackageLoaded(path string) bool                 // the package was loaded (in scope or a dependency)
	// Complete reports whether the whole module was loaded. When it was
	// not, entries about code that was not loaded cannot be checked and
	// are skipped (they cannot apply to the loaded code either).
	Complete() bool
}

// ParseFuncName splits a function name of the forms pkg/path.Func,
// (*pkg/path.T).M and (pkg/path.T).M into its package path, receiver type
// name ("" for a function), whether the receiver is a pointer, and the
// function or method name.
func ParseFuncName(name string) (path, recv string, ptr bool, fn string, ok bool) {
	if rest, found := strings.CutPrefix(name, "("); found {
		end := strings.Index(rest, ").")
		if end < 0 {
			return "", "", false, "", false
		}
		t, m := rest[:end], rest[end+2:]
		t, ptr = strings.CutPrefix(t, "*")
		dot := strings.LastIndex(t, ".")
		if dot <= 0 || dot < strings.LastIndex(t, "/") || dot == len(t)-1 || m == "" || strings.Contains(m, ".") {
			return "", "", false, "", false
		}
		return t[:dot], t[dot+1:], ptr, m, true
	}
	dot := strings.LastIndex(name, ".")
	if dot <= 0 || dot < strings.LastIndex(name, "/") || dot == len(name)-1 {
		return "", "", false, "", false
	}
	return name[:dot], "", false, name[dot+1:], true
}
