package main

import "testing"

// The show scripts are testdata/script/show_*.txtar; see list_test.go for
// the format.
func TestShowScripts(t *testing.T) { runScripts(t, "show_*.txtar") }
