// Package changes scopes a mutation campaign to the code a change touched:
// the lines added or changed since a git revision (perfmut -changed-since
// REV), for pull requests.
package changes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/mutate"
)

// A Range is the lines Start through End (1-based, inclusive).
type Range struct {
	Start, End int
}

func (r Range) String() string {
	if r.Start == r.End {
		return strconv.Itoa(r.Start)
	}
	return fmt.Sprintf("%d-%d", r.Start, r.End)
}

// Lines returns the lines added or changed in the module containing dir
// since rev, by file: module-relative slash-separated paths to sorted,
// merged ranges. It compares the merge base of rev and HEAD (the point a
// branch forked from rev, so later commits on rev do not count) with the
// working tree, uncommitted edits included; untracked files that git does
// not ignore count as wholly added. Deleted lines are not in scope (there is
// nothing left to mutate), nor are deleted files.
func Lines(ctx context.Context, dir, rev string) (map[string][]Range, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("-changed-since %q: want a git revision such as origin/main or HEAD~3", rev)
	}
	root, err := mutate.ModuleRoot(ctx, dir)
	if err != nil {
		return nil, err
	}
	if _, err := git(ctx, root, "rev-parse", "--show-toplevel"); err != nil {
		return nil, fmt.Errorf("-changed-since needs a git checkout: %s is not in one (%v)", root, err)
	}
	commit, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("-changed-since %s: no such git revision in %s (fetch it first, e.g. git fetch origin main)", rev, root)
	}
	base := strings.TrimSpace(string(commit))
	mb, err := git(ctx, root, "merge-base", base, "HEAD")
	if err != nil {
		// Diffing against rev's tip instead would count every later
		// commit on rev as the branch's own change.
		if sh, _ := git(ctx, root, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(sh)) == "true" {
			return nil, fmt.Errorf("-changed-since %s: no merge base with HEAD in this shallow clone; fetch the history (actions/checkout with fetch-depth: 0, or git fetch --unshallow)", rev)
		}
		return nil, fmt.Errorf("-changed-since %s: it has no commit in common with HEAD; name the branch this one forked from", rev)
	}
	base = strings.TrimSpace(string(mb))
	// --relative: paths relative to the module root, and only files under it.
	diff, err := git(ctx, root, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff",
		"--unified=0", "--relative", "--find-renames", "--diff-filter=ACMRT", base, "--")
	if err != nil {
		return nil, fmt.Errorf("git diff %s: %w", rev, err)
	}
	lines, err := parseDiff(diff)
	if err != nil {
		return nil, err
	}
	if _, err := addUntracked(ctx, root, lines); err != nil {
		return nil, err
	}
	return lines, nil
}

// addUntracked adds the untracked files under dir that git does not
// ignore to lines, as wholly added, and returns their names.
func addUntracked(ctx context.Context, dir string, lines map[string][]Range) ([]string, error) {
	untracked, err := git(ctx, dir, "-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
	if err != nil {
		return nil, fmt.Errorf("listing untracked files: %w", err)
	}
	var names []string
	for _, f := range strings.Split(string(untracked), "\x00") {
		if f == "" {
			continue
		}
		n, err := countLines(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		if n > 0 {
			lines[f] = []Range{{1, n}}
		}
		names = append(names, f)
	}
	return names, nil
}

// gitTimeout is the deadline of one git command (every process perfmut
// starts has one): far more than a diff or a listing of a large
// repository takes.
const gitTimeout = 10 * time.Minute

// git runs git in dir and returns its standard output.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := proc.Command(ctx, dir, append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C"), "git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if msg := strings.TrimSpace(stderr.String()); msg != "" {
				return nil, errors.New(firstLine(msg))
			}
		}
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errors.New("git is not installed (not in PATH)")
		}
		return nil, err
	}
	return out, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// parseDiff reads a git diff with --unified=0 and returns, per new file
// path, the ranges of added lines.
func parseDiff(diff []byte) (map[string][]Range, error) {
	d, err := parseSides(diff)
	if err != nil {
		return nil, err
	}
	return d.New, nil
}

// merge sorts ranges and joins overlapping or adjacent ones.
func merge(rs []Range) []Range {
	slices.SortFunc(rs, func(a, b Range) int { return a.Start - b.Start })
	var out []Range
	for _, r := range rs {
		if n := len(out); n > 0 && r.Start <= out[n-1].End+1 {
			out[n-1].End = max(out[n-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}

func countLines(file string) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, fmt.Errorf("reading untracked file: %w", err)
	}
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n, nil
}

// contains reports whether line of file is in lines.
func contains(lines map[string][]Range, file string, line int) bool {
	rs := lines[file]
	i, _ := slices.BinarySearchFunc(rs, line, func(r Range, l int) int {
		switch {
		case r.End < l:
			return -1
		case r.Start > l:
			return 1
		}
		return 0
	})
	return i < len(rs) && rs[i].Start <= line && line <= rs[i].End
}

// Filter returns the mutants whose position lies on a line in lines, in
// their original order.
func Filter(muts []mutate.Mutant, lines map[string][]Range) []mutate.Mutant {
	var out []mutate.Mutant
	for _, m := range muts {
		if contains(lines, m.File, m.Line) {
			out = append(out, m)
		}
	}
	return out
}
