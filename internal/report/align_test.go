package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"

	"golang.org/x/tools/txtar"
)

func TestDisplayWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"Sum", 3},
		{"(*LRU).Keys", 11},
		{"Größe", 5},        // Latin letters: one column each
		{"合計", 4},           // CJK ideographs: two each
		{"(*キャッシュ).取得", 18}, // katakana and ideographs, ASCII punctuation
		{"ｓｕｍ", 6},          // fullwidth Latin
		{"ﾃｽﾄ", 3},          // halfwidth katakana
		{"합계", 4},           // Hangul syllables
		{"e\u0301", 1},      // e and a combining acute accent
		{"a\u200db", 2},     // a zero width joiner
	} {
		if got := displayWidth(tc.s); got != tc.want {
			t.Errorf("displayWidth(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// TestAlignWriterGolden writes each testdata/align/*.txtar's "in" section (cells
// separated by tabs) with an alignWriter of padding 2 and compares it with its
// "want" section; every column of the output starts at the same display
// column on every line.
func TestAlignWriterGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "align", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no testdata/align/*.txtar")
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sections := map[string]int{}
		for i, f := range ar.Files {
			sections[f.Name] = i
		}
		in, ok := sections["in"]
		if !ok {
			t.Fatalf("%s: no in section", file)
		}
		var got bytes.Buffer
		w := newAlignWriter(&got, 2)
		w.Write(ar.Files[in].Data)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if *update {
			if i, ok := sections["want"]; ok {
				ar.Files[i].Data = got.Bytes()
			} else {
				ar.Files = append(ar.Files, txtar.File{Name: "want", Data: got.Bytes()})
			}
			if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want := string(ar.Files[sections["want"]].Data)
		if got.String() != want {
			t.Errorf("%s:\n%s\nwant:\n%s", file, got.String(), want)
		}
		checkAligned(t, file, got.String(), ar.Files[in].Data)
	}
}

// checkAligned checks that the n-th cell of every line starts at the same
// display column.
func checkAligned(t *testing.T, file, out string, in []byte) {
	t.Helper()
	var starts []int
	for i, line := range strings.Split(strings.TrimSuffix(string(in), "\n"), "\n") {
		outLine := strings.Split(out, "\n")[i]
		col, rest := 0, outLine
		for c, cell := range strings.Split(line, "\t") {
			before, after, _ := strings.Cut(rest, cell)
			col += displayWidth(before)
			rest = after
			if i == 0 {
				starts = append(starts, col)
			} else if c < len(starts) && col != starts[c] {
				t.Errorf("%s: line %d: cell %q starts at column %d, want %d", file, i+1, cell, col, starts[c])
			}
			col += displayWidth(cell)
		}
	}
}

// TestAlignWriterAsTabwriter: on ASCII tables, alignWriter writes what
// text/tabwriter does with the flags perfmut uses.
func TestAlignWriterAsTabwriter(t *testing.T) {
	in := "ID\tOPERATOR\tPOSITION\tDESCRIPTION\na427dad9ebf3\tcap-hint-drop\tcache/lru.go:27\tdrop size hint\nx\t\t\tstatus: reason\n"
	var want, got bytes.Buffer
	tw := tabwriter.NewWriter(&want, 0, 8, 2, ' ', 0)
	tw.Write([]byte(in))
	tw.Flush()
	w := newAlignWriter(&got, 2)
	w.Write([]byte(in))
	w.Flush()
	if got.String() != want.String() {
		t.Errorf("got:\n%s\nwant (text/tabwriter):\n%s", got.String(), want.String())
	}
}
