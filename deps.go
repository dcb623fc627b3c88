//go:build tools

package tools

import (
	_ "github.com/dave/dst"
	_ "golang.org/x/perf/benchfmt"
	_ "golang.org/x/tools/go/packages"
	_ "golang.org/x/tools/txtar"
	_ "gonum.org/v1/gonum/stat"
	_ "gonum.org/v1/plot"
	_ "gopkg.in/yaml.v3"
)
