// Package recorder is the code perfmut generate adds, through a go build
// overlay, to a package whose functions' arguments it captures: each
// instrumented function calls perfmutCapture at its entry with pointers
// to its receiver and parameters, and perfmutCapture appends one JSON line
// per call to the file named by $PERFMUT_CAPTURE (nothing without it). A
// line holds the function's key, the types of its type arguments and
// every argument as a value tree that keeps what a Go literal needs: the
// exact bits of floats (NaN, infinities, negative zero), the bytes of
// strings (Go-quoted, so that bytes that are not UTF-8 survive), nil and
// empty slices and maps told apart, unexported struct fields, the dynamic
// type of an interface, and the values a literal cannot hold (funcs,
// channels, cycles) named as such. Every string in a line is a Go quoted
// string inside a JSON string.
//
// perfmut generate copies this file into the package with its package
// clause replaced; every identifier and import name starts with perfmut so
// that none clashes with the package's own.
package recorder

import (
	perfmutmath "math"
	perfmutos "os"
	perfmutreflect "reflect"
	perfmutstrconv "strconv"
	perfmutsync "sync"
)

// Limits: calls recorded per function, bytes per call (a larger call is
// recorded as too large), elements per value, the depth of a value and
// the size of the file.
const (
	perfmutCaptureMaxCalls = 300
	perfmutCaptureMaxLine  = 1 << 16
	perfmutCaptureMaxElems = 1 << 12
	perfmutCaptureMaxDepth = 24
	perfmutCaptureMaxFile  = 64 << 20
)

var perfmutCaptureState struct {
	mu      perfmutsync.Mutex
	started bool
	f       *perfmutos.File
	calls   map[string]int
	size    int
}

// perfmutCapture records one call of the function key: recv is a
// method's pointer receiver (nil for others), typeArgs are typed nil
// pointers to its type arguments, args pointers to its receiver and
// parameters.
func perfmutCapture(key string, recv any, typeArgs []any, args ...any) {
	s := &perfmutCaptureState
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		s.started = true
		if path := perfmutos.Getenv("PERFMUT_CAPTURE"); path != "" {
			s.f, _ = perfmutos.OpenFile(path, perfmutos.O_APPEND|perfmutos.O_CREATE|perfmutos.O_WRONLY, 0o644)
			s.calls = map[string]int{}
		}
	}
	if s.f == nil || s.calls[key] >= perfmutCaptureMaxCalls || s.size > perfmutCaptureMaxFile {
		return
	}
	s.calls[key]++
	e := perfmutEncoder{path: map[uintptr]bool{}, budget: perfmutCaptureMaxElems}
	b := append([]byte(nil), `{"fn":`...)
	b = perfmutQuote(b, key)
	if r := perfmutreflect.ValueOf(recv); r.Kind() == perfmutreflect.Pointer && !r.IsNil() {
		b = append(b, `,"o":`...)
		b = perfmutQuote(b, perfmutstrconv.FormatUint(uint64(r.Pointer()), 16))
	}
	b = append(b, `,"t":[`...)
	for i, t := range typeArgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = perfmutType(b, perfmutreflect.TypeOf(t).Elem())
	}
	b = append(b, `],"a":[`...)
	for i, a := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = e.value(b, perfmutreflect.ValueOf(a).Elem(), 0)
	}
	b = append(b, "]}\n"...)
	if len(b) > perfmutCaptureMaxLine || e.budget < 0 {
		b = append(b[:0], `{"fn":`...)
		b = perfmutQuote(b, key)
		b = append(b, `,"big":true}`+"\n"...)
	}
	s.size += len(b)
	s.f.Write(b)
}

// perfmutQuote appends s as a JSON string holding its Go quoted form
// (ASCII only, so that no byte of s is lost).
func perfmutQuote(b []byte, s string) []byte {
	q := perfmutstrconv.QuoteToASCII(s)
	b = append(b, '"')
	for i := 0; i < len(q); i++ {
		if q[i] == '"' || q[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, q[i])
	}
	return append(b, '"')
}

// perfmutType appends a type: a named type as its package path and name,
// an unnamed one by its kind and element types.
func perfmutType(b []byte, t perfmutreflect.Type) []byte {
	if t.Name() != "" {
		b = append(b, `{"p":`...)
		b = perfmutQuote(b, t.PkgPath())
		b = append(b, `,"n":`...)
		b = perfmutQuote(b, t.Name())
		return append(b, '}')
	}
	b = append(b, `{"k":`...)
	b = perfmutQuote(b, t.Kind().String())
	switch t.Kind() {
	case perfmutreflect.Array:
		b = append(b, `,"l":`...)
		b = perfmutstrconv.AppendInt(b, int64(t.Len()), 10)
		fallthrough
	case perfmutreflect.Slice, perfmutreflect.Pointer:
		b = append(b, `,"e":`...)
		b = perfmutType(b, t.Elem())
	case perfmutreflect.Map:
		b = append(b, `,"key":`...)
		b = perfmutType(b, t.Key())
		b = append(b, `,"e":`...)
		b = perfmutType(b, t.Elem())
	default:
		b = append(b, `,"s":`...)
		b = perfmutQuote(b, t.String())
	}
	return append(b, '}')
}

