package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

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
// the path relative to the working directory; "" means path). schema says
// which operators and operator sections the file may name.
func Load(path, display string, schema Schema) (*Config, error) {
	if display == "" {
		display = path
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if target, lerr := os.Readlink(path); lerr == nil {
				return nil, &Error{Path: display, Msg: fmt.Sprintf("a symbolic link to %s, which does not exist", target)}
			}
			return nil, &Error{Path: display, Msg: "no such file"}
		}
		return nil, &Error{Path: display, Msg: err.Error()}
	}
	c, err := Parse(data, display, schema)
	if err != nil {
		return nil, err
	}
	return c, nil
}

var yamlLineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// Parse decodes and validates a configuration. name is used as Path and in
// error messages.
func Parse(data []byte, name string, schema Schema) (*Config, error) {
	if err := schema.Validate(); err != nil {
		return nil, fmt.Errorf("the operators' configuration sections: %w", err)
	}
	secs := schema.sections()
	c := Default()
	c.Path = name
	c.order = secs
	c.sections = make(map[string]any, len(secs))
	// The file is one struct: Config's own keys inline, then one field per
	// section holding its defaults, so that one strict decode checks every
	// key and type.
	fields := []reflect.StructField{{Name: "Config", Type: reflect.TypeOf(Config{}), Tag: `yaml:",inline"`}}
	for i, s := range secs {
		fields = append(fields, reflect.StructField{
			Name: fmt.Sprintf("S%d", i),
			Type: reflect.TypeOf(s.New()),
			Tag:  reflect.StructTag(fmt.Sprintf("yaml:%q", s.Key)),
		})
	}
	file := reflect.New(reflect.StructOf(fields)).Elem()
	file.Field(0).Set(reflect.ValueOf(*c))
	for i, s := range secs {
		file.Field(i + 1).Set(reflect.ValueOf(s.New()))
	}
	p := &parser{c: c, secs: secs, keys: map[string]string{}, kinds: map[string]string{}}
	p.addTypes(file.Type(), secs)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(file.Addr().Interface()); err != nil && err != io.EOF {
		return nil, p.yamlError(err)
	}
	*c = file.Field(0).Interface().(Config)
	for i, s := range secs {
		v := file.Field(i + 1)
		if v.IsNil() { // "key:" without a value
			c.sections[s.Key] = s.New()
		} else {
			c.sections[s.Key] = v.Interface()
		}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, p.yamlError(err)
	}
	if err := p.validate(mappingRoot(&root), schema.Operators); err != nil {
		return nil, err
	}
	return c, nil
}

// A parser decodes one file.
type parser struct {
	c     *Config
	secs  []*Section
	top   string            // the Go type of the whole file
	keys  map[string]string // Go struct type -> its keys, for messages
	kinds map[string]string // Go type -> "a mapping" or "a list"
}

// addTypes records the Go types the file decodes into (the file's own
// struct and every named type in a section) with their keys and kinds, for
// error messages.
func (p *parser) addTypes(file reflect.Type, secs []*Section) {
	p.top = file.String()
	p.kinds[p.top] = "a mapping"
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			if t.Kind() == reflect.Slice && t.Name() != "" {
				p.kinds[t.String()] = "a list"
			}
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || p.kinds[t.String()] != "" {
			return
		}
		p.kinds[t.String()] = "a mapping"
		var names []string
		for i := range t.NumField() {
			f := t.Field(i)
			if k := yamlKey(f); k != "" {
				names = append(names, k)
				add(f.Type)
			}
		}
		p.keys[t.String()] = strings.Join(names, ", ")
	}
	add(reflect.TypeOf(Packages{}))
	for _, s := range secs {
		add(reflect.TypeOf(s.New()))
	}
}

// yamlKey returns the key of a struct field, or "" if it has none.
func yamlKey(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	k, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if k == "-" {
		return ""
	}
	if k == "" {
		k = strings.ToLower(f.Name)
	}
	return k
}

// yamlError turns a yaml.v3 error into an Error with a line.
func (p *parser) yamlError(err error) error {
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
	return &Error{Path: p.c.Path, Line: line, Msg: p.friendlier(msg)}
}

var (
	unknownFieldRE = regexp.MustCompile(`^field (\S+) not found in type (.+)$`)
	cannotRE       = regexp.MustCompile("^cannot unmarshal !!(\\w+) (?:`(.*)` )?into (.*)$")
)

