package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// outWriter is a command's stdout that keeps the first write error: a
// command whose output was lost (a full disk, a closed pipe) fails with
// it instead of exiting 0.
type outWriter struct {
	w   io.Writer
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
	}
	return n, err
}

// writeErr is the first write error, as the command's error.
func (o *outWriter) writeErr() error {
	if o.err == nil {
		return nil
	}
	return fmt.Errorf("writing the output: %w", unwrapPathErr(o.err))
}

// unwrapPathErr is err without the path an *fs.PathError adds (stdout's
// is "/dev/stdout").
func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
