package main

import "testing"

func TestCompareScripts(t *testing.T) { runScripts(t, "compare_*.txtar") }
