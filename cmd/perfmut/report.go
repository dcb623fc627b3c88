package main

import (
	"context"
	"errors"
	"io"
)

func cmdReport(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	return errors.New("not implemented yet")
}
