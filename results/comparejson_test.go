package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/score"
)

// TestCompareJSONUnboundedRatio: compare.json writes a ratio over a zero
// baseline median, and the upper end of an interval that fewer than 6
// rounds cannot bound, as null (not 1.797e308), like report.json, and reads
// them back as score.UnboundedRatio; bounded ratios are written as they are.
func TestCompareJSONUnboundedRatio(t *testing.T) {
	rep := Comparison{MaxSlowdown: 0.05, Benchmarks: []CompareBenchmark{{Name: "BenchmarkSet", Metrics: []CompareMetric{
		{Metric: "B/op", Verdict: score.Slower, Old: 0, New: 64, Ratio: score.UnboundedRatio, RatioLo: 0, RatioHi: score.UnboundedRatio,
			P: 0.002, PAdj: 0.004, OldValues: []float64{0, 0}, NewValues: []float64{64, 64}},
		{Metric: "sec/op", Verdict: score.Same, Old: 1e-6, New: 1e-6, Ratio: 1.01, RatioLo: 0.98, RatioHi: 1.03,
			P: 0.4, PAdj: 0.8, OldValues: []float64{1e-6}, NewValues: []float64{1e-6}},
	}}}}
	path := filepath.Join(t.TempDir(), CompareFile)
	if err := WriteJSON(path, &rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{`"ratio": null,`, `"ratio_lo": 0,`, `"ratio_hi": null,`, `"ratio": 1.01,`, `"ratio_lo": 0.98,`, `"ratio_hi": 1.03,`} {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %s:\n%s", CompareFile, want, text)
		}
	}
	if strings.Contains(text, "e+308") {
		t.Errorf("%s writes the largest float:\n%s", CompareFile, text)
	}
	var back Comparison
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rep) {
		t.Errorf("read back\n%+v\nwant\n%+v", back, rep)
	}
}
