package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchunit"
	"gopkg.in/yaml.v3"
)

// An Error is a problem with a configuration file at a line. It prints as
// path:line: msg.
type Error struct {
	Path string
	Line int // 0 if unknown
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// Load reads the configuration file at path. Keys it does not set keep
// their Default values. display is the name used in error messages (e.g.
// the path relative to the working directory; "" means path). known lists
// the valid operator names; nil skips that check.
func Load(path, display string, known []string) (*Config, error) {
	if display == "" {
		display = path
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{Path: display, Msg: "no such file"}
		}
		return nil, &Error{Path: display, Msg: err.Error()}
	}
	c, err := Parse(data, display, known)
	if err != nil {
		return nil, err
	}
	return c, nil
}

var yamlLineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// Parse decodes and validates a configuration. name is used as Path and in
// error messages.
func Parse(data []byte, name string, known []string) (*Config, error) {
	c := Default()
	c.Path = name
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && err != io.EOF {
		return nil, yamlError(name, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(name, err)
	}
	if err := c.validate(&root, known); err != nil {
		return nil, err
	}
	return c, nil
}

// yamlError turns a yaml.v3 error into an Error with a line.
func yamlError(name string, err error) error {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	msg := strings.TrimPrefix(msgs[0], "yaml: ")
	line := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	return &Error{Path: name, Line: line, Msg: friendlier(msg)}
}

var (
	unknownFieldRE = regexp.MustCompile(`^field (\S+) not found in type config\.(\w+)$`)
	cannotRE       = regexp.MustCompile("^cannot unmarshal !!(\\w+) (?:`(.*)` )?into (.*)$")
)

// friendlier rewrites yaml.v3's messages about Go types into ones about
// the file.
func friendlier(msg string) string {
	if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("unknown key %q%s", m[1], validKeys(m[2]))
	}
	if m := cannotRE.FindStringSubmatch(msg); m != nil {
		want := m[3]
		switch {
		case want == "time.Duration":
			want = "a duration such as 1ms or 500us"
		case strings.HasPrefix(want, "[]"):
			want = "a list"
		case want == "int":
			want = "an integer"
		case want == "string":
			want = "a string"
		case strings.HasPrefix(want, "config."):
			want = "a mapping"
		}
		what := m[1]
		if what == "seq" {
			what = "list"
		} else if what == "map" {
			what = "mapping"
		}
		if m[2] == "" {
			return fmt.Sprintf("got a %s, want %s", what, want)
		}
		return fmt.Sprintf("got %s %q, want %s", what, m[2], want)
	}
	return msg
}

// validKeys lists the keys of the named config type for an error message.
func validKeys(typ string) string {
	keys := map[string]string{
		"Config":       "operators, packages, spin-loop, sleep, alloc-churn, oblivion, critical-spin, tail-spike, call-replace, var-replace, metrics, skip-benchmarks",
		"Packages":     "include, exclude",
		"SpinLoop":     "iterations",
		"Sleep":        "durations",
		"AllocChurn":   "bytes",
		"Oblivion":     "blacklist",
		"CriticalSpin": "iterations",
		"TailSpike":    "every, durations",
		"CallReplace":  "func, value, callers",
		"VarReplace":   "var, value, callers",
	}[typ]
	if keys == "" {
		return ""
	}
	return " (valid keys: " + keys + ")"
}

