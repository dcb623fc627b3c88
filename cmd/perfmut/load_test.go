package main

import (
	"flag"
	"testing"

	"github.com/perfmut/perfmut/internal/load"
	"github.com/perfmut/perfmut/internal/testutil"
)

func TestLoadFlagsRegister(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var lf loadFlags
	lf.register(fs)
	if err := fs.Parse([]string{"-C", "d", "-config", "c.yaml", "-operators", "a,b", "-tags", "t1,t2", "./..."}); err != nil {
		t.Fatal(err)
	}
	want := loadFlags{load.Loader{Dir: "d", ConfigPath: "c.yaml", Operators: "a,b", Tags: "t1,t2"}}
	if lf != want || fs.Arg(0) != "./..." {
		t.Errorf("parsed %+v, want %+v", lf, want)
	}
}

func writeFile(t *testing.T, path, content string) { testutil.WriteFile(t, path, content) }
