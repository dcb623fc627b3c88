// Package english holds the small rules of English that perfmut's messages
// share.
package english

import "strconv"

// Plural returns "1 mutant", "2 mutants": n and word, with an s unless n
// is 1.
func Plural(n int, word string) string {
	return strconv.Itoa(n) + " " + Word(n, word)
}

// Word returns word with an s unless n is 1.
func Word(n int, word string) string { return Choose(n, word, word+"s") }

// Choose returns one if n is 1, else many: for plurals that are more than
// an s, such as "test is" and "tests are".
func Choose(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
