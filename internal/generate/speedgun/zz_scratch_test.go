package speedgun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/engine"
)

func TestScratchWrite(t *testing.T) {
	dir := os.Getenv("SG_DIR")
	if dir == "" {
		t.Skip()
	}
	for _, spec := range strings.Split(os.Getenv("SG_PKGS"), ";") {
		pat, focus, _ := strings.Cut(spec, "=")
		prog, pkg := load(t, dir, pat)
		e := engine.New(engine.Config{Module: prog.Module}, t.TempDir(), nil)
		var fs []string
		if focus != "" {
			fs = strings.Split(focus, ",")
		}
		r, err := Generate(context.Background(), Config{Engine: e, Package: pkg, Seed: 1, Focus: fs, CandidateTimeout: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d benchmarks, skipped %q, dropped %d %q", pat, len(r.Benchmarks), r.Skipped, r.Dropped, r.Drops)
		if len(r.Benchmarks) == 0 {
			continue
		}
		src, err := File(pkg.Name, r.Benchmarks)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg.Dir, "perfmut_gen_test.go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
