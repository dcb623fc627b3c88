package score

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// A test's ratios in JSON: an unbounded one (UnboundedRatio, a baseline
// median of 0 against a positive mutant median, e.g. 0 -> 64 B/op) is
// null, not the largest float: 1.797e308 reads as a measured ratio to any
// tool that plots, sums or compares it. The test's warning says why
// ("baseline median is 0: the median ratio is unbounded"). null reads back
// as UnboundedRatio, and so does the largest float of an older report.

// UnboundedNote says why a ratio is unbounded, after "inf" in the
// reports.
const UnboundedNote = "(baseline median 0)"

// RatioX writes a ratio for a log or a gate's line: three significant
// digits and an x, "1.23x"; an unbounded one says why, "inf (baseline
// median 0)" (not 1.8e+308x).
func RatioX(r float64) string {
	switch {
	case r >= UnboundedRatio:
		return "inf " + UnboundedNote
	case r <= -UnboundedRatio:
		return "-inf " + UnboundedNote
	}
	return strconv.FormatFloat(r, 'g', 3, 64) + "x"
}

// testJSON is TestResult without its methods, for the encoder.
type testJSON TestResult

// ratioKeys are the JSON keys of a TestResult's ratios.
var ratioKeys = []string{"ratio", "ratio_lo", "ratio_hi", "ratio_upper"}

// MarshalJSON writes t with its unbounded ratios as null, its fields in
// their order.
func (t TestResult) MarshalJSON() ([]byte, error) {
	return MarshalRatios(testJSON(t), ratioKeys...)
}

// UnmarshalJSON reads a TestResult whose null ratios are unbounded.
func (t *TestResult) UnmarshalJSON(data []byte) error {
	return UnmarshalRatios(data, (*testJSON)(t), ratioKeys, &t.Ratio, &t.RatioLo, &t.RatioHi, &t.Upper)
}

// MarshalRatios encodes v (a struct without a MarshalJSON of its own) with
// the ratios under the given keys written as null where they are
// unbounded (+-UnboundedRatio), the other fields as encoding/json writes
// them.
func MarshalRatios(v any, keys ...string) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		// A key with its quotes cannot occur inside a JSON string, where a
		// quote is escaped.
		for _, x := range []float64{UnboundedRatio, -UnboundedRatio} {
			b = bytes.ReplaceAll(b, []byte(strconv.Quote(k)+":"+string(mustJSON(x))), []byte(strconv.Quote(k)+":null"))
		}
	}
	return b, nil
}

// mustJSON is x as encoding/json writes it.
func mustJSON(x float64) []byte {
	b, _ := json.Marshal(x) // a finite float encodes
	return b
}

// UnmarshalRatios decodes data into v (a pointer to a struct without an
// UnmarshalJSON of its own) and sets dsts[i] to UnboundedRatio where the
// key keys[i] is null.
func UnmarshalRatios(data []byte, v any, keys []string, dsts ...*float64) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	for i, dst := range dsts {
		if string(raw[keys[i]]) == "null" {
			*dst = UnboundedRatio
		}
	}
	return nil
}
