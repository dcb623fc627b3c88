package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/mutate"
)

// The per-mutant build time against an incremental go test -c after a
// one-line edit of the same package (the goal is at most 1.2x), on the
// demo module's text package:
//
//	go test ./internal/runner -run '^$' -bench 'Build(Mutant|Edited)' -benchtime 10x
//
// Every iteration builds different source (a fresh constant), so the
// build cache cannot answer from an earlier iteration.

func benchDemo(b *testing.B) (mutate.Module, *run, []byte, string) {
	dir := filepath.Join(b.TempDir(), "demo")
	if err := copyTree(filepath.Join("..", "..", "testdata", "demo"), dir, ""); err != nil {
		b.Fatal(err)
	}
	mod, pkgs, err := loadModule(dir)
	if err != nil {
		b.Fatal(err)
	}
	r := testRun(&Campaign{Module: mod, Packages: pkgs}, "")
	file := filepath.Join(dir, "text", "text.go")
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	// Warm the build cache with the baseline, as perfmut run does.
	if _, err := r.GoTestC(context.Background(), dir, "example.com/demo/text", filepath.Join(b.TempDir(), "base.test"), "", ""); err != nil {
		b.Fatal(err)
	}
	return mod, r, src, file
}

const benchAnchor = "for i := 0; i < len(s); i++ {"

func BenchmarkBuildMutant(b *testing.B) {
	mod, r, src, _ := benchDemo(b)
	at := strings.Index(string(src), benchAnchor) + len(benchAnchor)
	tmp := b.TempDir()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m := mutate.Mutant{ID: "bench", File: "text/text.go", Package: "example.com/demo/text",
			Edits:  []mutate.Edit{{Start: at, End: at, New: fmt.Sprintf(" perfmut_sink += %d;", i+1)}},
			Helper: "package text\n\nvar perfmut_sink int\n", HelperFile: "perfmut_helper_bench.go"}
		files, err := overlayFunc(mod)(m)
		if err != nil {
			b.Fatal(err)
		}
		dir := filepath.Join(tmp, fmt.Sprint(i))
		os.MkdirAll(dir, 0o755)
		ov, _, err := engine.WriteOverlay(dir, mod.Dir, files)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.GoTestC(context.Background(), mod.Dir, m.Package, filepath.Join(dir, "m.test"), ov, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildEdited(b *testing.B) {
	mod, r, src, file := benchDemo(b)
	at := strings.Index(string(src), benchAnchor) + len(benchAnchor)
	tmp := b.TempDir()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// A one-line edit of the same package, as a developer makes it.
		edited := string(src[:at]) + fmt.Sprintf(" _ = %d;", i+1) + string(src[at:])
		if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
			b.Fatal(err)
		}
		if _, err := r.GoTestC(context.Background(), mod.Dir, "example.com/demo/text", filepath.Join(tmp, fmt.Sprint(i)+".test"), "", ""); err != nil {
			b.Fatal(err)
		}
	}
}
