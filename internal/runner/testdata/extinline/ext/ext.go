// Package ext has a small function that the compiler inlines into its
// callers: its only benchmarks are in the external test package.
package ext

// HasPrefixAny reports whether s starts with one of ps.
func HasPrefixAny(s string, ps []string) bool {
	found := false
	for _, p := range ps {
		if len(s) >= len(p) && s[:len(p)] == p {
			found = true
			break
		}
	}
	return found
}
