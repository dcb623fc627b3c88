package attrib

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"

	"github.com/perfmut/perfmut/internal/changes"
	"github.com/perfmut/perfmut/mutate"
)

// Changed adds to out the functions of one Go file whose declarations
// hold a line of lines: by key (importpath.Func, the import path's
// external test package for a package clause ending in _test), where
// the change touched it, "file:lines" with the lines of lines in the
// declaration (a function already in out keeps its place). rel is the
// file's module-relative slash path, ipath its package's import path, src
// its contents, side "" for NEW's lines and "OLD " for OLD's.
func Changed(out map[string]string, ipath, rel string, src []byte, lines []changes.Range, side string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	if strings.HasSuffix(f.Name.Name, "_test") && strings.HasSuffix(rel, "_test.go") {
		ipath += "_test"
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		start, end := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
		var in []string
		for _, r := range lines {
			if r.Start <= end && start <= r.End {
				in = append(in, changes.Range{Start: max(r.Start, start), End: min(r.End, end)}.String())
			}
		}
		key := ipath + "." + mutate.FuncName(fd)
		if _, ok := out[key]; len(in) > 0 && !ok {
			out[key] = side + rel + ":" + strings.Join(in, ",")
		}
	}
	return nil
}

// Short is a function key without its import path's directories:
// example.com/m/cache.(*LRU).Get -> cache.(*LRU).Get.
func Short(key string) string {
	dir, base := path.Split(key)
	if dir == "" || strings.ContainsAny(dir, "()[] ") {
		return key
	}
	return base
}
