package results

import "github.com/perfmut/perfmut/score"

// A compare metric's ratios in JSON: unbounded ones (a baseline median of
// 0 against a positive one, or the interval of fewer than 6 rounds) are
// null, as in report.json, not the largest float, and read back as
// score.UnboundedRatio.

// compareMetricJSON is CompareMetric without its methods, for the encoder.
type compareMetricJSON CompareMetric

// compareRatioKeys are the JSON keys of a CompareMetric's ratios.
var compareRatioKeys = []string{"ratio", "ratio_lo", "ratio_hi"}

// MarshalJSON writes m with its unbounded ratios as null.
func (m CompareMetric) MarshalJSON() ([]byte, error) {
	return score.MarshalRatios(compareMetricJSON(m), compareRatioKeys...)
}

// UnmarshalJSON reads a CompareMetric whose null ratios are unbounded.
func (m *CompareMetric) UnmarshalJSON(data []byte) error {
	return score.UnmarshalRatios(data, (*compareMetricJSON)(m), compareRatioKeys, &m.Ratio, &m.RatioLo, &m.RatioHi)
}
