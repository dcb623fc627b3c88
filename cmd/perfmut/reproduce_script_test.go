package main

import "testing"

func TestReproduceScripts(t *testing.T) { runScripts(t, "reproduce_*.txtar") }
