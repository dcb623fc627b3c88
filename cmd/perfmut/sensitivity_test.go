package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/detect"
	"github.com/perfmut/perfmut/internal/outdir"
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
		data, err := os.ReadFile(filepath.Join("../../internal/detect/testdata/shares", name))
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

// TestHelperSensitivity is not a test: TestSensitivityKilledTemp runs it
// in a child process, to SIGKILL it.
func TestHelperSensitivity(t *testing.T) {
	if os.Getenv("PERFMUT_HELPER_SENSITIVITY") == "" {
		t.Skip("helper process for TestSensitivityKilledTemp")
	}
	var stdout, stderr bytes.Buffer
	run(context.Background(), &stdout, &stderr, []string{"sensitivity", "-C", "../../internal/detect/testdata/shares", "-profile-time", "2s", "./..."})
}

// TestSensitivityKilledTemp: a perfmut sensitivity killed by SIGKILL
// leaves its scratch directory behind; it is a perfmut-run-* directory
// tagged with the dead process's id, which the next run removes
// (outdir.RemoveStaleTemp). Before, it was a perfmut-sensitivity-*
// directory that nothing removed.
func TestSensitivityKilledTemp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSensitivity$")
	cmd.Env = append(os.Environ(), "PERFMUT_HELPER_SENSITIVITY=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var pids []string
	for end := time.Now().Add(2 * time.Minute); len(pids) == 0 && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		pids, _ = filepath.Glob(filepath.Join(tmp, "perfmut-run-*", "pid"))
	}
	if len(pids) != 1 {
		t.Fatalf("no tagged scratch directory appeared in %s: %v", tmp, pids)
	}
	if data, err := os.ReadFile(pids[0]); err != nil || string(data) != strconv.Itoa(cmd.Process.Pid) {
		t.Errorf("pid file %q, %v; want the process's id %d", data, err, cmd.Process.Pid)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// Its go command and benchmark processes, in process groups of their
	// own, finish on their own (their deadline at most).
	for end := time.Now().Add(3 * time.Minute); time.Now().Before(end) && len(procsUsing(tmp)) > 0; time.Sleep(100 * time.Millisecond) {
	}
	if left := procsUsing(tmp); len(left) > 0 {
		t.Fatalf("processes of the killed map still run: %v", left)
	}
	if _, err := os.Stat(filepath.Dir(pids[0])); err != nil {
		t.Fatalf("the killed map's scratch directory is gone before the cleanup: %v", err)
	}
	outdir.RemoveStaleTemp(tmp)
	if left, _ := filepath.Glob(filepath.Join(tmp, "perfmut-*")); len(left) > 0 {
		t.Errorf("left after the cleanup: %v", left)
	}
}

// procsUsing lists the processes whose command line or working directory
// mentions dir.
func procsUsing(dir string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil || e.Name() == strconv.Itoa(os.Getpid()) {
			continue
		}
		data, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if strings.Contains(string(data), dir) || strings.HasPrefix(cwd, dir) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(data), "\x00", " "))
		}
	}
	return out
}
