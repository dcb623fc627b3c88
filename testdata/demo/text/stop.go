package text

// Content returns the words of s that are not stop words.
func Content(s string) []string {
	words := Words(s)
	out := make([]string, 0, len(words))
	for _, w := range words {
		if !isStopword(Lower(w)) {
			out = append(out, w)
		}
	}
	return out
}
