package engine

import (
	"reflect"
	"testing"
)

func TestParseCPU(t *testing.T) {
	for in, want := range map[string][]int{"": nil, "1": {1}, "1,2,4": {1, 2, 4}, " 2, 2 ,8": {2, 8}} {
		if got, err := ParseCPU(in); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseCPU(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "1,,2", "x", "-1", "1.5"} {
		if _, err := ParseCPU(in); err == nil {
			t.Errorf("ParseCPU(%q) accepted", in)
		}
	}
	bs := WithCPUs([]Benchmark{{Pkg: "p", Name: "BenchmarkA"}}, []int{1, 4})
	if len(bs) != 2 || bs[0].CPUName() != "BenchmarkA" || bs[1].CPUName() != "BenchmarkA-4" || bs[1].Suffix() != "-4" || bs[0].Suffix() != "" {
		t.Errorf("withCPUs = %+v", bs)
	}
}
