package outdir

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFiles writes files (name -> content; a name ending in / is a
// directory) into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		path := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tree lists the files under dir with their contents, "name=content",
// directories as "name/", sorted.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			out = append(out, filepath.ToSlash(rel)+"/")
			return nil
		}
		data, err := os.ReadFile(path)
		out = append(out, filepath.ToSlash(rel)+"="+string(data))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestCheckOurs: run and compare write only into a new or empty directory
// or a results directory (the marker, or the .gitignore of perfmut before
// it, or a lock file); a directory of the user's files is refused in one
// line, and Check leaves it as it was. Locking an accepted one marks it.
func TestCheckOurs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // "" accepted; $DIR is the directory
	}{
		{"empty", map[string]string{}, ""},
		{"marked", map[string]string{MarkerFile: markerText, "report.md": "old results"}, ""},
		{"before the marker", map[string]string{GitignoreFile: "*\n", "journal.jsonl": "{}\n"}, ""},
		{"a killed run's lock", map[string]string{LockFile: "{}\n"}, ""},
		{"the user's notes", map[string]string{"report.md": "notes", "settings.json": "{}"},
			"-out $DIR is not a perfmut results directory (it holds report.md, settings.json, and no .perfmut-results): perfmut would overwrite files there; choose a new or empty directory with -out"},
		{"a module", map[string]string{"go.mod": "module m\n", "a.go": "package m\n", ".gitignore": "*.out\n", "b/": "", "c.go": ""},
			"-out $DIR is not a perfmut results directory (it holds .gitignore, a.go, b and 2 more, and no .perfmut-results): perfmut would overwrite files there; choose a new or empty directory with -out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			writeFiles(t, dir, tc.files)
			os.MkdirAll(dir, 0o755)
			before := tree(t, dir)
			want := strings.ReplaceAll(tc.want, "$DIR", dir)
			err := Check(dir)
			switch {
			case want == "" && err != nil:
				t.Errorf("Check: %v, want accepted", err)
			case want != "" && (err == nil || err.Error() != want):
				t.Errorf("Check: %v\nwant %s", err, want)
			case want == "":
				l, err := Lock(dir)
				if err != nil {
					t.Fatal(err)
				}
				l.Unlock()
			}
			after := tree(t, dir)
			if want != "" && !slices.Equal(after, before) {
				t.Errorf("refused, but the directory changed: %q, was %q", after, before)
			}
			if want == "" && !isResults(dir) {
				t.Errorf("accepted and made, but not a results directory: %q", after)
			}
		})
	}
}

// TestMakeNew: a new results directory gets the .gitignore and the
// marker; an empty one of the user's only the marker, when locked.
func TestMakeNew(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "out")
	if err := Make(dir); err != nil {
		t.Fatal(err)
	}
	if got, want := tree(t, dir), []string{".gitignore=*\n", MarkerFile + "=" + markerText}; !slices.Equal(got, want) {
		t.Errorf("new: %q, want %q", got, want)
	}
	empty := t.TempDir()
	if err := Make(empty); err != nil {
		t.Fatal(err)
	}
	l, err := Lock(empty)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	if got, want := tree(t, empty), []string{MarkerFile + "=" + markerText}; !slices.Equal(got, want) {
		t.Errorf("empty: %q, want %q", got, want)
	}
}

// TestKeepPrevious: a run starting again moves the results into
// previous/ (replacing the generation before, with a marker of its own);
// the lock, the marker and the .gitignore stay; a rotation killed
// half-way is finished by the next; a directory without results moves
// nothing.
func TestKeepPrevious(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{MarkerFile: markerText, GitignoreFile: "*\n", LockFile: "{}\n",
		"journal.jsonl": "gen2\n", "report.json": "gen2", "samples/a.txt": "gen2",
		"previous/journal.jsonl": "gen1\n", "previous/old-only.txt": "gen1"})
	kept, err := KeepPrevious(dir)
	if err != nil || !kept {
		t.Fatalf("KeepPrevious = %v, %v; want true, nil", kept, err)
	}
	want := []string{GitignoreFile + "=*\n", LockFile + "={}\n", MarkerFile + "=" + markerText,
		"previous/", "previous/" + MarkerFile + "=" + markerText, "previous/journal.jsonl=gen2\n", "previous/report.json=gen2", "previous/samples/", "previous/samples/a.txt=gen2"}
	slices.Sort(want)
	if got := tree(t, dir); !slices.Equal(got, want) {
		t.Errorf("after: %q\nwant %q", got, want)
	}
	if kept, err := KeepPrevious(dir); err != nil || kept {
		t.Errorf("again with nothing to keep = %v, %v; want false, nil", kept, err)
	}

	// Killed after moving report.json only: the next finishes it.
	writeFiles(t, dir, map[string]string{nextPrevious + "/report.json": "gen3", "journal.jsonl": "gen3\n"})
	if kept, err := KeepPrevious(dir); err != nil || !kept {
		t.Fatalf("finishing a rotation = %v, %v; want true, nil", kept, err)
	}
	want = []string{GitignoreFile + "=*\n", LockFile + "={}\n", MarkerFile + "=" + markerText,
		"previous/", "previous/" + MarkerFile + "=" + markerText, "previous/journal.jsonl=gen3\n", "previous/report.json=gen3"}
	slices.Sort(want)
	if got := tree(t, dir); !slices.Equal(got, want) {
		t.Errorf("after the finished rotation: %q\nwant %q", got, want)
	}
}
