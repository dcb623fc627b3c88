package report

import "testing"

func TestPkgName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"github.com/Masterminds/semver/v3", "semver"},
		{"github.com/google/btree", "btree"},
		{"example.com/m/v2/internal/pkg", "pkg"},
		{"example.com/m/v1", "v1"},
		{"example.com/m/vx", "vx"},
		{"v2", "v2"},
		{"fmt", "fmt"},
	} {
		if got := pkgName(tc.in); got != tc.want {
			t.Errorf("pkgName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
