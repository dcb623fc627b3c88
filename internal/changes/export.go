package changes

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/perfmut/perfmut/internal/proc"
)

// Export writes the files of rev's commit (the whole repository, so that
// replace directives with relative paths resolve) under dst and returns
// the module's directory in it. It only reads the repository (git ls-tree
// and git cat-file): the working tree, the index and the list of worktrees
// stay as they are. Submodules are left out; symbolic links are kept.
func (r Repo) Export(ctx context.Context, rev Rev, dst string) (string, error) {
	list, err := git(ctx, r.Root, "ls-tree", "-r", "-z", "--full-tree", rev.Commit)
	if err != nil {
		return "", fmt.Errorf("listing the files of %s: %w", rev.Name, err)
	}
	type entry struct {
		mode, oid, path string
	}
	var entries []entry
	var ids bytes.Buffer
	for _, rec := range strings.Split(string(list), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" {
			continue // submodules (commit), empty records
		}
		entries = append(entries, entry{f[0], f[2], path})
		ids.WriteString(f[2] + "\n")
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := proc.Command(ctx, r.Root, append(os.Environ(), "GIT_OPTIONAL_LOCKS=0"), "git", "cat-file", "--batch")
	cmd.Stdin = &ids
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("git cat-file: %w", err)
	}
	rd := bufio.NewReader(out)
	werr := writeEntries(rd, dst, len(entries), func(i int) (string, string, string) {
		e := entries[i]
		return e.mode, e.oid, e.path
	})
	if werr != nil {
		io.Copy(io.Discard, rd)
	}
	if err := cmd.Wait(); err != nil && werr == nil {
		werr = fmt.Errorf("git cat-file: %w", err)
	}
	if werr != nil {
		return "", fmt.Errorf("writing the files of %s: %w", rev.Name, werr)
	}
	return filepath.Join(dst, filepath.FromSlash(r.ModRel)), nil
}

// writeEntries reads n objects of git cat-file --batch from rd and writes
// each as the file entry(i) names under dst.
func writeEntries(rd *bufio.Reader, dst string, n int, entry func(i int) (mode, oid, path string)) error {
	for i := range n {
		mode, oid, path := entry(i)
		head, err := rd.ReadString('\n')
		if err != nil {
			return err
		}
		f := strings.Fields(head)
		if len(f) != 3 || f[0] != oid {
			return fmt.Errorf("unexpected git cat-file output %q for %s", strings.TrimSpace(head), path)
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return fmt.Errorf("unexpected git cat-file output %q", strings.TrimSpace(head))
		}
		data := make([]byte, size+1) // the content and a newline
		if _, err := io.ReadFull(rd, data); err != nil {
			return err
		}
		data = data[:size]
		name := filepath.Join(dst, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		switch mode {
		case "120000":
			err = os.Symlink(string(data), name)
		case "100755":
			err = os.WriteFile(name, data, 0o755)
		default:
			err = os.WriteFile(name, data, 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
