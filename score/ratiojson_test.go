package score

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestRatioJSON: an unbounded ratio (0 -> 64 B/op) is null in JSON, not
// 1.797e308, and reads back as UnboundedRatio; the other fields keep their
// order and values; a bounded ratio is written as it is; an older report's
// largest float reads as unbounded too.
func TestRatioJSON(t *testing.T) {
	unbounded := TestResult{Benchmark: "BenchmarkSet", Metric: BytesPerOp, P: 0.004, PAdj: 0.004,
		Ratio: UnboundedRatio, RatioLo: 1.5, RatioHi: UnboundedRatio, Upper: UnboundedRatio, NBaseline: 5, NMutant: 5,
		Warnings: []string{"baseline median is 0: the median ratio is unbounded"}}
	b, err := json.Marshal(unbounded)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"BenchmarkSet","metric":"B/op","d":0,"p":0.004,"p_adj":0.004,"ratio":null,"ratio_lo":1.5,"ratio_hi":null,"ratio_upper":null,"n_baseline":5,"n_mutant":5,"reject":false,"warnings":["baseline median is 0: the median ratio is unbounded"]}`
	if string(b) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", b, want)
	}
	var back TestResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, unbounded) {
		t.Errorf("read back %+v, want %+v", back, unbounded)
	}
	bounded := TestResult{Benchmark: "BenchmarkGet", Metric: SecPerOp, Ratio: 1.25, RatioLo: 1.1, RatioHi: 1.4}
	b, err = json.Marshal(bounded)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"BenchmarkGet","metric":"sec/op","d":0,"p":0,"p_adj":0,"ratio":1.25,"ratio_lo":1.1,"ratio_hi":1.4,"n_baseline":0,"n_mutant":0,"reject":false}`; string(b) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", b, want)
	}
	var old TestResult
	if err := json.Unmarshal([]byte(`{"name":"BenchmarkSet","metric":"B/op","ratio":1.7976931348623157e+308,"ratio_upper":1.2}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Ratio != UnboundedRatio || old.Upper != 1.2 {
		t.Errorf("an older report's ratio %g, upper %g; want UnboundedRatio, 1.2", old.Ratio, old.Upper)
	}
}
