package engine

import (
	"strings"
	"testing"
)

func TestTestNames(t *testing.T) {
	out := []byte("TestA\nTestB\nBenchmarkE\nBenchmarkF\nExampleC\nFuzzD\nok  \texample.com/x\t0.002s\n")
	if got := strings.Join(testNames(out), ","); got != "TestA,TestB,ExampleC,FuzzD" {
		t.Errorf("testNames = %s", got)
	}
}
