package runner

import "github.com/perfmut/perfmut/internal/inputerr"

// An InputError is bad input, as opposed to a failure while working: a
// setting out of range, a missing or foreign directory, an -out that
// holds other results. The command line reports it as a usage error
// (exit status 2).
type InputError = inputerr.Error

// inputErrorf is an *InputError with a formatted message.
func inputErrorf(format string, args ...any) error { return inputerr.Errorf(format, args...) }
