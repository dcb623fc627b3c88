// Package text holds small text utilities: ASCII-fast lower-casing,
// tokenizing and word counting.
package text

import (
	"regexp"
	"strings"
	"unicode"
)

// wordRE matches one word.
var wordRE = regexp.MustCompile(`[\p{L}\p{N}']+`)

// Lower returns s in lower case. ASCII input takes a fast path that avoids
// the Unicode tables.
func Lower(s string) string {
	fast := isASCII(s)
	if fast {
		var b strings.Builder
		b.Grow(len(s))
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	return strings.ToLower(s)
}

// isASCII reports whether s contains only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Words returns the words of s, in order.
func Words(s string) []string {
	return wordRE.FindAllString(s, -1)
}

// Tokenize splits s at spaces and punctuation, dropping empty tokens.
func Tokenize(s string) []string {
	tokens := make([]string, 0, len(s)/4+1)
	start := -1
	for i, r := range s {
		sep := isSeparator(r)
		if sep && start >= 0 {
			tokens = append(tokens, s[start:i])
			start = -1
		} else if !sep && start < 0 {
			start = i
		}
	}
	if start >= 0 {
		tokens = append(tokens, s[start:])
	}
	return tokens
}

func isSeparator(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsPunct(r)
}

// IndexWord returns the index of the first token of s equal to w, or -1.
func IndexWord(s, w string) int {
	idx := -1
	toks := Tokenize(s)
	for i, t := range toks {
		if t == w {
			idx = i
			break
		}
	}
	return idx
}

// Count returns how often each word occurs in words.
func Count(words []string) map[string]int {
	counts := make(map[string]int, len(words))
	for _, w := range words {
		counts[Lower(w)]++
	}
	return counts
}
