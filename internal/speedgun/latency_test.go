package speedgun

import "testing"

func TestLatencyQuantile(t *testing.T) {
	for unit, want := range map[string][2]int64{
		"p99.95-ns/op": {9995, 10000}, "p50-ns/op": {50, 100}, "p99.9-sec/op": {999, 1000},
		"p100-ns/op": {}, "p0-ns/op": {}, "p99.9-ms/op": {}, "ns/op": {}, "p-ns/op": {},
	} {
		num, den, ok := latencyQuantile(unit)
		if ok != (want[1] > 0) || num != want[0] || den != want[1] {
			t.Errorf("latencyQuantile(%q) = %d/%d, %v; want %d/%d", unit, num, den, ok, want[0], want[1])
		}
	}
}

func TestLatencyUnit(t *testing.T) {
	if got := firstLatencyUnit([]string{"B/op", "p99.95-sec/op", "p50-ns/op"}); got != "p99.95-ns/op" {
		t.Errorf("firstLatencyUnit = %q, want p99.95-ns/op (perfmut.yaml's p99.95-ns/op as the config keeps it)", got)
	}
	if got := firstLatencyUnit(nil); got != "" {
		t.Errorf("firstLatencyUnit(nil) = %q", got)
	}
}
