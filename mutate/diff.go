package mutate

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// UnifiedDiff returns the unified diff (3 lines of context) turning old into
// new, with the given file names in the --- and +++ lines; "" if they are
// equal. It uses Myers' O(ND) algorithm on lines.
func UnifiedDiff(oldName, newName, old, new string) string {
	if old == new {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	ops := diffLines(a, b)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	// Group the ops into hunks separated by more than 2*context equal lines.
	type span struct{ i, j int } // [i, j) in ops
	var hunks []span
	for k := 0; k < len(ops); k++ {
		if ops[k].kind == ' ' {
			continue
		}
		start := k
		end := k + 1
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// Count the run of equal lines.
			r := end
			for r < len(ops) && ops[r].kind == ' ' {
				r++
			}
			if r < len(ops) && r-end <= 2*diffContext {
				end = r
				continue
			}
			break
		}
		lo := max(start-diffContext, 0)
		hi := min(end+diffContext, len(ops))
		if n := len(hunks); n > 0 && lo <= hunks[n-1].j {
			hunks[n-1].j = hi
		} else {
			hunks = append(hunks, span{lo, hi})
		}
		k = end - 1
	}
	// Line numbers at each op.
	ai, bi := make([]int, len(ops)+1), make([]int, len(ops)+1)
	for k, op := range ops {
		ai[k+1], bi[k+1] = ai[k], bi[k]
		if op.kind != '+' {
			ai[k+1]++
		}
		if op.kind != '-' {
			bi[k+1]++
		}
	}
	for _, h := range hunks {
		na, nb := ai[h.j]-ai[h.i], bi[h.j]-bi[h.i]
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(ai[h.i], na), hunkRange(bi[h.i], nb))
		for _, op := range ops[h.i:h.j] {
			sb.WriteByte(op.kind)
			sb.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return sb.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type diffOp struct {
	kind byte // ' ', '-', '+'
	line string
}

// diffLines returns an edit script from a to b: common prefix and suffix
// are trimmed, the middle is diffed with Myers' algorithm.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]diffOp, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// myers computes a shortest edit script with Myers' greedy algorithm,
// keeping one V array per step for the backtrack.
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		ops := make([]diffOp, 0, n+m)
		for _, l := range a {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{'+', l})
		}
		return ops
	}
	maxD := n + m
	off := maxD
	v := make([]int, 2*maxD+2)
	var trace [][]int
	var dEnd int
outer:
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				dEnd = d
				break outer
			}
		}
	}
	// Backtrack. trace[d] holds v[-d..d+1] before step d.
	get := func(d, k int) int { return trace[d][k+d] }
	var rev []diffOp
	x, y := n, m
	for d := dEnd; d > 0; d-- {
		k := x - y
		var prevK int
		if k == -d || (k != d && get(d, k-1) < get(d, k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := get(d, prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, diffOp{' ', a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, diffOp{'+', b[y]})
		} else {
			x--
			rev = append(rev, diffOp{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, diffOp{' ', a[x]})
	}
	ops := make([]diffOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}
