package instr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestUnavailableMessage: one line, the reason and what to do.
func TestUnavailableMessage(t *testing.T) {
	for _, tc := range []struct {
		err  UnavailableError
		want string
	}{
		{UnavailableError{"linux", "valgrind is not installed (not found in PATH)"},
			"cannot count instructions: valgrind is not installed (not found in PATH); install the valgrind package (Debian or Ubuntu: apt-get install valgrind; Fedora: dnf install valgrind) or use -measure time"},
		{UnavailableError{"darwin", "valgrind does not run Go programs on darwin"},
			"cannot count instructions: valgrind does not run Go programs on darwin; count instructions on Linux with the valgrind package (Debian or Ubuntu: apt-get install valgrind) or use -measure time"},
		{UnavailableError{"windows", "valgrind does not run Go programs on windows"},
			"cannot count instructions: valgrind does not run Go programs on windows; count instructions on Linux with the valgrind package (Debian or Ubuntu: apt-get install valgrind) or use -measure time"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.err.GOOS, got, tc.want)
		}
	}
}

// TestCheckMissing: without valgrind in PATH, Check and Available say so
// in one line.
func TestCheckMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for name, f := range map[string]func(context.Context) (Info, error){"Check": Check, "Available": Available} {
		_, err := f(context.Background())
		var ue *UnavailableError
		if !errors.As(err, &ue) {
			t.Fatalf("%s without valgrind: error %v, want an *UnavailableError", name, err)
		}
		want := "valgrind is not installed (not found in PATH)"
		if runtime.GOOS != "linux" {
			want = "valgrind does not run Go programs on " + runtime.GOOS
		}
		if ue.Reason != want || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s without valgrind: %q, want the reason %q on one line", name, err, want)
		}
	}
}

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"valgrind-3.19.0\n", "3.19.0"},
		{"valgrind-3.22.0.GIT", "3.22.0.GIT"},
		{"valgrind: command not found", ""},
		{"valgrind-", ""},
		{"", ""},
	} {
		got, ok := parseVersion([]byte(tc.out))
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("parseVersion(%q) = %q, %v; want %q", tc.out, got, ok, tc.want)
		}
	}
}

// TestAvailableProbeFails: a valgrind that prints its version but cannot
// run the probe program is unavailable, in one line that says so.
func TestAvailableProbeFails(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Available stops at the platform check off Linux")
	}
	dir := t.TempDir()
	fake := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo valgrind-3.19.0; exit 0; fi\necho 'valgrind: m_debuginfo: cannot read the executable' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "valgrind"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	info, err := Available(context.Background())
	want := "cannot count instructions: valgrind 3.19.0 cannot run a Go program (exit status 1: valgrind: m_debuginfo: cannot read the executable); " + advice("linux")
	var ue *UnavailableError
	if !errors.As(err, &ue) || err.Error() != want || info.Version != "3.19.0" {
		t.Errorf("Available with a broken valgrind: %v (version %q), want\n%s", err, info.Version, want)
	}
}
