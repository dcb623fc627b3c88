package text

import "strings"

// JoinLower lower-cases words and joins them with sep.
func JoinLower(words []string, sep string) string {
	n := 0
	for _, w := range words {
		n += len(w) + len(sep)
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range words {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(Lower(w))
	}
	return b.String()
}

// Debug renders words for debugging output; its speed does not matter.
//
//perfmut:ignore
func Debug(words []string) string {
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, "<"+w+">")
	}
	return strings.Join(out, " ")
}
