package report

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Tables written for a terminal are aligned by display width, as a
// terminal shows them: a wide (CJK) or fullwidth character takes two
// columns, a combining mark or a format character none. text/tabwriter
// counts a rune as one column, so identifiers in Chinese or Japanese push
// the columns after them out of line.

// displayWidth is the number of terminal columns s takes.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r == utf8.RuneError || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	case r < 0x1100: // below the first wide block: ASCII, Latin, Greek, Cyrillic...
		return 1
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// An alignWriter is a table of tab-separated cells, one row a line, written on
// Flush: every cell but the last of its line is padded with spaces to the
// display width of its column's widest cell plus padding. It aligns as a
// text/tabwriter.Writer with minwidth 0, padding spaces and no flags does
// on tables whose rows have the same number of cells.
type alignWriter struct {
	w       io.Writer
	padding int
	buf     bytes.Buffer
}

// newAlignWriter returns an alignWriter to w with padding spaces between
// columns.
func newAlignWriter(w io.Writer, padding int) *alignWriter {
	return &alignWriter{w: w, padding: padding}
}

// Write buffers p until Flush.
func (t *alignWriter) Write(p []byte) (int, error) { return t.buf.Write(p) }

// Flush writes the buffered rows, aligned, and empties the buffer; text
// after the last newline is written as a row too.
func (t *alignWriter) Flush() error {
	text := t.buf.String()
	t.buf.Reset()
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	rows := make([][]string, len(lines))
	var widths []int
	for i, l := range lines {
		rows[i] = strings.Split(l, "\t")
		for c, cell := range rows[i][:len(rows[i])-1] {
			if c == len(widths) {
				widths = append(widths, 0)
			}
			widths[c] = max(widths[c], displayWidth(cell))
		}
	}
	var out bytes.Buffer
	for _, cells := range rows {
		for c, cell := range cells[:len(cells)-1] {
			out.WriteString(cell)
			out.WriteString(strings.Repeat(" ", widths[c]+t.padding-displayWidth(cell)))
		}
		out.WriteString(cells[len(cells)-1])
	}
	_, err := t.w.Write(out.Bytes())
	return err
}