// A perfmutEncoder encodes one call's values; path holds the pointers on
// the way from the argument to the value being encoded (a cycle).
type perfmutEncoder struct {
	path   map[uintptr]bool
	budget int
}

func (e *perfmutEncoder) value(b []byte, v perfmutreflect.Value, depth int) []byte {
	e.budget--
	if depth > perfmutCaptureMaxDepth || e.budget < 0 {
		return append(b, `{"k":"big"}`...)
	}
	k := v.Kind()
	switch k {
	case perfmutreflect.Bool:
		return perfmutScalar(b, "bool", perfmutstrconv.FormatBool(v.Bool()))
	case perfmutreflect.Int, perfmutreflect.Int8, perfmutreflect.Int16, perfmutreflect.Int32, perfmutreflect.Int64:
		return perfmutScalar(b, "int", perfmutstrconv.FormatInt(v.Int(), 10))
	case perfmutreflect.Uint, perfmutreflect.Uint8, perfmutreflect.Uint16, perfmutreflect.Uint32, perfmutreflect.Uint64, perfmutreflect.Uintptr:
		return perfmutScalar(b, "uint", perfmutstrconv.FormatUint(v.Uint(), 10))
	case perfmutreflect.Float32, perfmutreflect.Float64:
		return perfmutScalar(b, "float", perfmutFloat(v.Float(), v.Type().Bits()))
	case perfmutreflect.Complex64, perfmutreflect.Complex128:
		c, bits := v.Complex(), v.Type().Bits()/2
		b = perfmutScalar(b, "complex", perfmutFloat(real(c), bits))
		b = b[:len(b)-1]
		b = append(b, `,"i":`...)
		b = perfmutQuote(b, perfmutFloat(imag(c), bits))
		return append(b, '}')
	case perfmutreflect.String:
		return perfmutScalar(b, "string", v.String())
	case perfmutreflect.Func, perfmutreflect.Chan, perfmutreflect.UnsafePointer:
		if v.IsNil() {
			return append(b, `{"k":"nil"}`...)
		}
		return append(b, `{"k":"`+k.String()+`"}`...)
	case perfmutreflect.Slice, perfmutreflect.Map, perfmutreflect.Pointer, perfmutreflect.Interface:
		if v.IsNil() {
			return append(b, `{"k":"nil"}`...)
		}
	}
	return e.composite(b, v, depth)
}

// composite encodes a non-nil slice, map, pointer or interface, an array
// or a struct.
func (e *perfmutEncoder) composite(b []byte, v perfmutreflect.Value, depth int) []byte {
	k := v.Kind()
	if k == perfmutreflect.Map || k == perfmutreflect.Pointer {
		p := v.Pointer()
		if e.path[p] {
			return append(b, `{"k":"cycle"}`...)
		}
		e.path[p] = true
		defer delete(e.path, p)
	}
	switch k {
	case perfmutreflect.Pointer:
		b = append(b, `{"k":"ptr","e":[`...)
		b = e.value(b, v.Elem(), depth+1)
		return append(b, "]}"...)
	case perfmutreflect.Interface:
		b = append(b, `{"k":"iface","t":`...)
		b = perfmutType(b, v.Elem().Type())
		b = append(b, `,"e":[`...)
		b = e.value(b, v.Elem(), depth+1)
		return append(b, "]}"...)
	case perfmutreflect.Map:
		b = append(b, `{"k":"map","e":[`...)
		it := v.MapRange()
		for i := 0; it.Next(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.value(b, it.Key(), depth+1)
			b = append(b, ',')
			b = e.value(b, it.Value(), depth+1)
		}
		return append(b, "]}"...)
	}
	// Slices, arrays and structs: their elements or fields in order.
	b = append(b, `{"k":"`+k.String()+`","e":[`...)
	n := 0
	if k == perfmutreflect.Struct {
		n = v.NumField()
	} else {
		n = v.Len()
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if k == perfmutreflect.Struct {
			b = e.value(b, v.Field(i), depth+1)
		} else {
			b = e.value(b, v.Index(i), depth+1)
		}
	}
	return append(b, "]}"...)
}

// perfmutScalar appends a scalar value of kind k with its text s.
func perfmutScalar(b []byte, k, s string) []byte {
	b = append(b, `{"k":"`+k+`","v":`...)
	b = perfmutQuote(b, s)
	return append(b, '}')
}

// perfmutFloat formats f exactly: NaN, +Inf, -Inf, -0 or the shortest
// decimal that reads back as the same float of bits bits.
func perfmutFloat(f float64, bits int) string {
	switch {
	case f != f:
		return "NaN"
	case perfmutmath.IsInf(f, 1):
		return "+Inf"
	case perfmutmath.IsInf(f, -1):
		return "-Inf"
	case f == 0 && perfmutmath.Signbit(f):
		return "-0"
	}
	return perfmutstrconv.FormatFloat(f, 'g', -1, bits)
}
