package speedgun

import "testing"

func TestLatencyQuantile(t *testing.T) {
	for unit, want := range map[string]float64{"p99.95-ns/op": 0.9995, "p50-ns/op": 0.5, "p99.9-sec/op": 0, "p100-ns/op": 0, "ns/op": 0, "p-ns/op": 0} {
		got, ok := latencyQuantile(unit)
		if ok != (want > 0) || got != want {
			t.Errorf("latencyQuantile(%q) = %v, %v; want %v", unit, got, ok, want)
		}
	}
}
