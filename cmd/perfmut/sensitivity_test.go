package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/perfmut/perfmut/detect"
)

func TestSensitivityScripts(t *testing.T) { runScripts(t, "sensitivity_*.txtar") }

// TestSensitivityJSON runs the command on the detect package's test
// module: every function gets a row, with its status, and a factor only
// when a benchmark times it.
func TestSensitivityJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	var stdout, stderr bytes.Buffer
	args := []string{"sensitivity", "-C", "../../detect/testdata/shares", "-json", "-profile-time", "500ms", "./..."}
	if code := run(context.Background(), &stdout, &stderr, args); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var m detect.Map
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]detect.Status{"Unused": detect.Never, "Prepare": detect.SetUp, "Half": detect.Timed, "Rest": detect.Timed, "Small": detect.Timed, "spin": detect.Timed}
	if len(m.Functions) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(m.Functions), len(want), m.Functions)
	}
	for i, r := range m.Functions {
		fn := r.Function
		if r.Package != "example.com/shares" {
			t.Errorf("%s: package %q", fn, r.Package)
		}
		if r.Status != want[fn] || (r.Factor == nil) != (r.Status != detect.Timed) {
			t.Errorf("%s: status %q factor %v, want %q", r.Function, r.Status, r.Factor, want[fn])
		}
		if i < 2 && r.Status == detect.Timed {
			t.Errorf("row %d is %s: never and set-up only come first", i, r.Function)
		}
	}
}
