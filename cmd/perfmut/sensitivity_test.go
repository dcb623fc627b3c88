package main

import "testing"

func TestSensitivityScripts(t *testing.T) { runScripts(t, "sensitivity_*.txtar") }
