package runner

import "fmt"

// An InputError is bad input, as opposed to a failure while working: a
// setting out of range, a missing or foreign directory, an -out that
// holds other results. The command line reports it as a usage error
// (exit status 2).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// inputErrorf is an *InputError with a formatted message.
func inputErrorf(format string, args ...any) error {
	return &InputError{fmt.Errorf(format, args...)}
}
