package text

import (
	"reflect"
	"strings"
	"testing"
)

func TestLower(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"Hello, World", "hello, world"},
		{"ÄRGER im Büro", "ärger im büro"},
	} {
		if got := Lower(tc.in); got != tc.want {
			t.Errorf("Lower(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	got := Tokenize("Hello, world! It's  a test.")
	want := []string{"Hello", "world", "It", "s", "a", "test"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokenize = %q, want %q", got, want)
	}
}

func TestIndexWord(t *testing.T) {
	if got := IndexWord("a b c b", "b"); got != 1 {
		t.Errorf("IndexWord = %d, want 1", got)
	}
	if got := IndexWord("a b c", "z"); got != -1 {
		t.Errorf("IndexWord = %d, want -1", got)
	}
}

func TestContent(t *testing.T) {
	got := Content("The cat and the hat")
	want := []string{"cat", "hat"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Content = %q, want %q", got, want)
	}
}

var sentence = strings.Repeat("The Quick brown fox jumps over the lazy dog. ", 20)

func BenchmarkLower(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Lower(sentence)
	}
}

func BenchmarkTokenize(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Tokenize(sentence)
	}
}

func BenchmarkJoinLower(b *testing.B) {
	words := Tokenize(sentence)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		JoinLower(words, " ")
	}
}
