package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// MarshalJSON writes s as the settings of report.json, settings.json and
// compare.json: the fields of the rule (score.Rule's keys) among the
// others, in the key order of the reports written before the rule was one
// value (max_benchmarks and cpu right after max_samples), so that a
// re-rendered report is byte for byte the same and the -since hash of a
// campaign does not change.
func (s Settings) MarshalJSON() ([]byte, error) {
	type plain Settings // without this method
	data, err := json.Marshal(plain(s))
	if err != nil {
		return nil, err
	}
	keys, values, err := objectFields(data)
	if err != nil {
		return nil, err
	}
	after := "max_samples"
	for _, k := range []string{"max_benchmarks", "cpu"} {
		i, at := slices.Index(keys, k), slices.Index(keys, after)
		if i < 0 || at < 0 {
			continue
		}
		v := values[i]
		keys, values = slices.Delete(keys, i, i+1), slices.Delete(values, i, i+1)
		at = slices.Index(keys, after) + 1
		keys, values = slices.Insert(keys, at, k), slices.Insert(values, at, v)
		after = k
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteByte(':')
		b.Write(values[i])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// objectFields splits the JSON object data into its keys and their raw
// values, in order.
func objectFields(data []byte) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("settings: not a JSON object")
	}
	var keys []string
	var values []json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, values = append(keys, t.(string)), append(values, v)
	}
	return keys, values, nil
}
