package operators

import (
	"strings"
	"time"

	"github.com/perfmut/perfmut/config"
)

// inRange returns a config.ValueError for the first of xs, the values of
// key, outside [lo, hi]; msg says what the range is.
func inRange[T int | time.Duration](key string, xs []T, lo, hi T, msg string) error {
	for i, x := range xs {
		if x < lo || x > hi {
			return config.Invalid([]any{key, i}, "%s, got %v", msg, x)
		}
	}
	return nil
}

// checkCallers reports the first of callers (of an entry of operator op at
// line) that is not a function of the loaded packages.
func checkCallers(r config.Resolver, op string, line int, callers []string) error {
	for _, fn := range callers {
		if !r.HasFunction(fn) && r.Complete() {
			return config.InvalidAtLine(line, "%s: caller %s is not a function of the loaded packages (write it as Lower, T.M or (*T).M)", op, fn)
		}
	}
	return nil
}

// blank reports whether s is empty or white space.
func blank(s string) bool { return strings.TrimSpace(s) == "" }
