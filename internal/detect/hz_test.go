package detect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfmut/perfmut/mutate"
)

// TestHzOverlay: the overlay's init starts the profiler before
// -test.cpuprofile does, only when hzEnv is set: the runtime then refuses
// the testing package's 100 Hz and says so.
func TestHzOverlay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	dir, err := filepath.Abs("testdata/shares")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	p := &mutate.Package{ImportPath: "example.com/shares", Name: "shares", Dir: dir}
	overlay, err := hzOverlay([]*mutate.Package{p}, work)
	if err != nil || overlay == "" {
		t.Fatalf("hzOverlay = %q, %v", overlay, err)
	}
	bin := filepath.Join(work, "shares.test")
	m := &mapper{}
	if err := m.build(context.Background(), []*mutate.Package{p}, work+"/", "-overlay", overlay); err != nil {
		t.Fatal(err)
	}
	const refused = "cannot set cpu profile rate"
	for _, on := range []bool{false, true} {
		env := os.Environ()
		if on {
			env = append(env, fmt.Sprintf("%s=%d", hzEnv, profileHz))
		}
		args := benchArgs([]string{"BenchmarkWork"}, "-test.benchtime", "1x", "-test.cpuprofile", filepath.Join(work, "cpu.prof"))
		out, err := runCmd(context.Background(), dir, env, 0, bin, args...)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(out), refused); got != on {
			t.Errorf("%s set %v: output says %q: %v, want %v\n%s", hzEnv, on, refused, got, on, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, hzFile)); err == nil {
		t.Errorf("%s written into the module", hzFile)
	}
}
