package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadFlagsRegister(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var lf loadFlags
	lf.Register(fs)
	if err := fs.Parse([]string{"-C", "d", "-config", "c.yaml", "-operators", "a,b", "-tags", "t1,t2", "./..."}); err != nil {
		t.Fatal(err)
	}
	want := loadFlags{Loader{Dir: "d", ConfigPath: "c.yaml", Operators: "a,b", Tags: "t1,t2"}}
	if lf != want || fs.Arg(0) != "./..." {
		t.Errorf("parsed %+v, want %+v", lf, want)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}
