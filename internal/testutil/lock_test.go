package testutil

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/flock"
)

// lockHelperEnv makes the test binary a process that holds the lock file
// named in it until its stdin closes (TestLockHelper).
const lockHelperEnv = "TESTUTIL_LOCK_HELPER"

// TestLockHelper is not a test: it is the process that holds the lock for
// the tests below.
func TestLockHelper(t *testing.T) {
	path := os.Getenv(lockHelperEnv)
	if path == "" {
		t.Skip("helper process")
	}
	l, err := Lock(path, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	bufio.NewReader(os.Stdin).ReadString('\n') // until the parent closes stdin
	l.Unlock()
}

// holdLock starts a process holding the lock at path; closing the returned
// pipe makes it release the lock and exit. Where the system has no flock
// (Lock takes none) the test is skipped.
func holdLock(t *testing.T, path string) (*exec.Cmd, *os.File) {
	t.Helper()
	if f, err := os.Create(filepath.Join(t.TempDir(), "probe")); err == nil {
		_, err = flock.TryLock(f)
		f.Close()
		if errors.Is(err, flock.ErrUnsupported) {
			t.Skipf("no file locks here: %v", err)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHelper$")
	cmd.Env = append(os.Environ(), lockHelperEnv+"="+path)
	in, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = in
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	in.Close()
	t.Cleanup(func() { w.Close(); cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper: %q, %v", line, err)
	}
	return cmd, w
}

// TestLockExcludes: while another process holds the lock, Lock waits and
// then gives up naming it; once that process is killed (SIGKILL: it
// releases nothing itself), the lock is free at once.
func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "campaign.lock")
	cmd, _ := holdLock(t, path)
	pid := strconv.Itoa(cmd.Process.Pid)
	var log bytes.Buffer
	start := time.Now()
	_, err := Lock(path, 500*time.Millisecond, &log)
	if !errors.Is(err, ErrLockTimeout) || !strings.Contains(err.Error(), "process "+pid) {
		t.Fatalf("Lock while held: %v, want ErrLockTimeout naming process %s", err, pid)
	}
	if d := time.Since(start); d < 500*time.Millisecond {
		t.Errorf("Lock gave up after %s, want at least the 500ms wait", d)
	}
	if want := "testutil: waiting for process " + pid + ", which holds " + path + "\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := Lock(path, 5*time.Second, nil)
	if err != nil {
		t.Fatalf("Lock after the holder died: %v", err)
	}
	if h := Holder(path); h != strconv.Itoa(os.Getpid()) {
		t.Errorf("holder %s, want this process %d", h, os.Getpid())
	}
	l.Unlock()
}

// TestLockWaits: a waiting Lock takes the lock as soon as its holder
// releases it.
func TestLockWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "campaign.lock")
	_, release := holdLock(t, path)
	go func() {
		time.Sleep(300 * time.Millisecond)
		release.Close()
	}()
	l, err := Lock(path, 30*time.Second, nil)
	if err != nil {
		t.Fatalf("Lock: %v, want it once the holder releases", err)
	}
	l.Unlock()
}

// TestCampaignLockPath: one lock file for every package of a module, in
// os.TempDir; another for another module.
func TestCampaignLockPath(t *testing.T) {
	tmp := t.TempDir()
	os.MkdirAll(filepath.Join(tmp, "a", "sub"), 0o755)
	os.MkdirAll(filepath.Join(tmp, "b"), 0o755)
	os.WriteFile(filepath.Join(tmp, "a", "go.mod"), []byte("module m\n"), 0o644)
	os.WriteFile(filepath.Join(tmp, "b", "go.mod"), []byte("module m\n"), 0o644)
	path := func(dir string) string {
		t.Helper()
		t.Chdir(filepath.Join(tmp, dir))
		p, err := CampaignLockPath()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, sub, b := path("a"), path("a/sub"), path("b")
	if a != sub || a == b || filepath.Dir(a) != filepath.Clean(os.TempDir()) {
		t.Errorf("lock paths: a %s, a/sub %s, b %s; want a = a/sub != b, in %s", a, sub, b, os.TempDir())
	}
}
