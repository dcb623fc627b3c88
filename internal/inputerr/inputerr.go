// Package inputerr marks bad input, as opposed to a failure while working:
// a setting out of range, a missing or foreign directory, a results
// directory that holds other results or that another perfmut writes into.
// The command line reports such an error as a usage error (exit status 2),
// whichever package found it.
package inputerr

import "fmt"

// An Error is bad input: its message says what is wrong and how to fix it.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf is an *Error with a formatted message.
func Errorf(format string, args ...any) error {
	return &Error{fmt.Errorf(format, args...)}
}
