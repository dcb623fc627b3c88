package generate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// A recordedCall is one recorded call of an instrumented function: its key, its
// receiver's identity (for methods with a pointer receiver: calls on the
// same object share it), its type arguments and its arguments (the
// receiver first, for methods), as the recorder wrote them (package
// recorder).
type recordedCall struct {
	Fn       string           `json:"fn"`
	Object   string           `json:"o,omitempty"`
	TypeArgs []*typeDesc      `json:"t"`
	Args     []*recordedValue `json:"a"`
	Big      bool             `json:"big,omitempty"` // too large to record
	// Line is the call's line in the capture file (its order), Count
	// how many recorded calls had the same arguments.
	Line, Count int `json:"-"`
	key         string
}

// A recordedValue is a recorded value: its kind (bool, int, uint, float, complex,
// string, nil, ptr, iface, map, slice, array, struct, or a kind no
// literal holds: func, chan, unsafe.Pointer, cycle, big), its text
// (scalars; the real part of a complex), the imaginary part of a
// complex, the dynamic type of an interface and the elements (a
// pointer's target, an interface's value, a map's keys and values in
// turn, a slice's or array's elements, a struct's fields).
type recordedValue struct {
	Kind  string           `json:"k"`
	Text  string           `json:"v,omitempty"`
	Imag  string           `json:"i,omitempty"`
	Type  *typeDesc        `json:"t,omitempty"`
	Elems []*recordedValue `json:"e,omitempty"`
}

// A typeDesc is a recorded type: a named one by package path and name,
// an unnamed one by kind, length, key and element types (String for the
// kinds it does not describe).
type typeDesc struct {
	Path   string    `json:"p,omitempty"`
	Name   string    `json:"n,omitempty"`
	Kind   string    `json:"k,omitempty"`
	Len    int       `json:"l,omitempty"`
	Key    *typeDesc `json:"key,omitempty"`
	Elem   *typeDesc `json:"e,omitempty"`
	String string    `json:"s,omitempty"`
}

// readCalls reads a capture file: one recordedCall per line, its strings
// unquoted, identical calls (same function, type arguments and
// arguments) merged into the first with their Count.
func readCalls(r io.Reader) ([]*recordedCall, error) {
	var calls []*recordedCall
	seen := map[string]*recordedCall{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<22)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var c recordedCall
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("capture line %d: %v", n, err)
		}
		if err := c.unquote(); err != nil {
			return nil, fmt.Errorf("capture line %d: %v", n, err)
		}
		c.Line, c.Count = n, 1
		c.key = c.Fn + "\x00" + c.Object + "\x00" + argsKey(line)
		if prev := seen[c.key]; prev != nil && !c.Big {
			prev.Count++
			continue
		}
		seen[c.key] = &c
		calls = append(calls, &c)
	}
	return calls, sc.Err()
}

// argsKey is the part of a capture line after the receiver identity:
// the type arguments and arguments, as written.
func argsKey(line []byte) string {
	if i := bytes.Index(line, []byte(`"t":`)); i >= 0 {
		return string(line[i:])
	}
	return string(line)
}

// Size is the length of the call's recorded arguments: larger inputs
// make longer-running benchmarks.
func (c *recordedCall) Size() int { return len(c.key) }

func (c *recordedCall) unquote() error {
	var err error
	if c.Fn, err = unq(c.Fn); err != nil {
		return err
	}
	if c.Object, err = unq(c.Object); err != nil {
		return err
	}
	for _, t := range c.TypeArgs {
		if err := t.unquote(); err != nil {
			return err
		}
	}
	for _, a := range c.Args {
		if err := a.unquote(); err != nil {
			return err
		}
	}
	return nil
}

func (v *recordedValue) unquote() error {
	if v == nil {
		return errors.New("missing value")
	}
	var err error
	if v.Text, err = unq(v.Text); err != nil {
		return err
	}
	if v.Imag, err = unq(v.Imag); err != nil {
		return err
	}
	if v.Type != nil {
		if err := v.Type.unquote(); err != nil {
			return err
		}
	}
	for _, e := range v.Elems {
		if err := e.unquote(); err != nil {
			return err
		}
	}
	return nil
}

func (t *typeDesc) unquote() error {
	var err error
	for _, s := range []*string{&t.Path, &t.Name, &t.Kind, &t.String} {
		if *s, err = unq(*s); err != nil {
			return err
		}
	}
	for _, sub := range []*typeDesc{t.Key, t.Elem} {
		if sub != nil {
			if err := sub.unquote(); err != nil {
				return err
			}
		}
	}
	return nil
}

// unq unquotes a Go quoted string ("" stays "").
func unq(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	return strconv.Unquote(s)
}

// isZero reports whether v is its type's zero value: a literal may
// leave it out.
func (v *recordedValue) isZero() bool {
	switch v.Kind {
	case "nil":
		return true
	case "bool":
		return v.Text == "false"
	case "int", "uint":
		return v.Text == "0"
	case "float":
		return v.Text == "0"
	case "complex":
		return v.Text == "0" && v.Imag == "0"
	case "string":
		return v.Text == ""
	case "struct", "array":
		for _, e := range v.Elems {
			if !e.isZero() {
				return false
			}
		}
		return true
	}
	return false
}
