package config

import "fmt"

// OperatorHint says, in parentheses, what to do about an unknown operator
// name: the closest of known if one is close, and where the list is.
func OperatorHint(name string, known []string) string {
	if s := closest(name, known); s != "" {
		return fmt.Sprintf("(did you mean %q? perfmut list -h lists the operators)", s)
	}
	return "(perfmut list -h lists the operators)"
}

// closest returns the candidate nearest to s in edit distance, if it is
// near enough to be a typo of it (at most 2 edits, and fewer than half of
// s's length), or "".
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD && 2*d < len(s) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
