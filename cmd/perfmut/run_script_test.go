package main

import "testing"

func TestRunScripts(t *testing.T) { runScripts(t, "run_*.txtar") }
