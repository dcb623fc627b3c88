package generate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/proc"
)

// captureEnv is the environment variable naming the file the recorder
// appends the calls to.
const captureEnv = "PERFMUT_CAPTURE"

// capture runs the tests of pkgs (import paths) once, in the module at
// dir, through a go test -overlay that instruments probes, and returns
// the recorded calls by key. A test that fails does not stop it (the
// calls it made are kept); it is said in the returned note.
func capture(ctx context.Context, e *engine.Engine, dir string, pkgs []string, probes []probe, timeout time.Duration) (map[string][]*recordedCall, string, error) {
	files, err := instrument(probes)
	if err != nil {
		return nil, "", err
	}
	tmp, err := os.MkdirTemp(e.Tmp, "capture-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.Mkdir(filepath.Join(tmp, "overlay"), 0o755); err != nil {
		return nil, "", err
	}
	overlay, _, err := engine.WriteOverlay(filepath.Join(tmp, "overlay"), dir, files)
	if err != nil {
		return nil, "", err
	}
	out := filepath.Join(tmp, "calls.jsonl")
	args := []string{"test", "-count=1", "-vet=off", "-overlay", overlay}
	if tags := e.Config().Tags; len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	args = append(args, "-timeout", timeout.String())
	args = append(args, pkgs...)
	e.LogCmd(dir, "go", args...)
	env := append(os.Environ(), captureEnv+"="+out, "GOTMPDIR="+tmp)
	res, err := proc.Run(ctx, dir, env, timeout+time.Minute, "go", args...)
	if err != nil {
		return nil, "", err
	}
	if res.Canceled {
		return nil, "", ctx.Err()
	}
	note := ""
	if !res.OK() {
		note = fmt.Sprintf("the tests run to capture arguments failed (%s); the calls recorded before are used", engine.LastLines(res.Output, 3))
		if strings.Contains(string(res.Output), "[build failed]") || strings.Contains(string(res.Output), "[setup failed]") {
			return nil, "", fmt.Errorf("the instrumented tests do not build: %s", engine.LastLines(res.Output, 5))
		}
	}
	f, err := os.Open(out)
	if os.IsNotExist(err) {
		return map[string][]*recordedCall{}, note, nil
	}
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	calls, err := readCalls(f)
	if err != nil {
		return nil, "", err
	}
	byKey := map[string][]*recordedCall{}
	for _, c := range calls {
		byKey[c.Fn] = append(byKey[c.Fn], c)
	}
	return byKey, note, nil
}