// validate checks values the decoder cannot: operator names, positive
// sizes, Q2 entries' fields. It also records the Q2 entries' lines.
func (c *Config) validate(root *yaml.Node, known []string) error {
	errAt := func(n *yaml.Node, format string, args ...any) error {
		line := 0
		if n != nil {
			line = n.Line
		}
		return &Error{Path: c.Path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	top := mappingRoot(root)
	if known != nil {
		set := make(map[string]bool, len(known))
		for _, k := range known {
			set[k] = true
		}
		items := seqItems(lookup(top, "operators"))
		for i, name := range c.Operators {
			if !set[name] {
				sorted := append([]string(nil), known...)
				sort.Strings(sorted)
				return errAt(item(items, i, top), "unknown operator %q (known: %s)", name, strings.Join(sorted, ", "))
			}
		}
	}
	for i, n := range c.SpinLoop.Iterations {
		if n <= 0 || n > 1e9 {
			return errAt(item(seqItems(lookup(lookup(top, "spin-loop"), "iterations")), i, top), "spin-loop iterations must be between 1 and 1e9, got %d", n)
		}
	}
	for i, d := range c.Sleep.Durations {
		if d <= 0 || d > time.Minute {
			return errAt(item(seqItems(lookup(lookup(top, "sleep"), "durations")), i, top), "sleep duration must be positive and at most 1m, got %v", d)
		}
	}
	for i, n := range c.AllocChurn.Bytes {
		if n <= 0 || n > 1<<30 {
			return errAt(item(seqItems(lookup(lookup(top, "alloc-churn"), "bytes")), i, top), "alloc-churn bytes must be between 1 and 1GiB, got %d", n)
		}
	}
	for i, n := range c.CriticalSpin.Iterations {
		if n <= 0 || n > 1e9 {
			return errAt(item(seqItems(lookup(lookup(top, "critical-spin"), "iterations")), i, top), "critical-spin iterations must be between 1 and 1e9, got %d", n)
		}
	}
	for i, n := range c.TailSpike.Every {
		if n < 1 || n > 1e9 {
			return errAt(item(seqItems(lookup(lookup(top, "tail-spike"), "every")), i, top), "tail-spike every must be between 1 and 1e9 (1 sleeps at every execution), got %d", n)
		}
	}
	for i, d := range c.TailSpike.Durations {
		if d <= 0 || d > time.Minute {
			return errAt(item(seqItems(lookup(lookup(top, "tail-spike"), "durations")), i, top), "tail-spike duration must be positive and at most 1m, got %v", d)
		}
	}
	for _, key := range []string{"spin-loop", "sleep", "alloc-churn", "critical-spin", "tail-spike"} {
		if n := lookup(top, key); n != nil && n.Kind == yaml.MappingNode {
			for i := 1; i < len(n.Content); i += 2 {
				if v := n.Content[i]; v.Kind == yaml.SequenceNode && len(v.Content) == 0 {
					return errAt(v, "%s.%s is empty; remove the key to use the defaults or disable the operator with operators:", key, n.Content[i-1].Value)
				}
			}
		}
	}
	for i, u := range c.Metrics {
		// The runner reads units as benchfmt tidies them (p99-ns/op is
		// p99-sec/op there); compare in that form.
		_, c.Metrics[i] = benchunit.Tidy(1, u)
	}
	skipItems := seqItems(lookup(top, "skip-benchmarks"))
	for i, pat := range c.SkipBenchmarks {
		for _, part := range strings.Split(pat, "/") {
			if _, err := regexp.Compile(part); err != nil {
				return errAt(item(skipItems, i, top), "skip-benchmarks %q is not a regular expression: %v", pat, err)
			}
		}
	}
	callItems := seqItems(lookup(top, "call-replace"))
	for i := range c.CallReplace {
		e := &c.CallReplace[i]
		n := item(callItems, i, top)
		e.Line = n.Line
		if e.Func == "" {
			return errAt(n, "call-replace entry needs func: (e.g. example.com/m/pkg.isASCII or (*example.com/m/pkg.T).M)")
		}
		if !validFuncName(e.Func) {
			return errAt(n, "call-replace func %q must be pkg/path.Func, (*pkg/path.T).M or (pkg/path.T).M", e.Func)
		}
		if strings.TrimSpace(e.Value) == "" {
			return errAt(n, "call-replace entry for %s needs value: (a Go expression, e.g. \"false\")", e.Func)
		}
	}
	varItems := seqItems(lookup(top, "var-replace"))
	for i := range c.VarReplace {
		e := &c.VarReplace[i]
		n := item(varItems, i, top)
		e.Line = n.Line
		if e.Var == "" {
			return errAt(n, "var-replace entry needs var: (the name of a local variable)")
		}
		if strings.TrimSpace(e.Value) == "" {
			return errAt(n, "var-replace entry for %s needs value: (a Go expression, e.g. \"false\")", e.Var)
		}
	}
	return nil
}

// validFuncName checks the syntax of a Q2 function name.
func validFuncName(s string) bool {
	_, _, _, _, ok := ParseFuncName(s)
	return ok
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

// CheckNames reports the first Q2 entry naming a function, caller or
// variable that r does not know, as path:line: msg.
func (c *Config) CheckNames(r Resolver) error {
	errAt := func(line int, format string, args ...any) error {
		return &Error{Path: c.Path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	checkCallers := func(line int, what string, callers []string) error {
		for _, fn := range callers {
			if !r.HasFunction(fn) && r.Complete() {
				return errAt(line, "%s: caller %s is not a function of the loaded packages (write it as Lower, T.M or (*T).M)", what, fn)
			}
		}
		return nil
	}
	for _, e := range c.CallReplace {
		if !r.HasFunc(e.Func) {
			path, _, _, _, _ := ParseFuncName(e.Func)
			if r.Complete() || r.PackageLoaded(path) {
				return errAt(e.Line, "call-replace: function %s does not exist in the loaded packages", e.Func)
			}
		}
		if err := checkCallers(e.Line, "call-replace", e.Callers); err != nil {
			return err
		}
	}
	for _, e := range c.VarReplace {
		if err := checkCallers(e.Line, "var-replace", e.Callers); err != nil {
			return err
		}
		if !r.HasLocalVar(e.Var, e.Callers) && r.Complete() {
			where := "any function of the loaded packages"
			if len(e.Callers) > 0 {
				where = strings.Join(e.Callers, ", ")
			}
			return errAt(e.Line, "var-replace: no local variable %s in %s", e.Var, where)
		}
	}
	return nil
}

// mappingRoot returns the top-level mapping node of a document, or nil.
func mappingRoot(doc *yaml.Node) *yaml.Node {
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc == nil || doc.Kind != yaml.MappingNode {
		return nil
	}
	return doc
}

// lookup returns the value node of key in mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func seqItems(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// item returns items[i], or fallback if there is no such item.
func item(items []*yaml.Node, i int, fallback *yaml.Node) *yaml.Node {
	if i < len(items) {
		return items[i]
	}
	if fallback == nil {
		return &yaml.Node{}
	}
	return fallback
}
