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

func TestLatencyUnit(t *testing.T) {
	if got := LatencyUnit([]string{"B/op", "p99.9-sec/op", "p99.95-ns/op", "p50-ns/op"}); got != "p99.95-ns/op" {
		t.Errorf("LatencyUnit = %q, want p99.95-ns/op", got)
	}
	if got := LatencyUnit(nil); got != "" {
		t.Errorf("LatencyUnit(nil) = %q", got)
	}
}