// friendlier rewrites yaml.v3's messages about Go types into ones about
// the file.
func (p *parser) friendlier(msg string) string {
	if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
		if m[2] == p.top {
			return p.unknownTopKey(m[1])
		}
		valid := ""
		if keys := p.keys[m[2]]; keys != "" {
			valid = " (valid keys: " + keys + ")"
		}
		return fmt.Sprintf("unknown key %q%s", m[1], valid)
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
		case p.kinds[want] != "":
			want = p.kinds[want]
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

// unknownTopKey says that key is not a key of the file. It does not list
// the operators' sections, which change with the operators: it names the
// closest key if one is close, else the file's own keys and one section.
func (p *parser) unknownTopKey(key string) string {
	keys := fixedKeys()
	for _, s := range p.secs {
		keys = append(keys, s.Key)
	}
	if s := closest(key, keys); s != "" {
		return fmt.Sprintf("unknown key %q (did you mean %q?)", key, s)
	}
	msg := fmt.Sprintf("unknown key %q (valid keys: %s", key, strings.Join(fixedKeys(), ", "))
	if len(p.secs) > 0 {
		msg += fmt.Sprintf(", and an operator's options such as %s:; perfmut list -h lists them", p.secs[0].Key)
	}
	return msg + ")"
}

// validate checks values the decoder cannot: operator names, empty lists
// that would silence an operator, what each section's Validate says. It
// also records the lines of the sections' entries.
func (p *parser) validate(top *yaml.Node, known []string) error {
	c := p.c
	errAt := func(n *yaml.Node, format string, args ...any) error {
		line := 0
		if n != nil {
			line = n.Line
		}
		return &Error{Path: c.Path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if known != nil {
		set := make(map[string]bool, len(known))
		for _, k := range known {
			set[k] = true
		}
		items := seqItems(lookup(top, "operators"))
		for i, name := range c.Operators {
			if !set[name] {
				return errAt(item(items, i, top), "unknown operator %q %s", name, OperatorHint(name, known))
			}
		}
	}
	for _, s := range p.secs {
		n := lookup(top, s.Key)
		if n == nil {
			continue
		}
		if at, msg := emptyOverDefault(s, n); at != nil {
			return errAt(at, "%s", msg)
		}
		v := c.sections[s.Key]
		setLines(reflect.ValueOf(v), n)
		val, ok := v.(Validator)
		if !ok {
			continue
		}
		if err := val.Validate(); err != nil {
			var ve *ValueError
			if !errors.As(err, &ve) {
				return errAt(n, "%s: %v", s.Key, err)
			}
			if ve.Line > 0 {
				return &Error{Path: c.Path, Line: ve.Line, Msg: ve.Msg}
			}
			return errAt(locate(n, ve.At), "%s", ve.Msg)
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
	return nil
}

// emptyOverDefault returns a list key of section s (whose value is n)
// that is set to an empty list where its default is not: the operator
// would report nothing.
func emptyOverDefault(s *Section, n *yaml.Node) (*yaml.Node, string) {
	def := reflect.ValueOf(s.New()).Elem()
	if n.Kind != yaml.MappingNode || def.Kind() != reflect.Struct {
		return nil, ""
	}
	for i := 1; i < len(n.Content); i += 2 {
		v, key := n.Content[i], n.Content[i-1].Value
		if v.Kind != yaml.SequenceNode || len(v.Content) > 0 {
			continue
		}
		for _, f := range reflect.VisibleFields(def.Type()) {
			if yamlKey(f) == key && f.Type.Kind() == reflect.Slice && def.FieldByIndex(f.Index).Len() > 0 {
				return v, fmt.Sprintf("%s.%s is empty; remove the key to use the defaults or disable the operator with operators:", s.Key, key)
			}
		}
	}
	return nil, ""
}

// setLines sets the Line fields (int, yaml:"-") of the structs in v, which
// was decoded from n, to the lines of their mappings.
func setLines(v reflect.Value, n *yaml.Node) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if n == nil {
		return
	}
	switch v.Kind() {
	case reflect.Slice:
		items := seqItems(n)
		for i := 0; i < v.Len() && i < len(items); i++ {
			setLines(v.Index(i), items[i])
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "Line" && f.Type.Kind() == reflect.Int && f.Tag.Get("yaml") == "-" && v.Field(i).CanSet() {
				v.Field(i).SetInt(int64(n.Line))
			} else if k := yamlKey(f); k != "" {
				setLines(v.Field(i), lookup(n, k))
			}
		}
	}
}

// locate returns the node at path below n (map keys and list indexes), or
// the deepest node on the way that exists.
func locate(n *yaml.Node, path []any) *yaml.Node {
	for _, step := range path {
		var next *yaml.Node
		switch step := step.(type) {
		case string:
			next = lookup(n, step)
		case int:
			if items := seqItems(n); step >= 0 && step < len(items) {
				next = items[step]
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return n
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
