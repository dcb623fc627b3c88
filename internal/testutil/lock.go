package testutil

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/flock"
)

// MaxLockWait is the longest a test binary waits for the campaign lock
// when -test.timeout is 0 (none); otherwise it waits at most a third of
// the timeout, so that the wait and the binary's own tests fit in the
// time go test gives the binary: it kills a binary at the timeout plus a
// minute from its start, wait included (at a load average of 23 beside
// two busy loops, cmd/perfmut's tests took 593 s and runner's, after a
// wait of half the timeout, were killed at 660 s).
const MaxLockWait = 30 * time.Minute

// lockPoll is how often a waiting binary tries the lock again.
const lockPoll = 200 * time.Millisecond

// RunCampaignTests runs m's tests while holding the module's campaign lock
// (CampaignLockPath): go test runs the test binaries of several packages
// at once, and the tests that measure real benchmarks (runner's,
// cmd/perfmut's) must not measure on a machine that the other package's
// campaigns load. The lock is an advisory file lock (flock): the kernel
// releases it when the binary exits or dies, so a killed binary never
// leaves it held, and one binary holds one lock, so none can deadlock.
// A binary that waits longer than a third of its -test.timeout runs
// without the lock and says so. With -short (no campaign runs) or -test.list
// it takes no lock, nor does a test binary started by the holder (a test
// that re-runs its own binary as a helper process): the holder's
// environment says it holds the lock (HeldEnv), and the child is part of
// its run. Use it as a package's TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testutil.RunCampaignTests(m)) }
func RunCampaignTests(m *testing.M) int {
	flag.Parse()
	if testing.Short() || flagSet("test.list") || os.Getenv(HeldEnv) != "" {
		return m.Run()
	}
	path, err := CampaignLockPath()
	if err != nil {
		fmt.Fprintf(os.Stderr, "testutil: no campaign lock (%v); campaign tests may run beside another package's\n", err)
		return m.Run()
	}
	l, err := Lock(path, lockWait(), os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testutil: %v; running without the campaign lock\n", err)
		return m.Run()
	}
	defer l.Unlock()
	os.Setenv(HeldEnv, strconv.Itoa(os.Getpid()))
	return m.Run()
}

// HeldEnv is set, to its pid, in the environment of a test binary that
// holds the campaign lock, so that the test binaries it starts do not wait
// for it.
const HeldEnv = "PERFMUT_TEST_CAMPAIGN_LOCK_HELD"

// lockWait is how long RunCampaignTests waits for the lock: a third of
// -test.timeout, MaxLockWait when there is none.
func lockWait() time.Duration {
	f := flag.Lookup("test.timeout")
	if f == nil {
		return MaxLockWait
	}
	d, ok := f.Value.(flag.Getter).Get().(time.Duration)
	if !ok || d <= 0 {
		return MaxLockWait
	}
	return d / 3
}

// flagSet reports whether the flag name has a non-empty value.
func flagSet(name string) bool {
	f := flag.Lookup(name)
	return f != nil && f.Value.String() != ""
}

// CampaignLockPath is the lock file of the module that holds the working
// directory: in os.TempDir, named after a hash of the module's root
// directory, so that the test binaries of one clone exclude each other and
// those of another clone do not wait for them.
func CampaignLockPath() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root, err := moduleRoot(dir)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(os.TempDir(), "perfmut-campaign-tests-"+hex.EncodeToString(sum[:8])+".lock"), nil
}

// moduleRoot is the nearest directory at or above dir with a go.mod.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no go.mod at or above %s", dir)
		}
		d = up
	}
}

// A FileLock is an exclusive lock on a file, held by this process.
type FileLock struct {
	f *os.File
}

// ErrLockTimeout is returned by Lock when the lock stayed held for the
// whole wait.
var ErrLockTimeout = errors.New("lock still held")

// Lock takes the exclusive lock on the file at path (creating it), waiting
// at most wait for another process to release it; while it waits it says
// once on log which process holds it. The holder's pid is written into
// the file. A process that dies releases its lock.
func Lock(path string, wait time.Duration, log io.Writer) (*FileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	said := false
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		if ok {
			break
		}
		if !said && log != nil {
			fmt.Fprintf(log, "testutil: waiting for process %s, which holds %s\n", Holder(path), path)
			said = true
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s: %w by process %s after %s", path, ErrLockTimeout, Holder(path), wait)
		}
		time.Sleep(lockPoll)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &FileLock{f: f}, nil
}

// Unlock releases the lock.
func (l *FileLock) Unlock() error {
	flock.Unlock(l.f)
	return l.f.Close()
}

// tryLock takes f's lock without waiting: false if another open file
// holds it. Where there is no flock it takes none (true): the campaign
// tests of several packages may run at once there.
func tryLock(f *os.File) (bool, error) {
	ok, err := flock.TryLock(f)
	if errors.Is(err, flock.ErrUnsupported) {
		return true, nil
	}
	return ok, err
}

// Holder is the pid written in the lock file at path ("?" if none).
func Holder(path string) string {
	data, err := os.ReadFile(path)
	if s := strings.TrimSpace(string(data)); err == nil && s != "" {
		return s
	}
	return "?"
}
