package changes

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// WorkTree as the NEW revision of Between names the working tree:
// uncommitted edits and untracked files included.
const WorkTree = "WORKTREE"

// A Diff is what changed between two versions of a module: by
// module-relative slash-separated file path, the lines of OLD that were
// deleted or changed and the lines of NEW that were added or changed.
type Diff struct {
	Old, New map[string][]Range
	Files    []string // every changed file under the module root, sorted (renames by their new name)
}

// A Rev is a resolved revision of a comparison.
type Rev struct {
	Name   string // as given: a revision, or WorkTree
	Commit string // full commit hash; for WorkTree, HEAD's
}

// Repo is the git checkout holding a module.
type Repo struct {
	Root   string // the checkout's top level
	ModRel string // the module root relative to Root, slash-separated ("." at the top)
}

// OpenRepo finds the git checkout holding the module root dir.
func OpenRepo(ctx context.Context, dir string) (Repo, error) {
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return Repo{}, fmt.Errorf("%s is not in a git checkout (%v); OLD and NEW are git revisions of it", dir, err)
	}
	top := strings.TrimSpace(string(out))
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	d := dir
	if t, err := filepath.EvalSymlinks(dir); err == nil {
		d = t
	}
	rel, err := filepath.Rel(top, d)
	if err != nil || strings.HasPrefix(rel, "..") {
		return Repo{}, fmt.Errorf("module %s is not inside its git checkout %s", dir, top)
	}
	return Repo{Root: top, ModRel: filepath.ToSlash(rel)}, nil
}

// Resolve turns a revision (or WorkTree) into a commit. what names the
// argument in the error (OLD, NEW).
func (r Repo) Resolve(ctx context.Context, what, rev string) (Rev, error) {
	name := rev
	if rev == WorkTree {
		rev = "HEAD"
	}
	if rev == "" || strings.HasPrefix(rev, "-") {
		return Rev{}, fmt.Errorf("%s %q: want a git revision such as main, HEAD~1 or a commit hash", what, name)
	}
	out, err := git(ctx, r.Root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if name == WorkTree {
			return Rev{}, fmt.Errorf("%s %s: the repository %s has no commit yet", what, name, r.Root)
		}
		return Rev{}, fmt.Errorf("%s %s: no such git revision in %s (fetch it first, e.g. git fetch origin %s)", what, name, r.Root, name)
	}
	return Rev{Name: name, Commit: strings.TrimSpace(string(out))}, nil
}

// Between returns what changed in the module between old and new (new may
// be WorkTree: uncommitted edits and untracked files count).
func (r Repo) Between(ctx context.Context, old, new Rev) (*Diff, error) {
	args := []string{"-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff",
		"--unified=0", "--relative", "--find-renames", "--diff-filter=ACDMRT", old.Commit}
	if new.Name != WorkTree {
		args = append(args, new.Commit)
	}
	args = append(args, "--")
	dir := filepath.Join(r.Root, filepath.FromSlash(r.ModRel))
	out, err := git(ctx, dir, args...)
	if err != nil {
		return nil, fmt.Errorf("git diff %s: %w", old.Name, err)
	}
	d, err := parseSides(out)
	if err != nil {
		return nil, err
	}
	if new.Name == WorkTree {
		names, err := addUntracked(ctx, dir, d.New)
		if err != nil {
			return nil, err
		}
		d.Files = append(d.Files, names...)
	}
	slices.Sort(d.Files)
	d.Files = slices.Compact(d.Files)
	return d, nil
}

// GoFiles returns the changed non-test Go files and the changed test files
// of d, each sorted.
func (d *Diff) GoFiles() (code, tests []string) {
	for _, f := range d.Files {
		switch {
		case strings.HasSuffix(f, "_test.go"):
			tests = append(tests, f)
		case strings.HasSuffix(f, ".go"):
			code = append(code, f)
		}
	}
	return code, tests
}

// ModuleFiles reports whether go.mod or go.sum at the module root changed:
// dependencies, and so possibly every benchmark.
func (d *Diff) ModuleFiles() bool {
	return slices.Contains(d.Files, "go.mod") || slices.Contains(d.Files, "go.sum")
}

// parseSides reads a git diff with --unified=0 and returns the changed
// lines of both sides, by file (see Diff).
func parseSides(diff []byte) (*Diff, error) {
	d := &Diff{Old: map[string][]Range{}, New: map[string][]Range{}}
	var oldFile, newFile string
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			oldFile, newFile = "", ""
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
			name, err := diffName(line[4:])
			if err != nil {
				return nil, err
			}
			if line[0] == '-' {
				oldFile = name
			} else {
				newFile = name
			}
			if name != "" {
				d.Files = append(d.Files, name)
			}
		case strings.HasPrefix(line, "@@ "):
			o, n, err := parseHunkSides(line)
			if err != nil {
				return nil, err
			}
			if o.End >= o.Start && oldFile != "" {
				d.Old[oldFile] = append(d.Old[oldFile], o)
			}
			if n.End >= n.Start && newFile != "" {
				d.New[newFile] = append(d.New[newFile], n)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading git diff: %w", err)
	}
	for _, m := range []map[string][]Range{d.Old, d.New} {
		for f, rs := range m {
			m[f] = merge(rs)
		}
	}
	return d, nil
}

// diffName is the file name of a ---/+++ line of a git diff, without its
// a/ or b/ prefix; "" for /dev/null.
func diffName(name string) (string, error) {
	if strings.HasPrefix(name, `"`) {
		u, err := strconv.Unquote(name)
		if err != nil {
			return "", fmt.Errorf("parsing git diff: bad file name %s", name)
		}
		name = u
	}
	if name == "/dev/null" {
		return "", nil
	}
	if len(name) > 2 && (name[:2] == "a/" || name[:2] == "b/") {
		name = name[2:]
	}
	return path.Clean(name), nil
}

// parseHunkSides parses "@@ -a,b +c,d @@ ..." into the deleted lines
// a..a+b-1 and the added lines c..c+d-1 (an empty range, End < Start, for
// a count of 0).
func parseHunkSides(line string) (old, new Range, err error) {
	fields := strings.Fields(line)
	if len(fields) < 3 || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return old, new, fmt.Errorf("parsing git diff: bad hunk header %q", line)
	}
	for i, f := range fields[1:3] {
		startS, countS, hasCount := strings.Cut(f[1:], ",")
		start, err1 := strconv.Atoi(startS)
		count := 1
		var err2 error
		if hasCount {
			count, err2 = strconv.Atoi(countS)
		}
		if err1 != nil || err2 != nil || count < 0 {
			return old, new, fmt.Errorf("parsing git diff: bad hunk header %q", line)
		}
		r := Range{start, start + count - 1}
		if i == 0 {
			old = r
		} else {
			new = r
		}
	}
	return old, new, nil
}
