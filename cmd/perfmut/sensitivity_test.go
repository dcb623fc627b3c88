package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/detect"
	"github.com/perfmut/perfmut/internal/testutil"
)

func TestSensitivityScripts(t *testing.T) { runScripts(t, "sensitivity_*.txtar") }

// TestSensitivityJSON runs the command on a git copy of the detect
// package's test module, with Half edited since HEAD: every function gets
// a row, with its status, and a factor only when a benchmark times it;
// -changed-since notes Half alone, a warning by -warn-factor's threshold
// (every timed factor is above 1.0001, while the default x2 would leave
// Half, half of its benchmark's time, a note).
func TestSensitivityJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "work.go", "work_test.go"} {
		data, err := os.ReadFile(filepath.Join("../../detect/testdata/shares", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testutil.Git(t, dir, "init", "-q")
	testutil.Git(t, dir, "add", ".")
	testutil.Git(t, dir, "commit", "-q", "-m", "shares")
	src, _ := os.ReadFile(filepath.Join(dir, "work.go"))
	edited := strings.Replace(string(src), "func Half(x uint64) uint64 { return spin(x, 5000) }", "func Half(x uint64) uint64 { return spin(x, 5000) } // edited", 1)
	if edited == string(src) {
		t.Fatal("the test module's Half is not as expected")
	}
	if err := os.WriteFile(filepath.Join(dir, "work.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"sensitivity", "-C", dir, "-json", "-profile-time", "500ms", "-changed-since", "HEAD", "-warn-factor", "1.0001", "./..."}
	if code := run(context.Background(), &stdout, &stderr, args); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var m struct {
		detect.Map
		Changed []detect.Note `json:"changed_functions"`
	}
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
	if len(m.Changed) != 1 || m.Changed[0].Function != "example.com/shares.Half" || !m.Changed[0].Warning ||
		!strings.Contains(m.Changed[0].Text, "above the warning threshold x1, is caught") {
		t.Errorf("changed_functions = %+v, want Half alone, a warning above x1.0001", m.Changed)
	}
}
