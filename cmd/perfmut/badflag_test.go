package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBadFlagOneLine: a bad flag or flag value is one line on stderr
// naming it and where the flags are listed, exit 2 (the flag package
// printed the whole usage around its message: 89 lines for run).
func TestBadFlagOneLine(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "-bogus"}, "perfmut run: flag provided but not defined: -bogus (perfmut run -h lists the flags)\n"},
		{[]string{"run", "-warn-factor", "0.5"}, "perfmut run: invalid value \"0.5\" for flag -warn-factor: want a factor above 1, e.g. 2 (a function twice as slow) (perfmut run -h lists the flags)\n"},
		{[]string{"compare", "-alpha", "abc"}, "perfmut compare: invalid value \"abc\" for flag -alpha: parse error (perfmut compare -h lists the flags)\n"},
		{[]string{"list", "-json=maybe"}, "perfmut list: invalid boolean value \"maybe\" for -json: parse error (perfmut list -h lists the flags)\n"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), &stdout, &stderr, c.args); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", c.args, code, exitUsage)
		}
		if stderr.String() != c.want {
			t.Errorf("%v: stderr\n%s\nwant\n%s", c.args, stderr.String(), c.want)
		}
	}
}

// TestHelpExitsZero: every command's -h, like perfmut -h (and go's flag
// package), prints the command's usage and flags and exits 0.
func TestHelpExitsZero(t *testing.T) {
	for _, c := range commands() {
		for _, h := range []string{"-h", "-help", "--help"} {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), &stdout, &stderr, []string{c.name, h})
			if code != exitOK || !strings.HasPrefix(stderr.String(), "Usage: perfmut "+c.name) || !strings.Contains(stderr.String(), "\nFlags:\n") || stdout.Len() > 0 {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %.80q; want exit 0 and the usage on stderr", c.name, h, code, stdout.String(), stderr.String())
			}
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), &stdout, &stderr, []string{"-h"}); code != exitOK || !strings.HasPrefix(stderr.String(), "perfmut: performance mutation testing") {
		t.Errorf("perfmut -h: exit %d, stderr %.80q", code, stderr.String())
	}
}
