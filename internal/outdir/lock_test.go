package outdir

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/perfmut/perfmut/internal/inputerr"
)

var lockTime = time.Date(2026, 11, 25, 18, 10, 3, 0, time.UTC)

// TestLock: a second lock on a results directory is refused with a
// line naming the holder; after Unlock the file is gone and the lock can
// be taken again.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	l, err := lock(dir, lockTime)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lock(dir)
	want := fmt.Sprintf("-out %s is in use by perfmut (pid %d, since 2026-11-25 18:10:03 UTC); wait for it to finish, or choose another -out", dir, os.Getpid())
	if err == nil || err.Error() != want {
		t.Fatalf("second lock: %v, want %q", err, want)
	}
	var ie *inputerr.Error
	var ue *InUseError
	if !errors.As(err, &ie) || !errors.As(err, &ue) || ue.PID != os.Getpid() {
		t.Errorf("second lock: %#v, want an *inputerr.Error wrapping an *InUseError with pid %d", err, os.Getpid())
	}
	if err := CheckUnlocked(dir); err == nil || err.Error() != want {
		t.Errorf("CheckUnlocked: %v, want %q", err, want)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Unlock: %v, want none", err)
	}
	if err := CheckUnlocked(dir); err != nil {
		t.Errorf("CheckUnlocked after Unlock: %v", err)
	}
	l, err = Lock(dir)
	if err != nil {
		t.Fatalf("lock after Unlock: %v", err)
	}
	l.Unlock()
}

// deadPID is the pid of a process that has exited: the test binary, run
// with no test.
func deadPID(t *testing.T) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestLockStale: the lock file of a process that is gone (killed
// before it could remove it) is taken, by the system lock and by the pid
// lock used where there is none.
func TestLockStale(t *testing.T) {
	stale := fmt.Sprintf(`{"pid":%d,"since":"2026-11-25T17:00:00Z"}`, deadPID(t))
	t.Run("Lock", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, LockFile), []byte(stale), 0o644)
		if err := CheckUnlocked(dir); err != nil {
			t.Errorf("CheckUnlocked: %v, want the stale lock free", err)
		}
		l, err := lock(dir, lockTime)
		if err != nil {
			t.Fatalf("stale lock not taken: %v", err)
		}
		defer l.Unlock()
		info, ok := readLockInfo(filepath.Join(dir, LockFile))
		if !ok || info.PID != os.Getpid() || !info.Since.Equal(lockTime) {
			t.Errorf("lock file holds %+v, want pid %d since %s", info, os.Getpid(), lockTime)
		}
	})
	for _, tc := range []struct {
		name    string
		content string
		age     time.Duration
		held    bool
	}{
		{"dead pid", stale, 0, false},
		{"live pid", fmt.Sprintf(`{"pid":%d,"since":"2026-11-25T17:00:00Z"}`, os.Getpid()), time.Hour, true},
		{"being written", "", 0, true},
		{"never written", "", 2 * staleUnwritten, false},
	} {
		t.Run("pidLock/"+tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), LockFile)
			os.WriteFile(path, []byte(tc.content), 0o644)
			old := time.Now().Add(-tc.age)
			os.Chtimes(path, old, old)
			if got := pidHeld(path); got != tc.held {
				t.Errorf("pidHeld = %v, want %v", got, tc.held)
			}
			f, held, err := pidLock(path)
			if err != nil || held != tc.held || (f != nil) == tc.held {
				t.Fatalf("pidLock = %v, %v, %v; want held %v", f, held, err, tc.held)
			}
			if f != nil {
				f.Close()
			}
		})
	}
}

// TestHelperLock is not a test: TestLockKilledHolder runs it in a child
// process, which locks a directory and waits to be killed.
func TestHelperLock(t *testing.T) {
	dir := os.Getenv("PERFMUT_HELPER_LOCK")
	if dir == "" {
		t.Skip("helper process for TestLockKilledHolder")
	}
	if _, err := lock(dir, lockTime); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Minute)
}

// TestLockKilledHolder: while another process holds the lock, it is
// refused with that process's pid; once that process is killed with
// SIGKILL (Process.Kill: its lock file stays), the lock is taken.
func TestLockKilledHolder(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLock$")
	cmd.Env = append(os.Environ(), "PERFMUT_HELPER_LOCK="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	path := filepath.Join(dir, LockFile)
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := readLockInfo(path); ok {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the helper did not take the lock in 30s")
		}
	}
	want := fmt.Sprintf("-out %s is in use by perfmut (pid %d, since 2026-11-25 18:10:03 UTC); wait for it to finish, or choose another -out", dir, cmd.Process.Pid)
	if _, err := Lock(dir); err == nil || err.Error() != want {
		t.Fatalf("lock held by another process: %v, want %q", err, want)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the killed holder's lock file: %v, want it left behind", err)
	}
	l, err := Lock(dir)
	if err != nil {
		t.Fatalf("lock of a killed holder not taken: %v", err)
	}
	l.Unlock()
}

// TestPidLockRace: processes that all find the same lock stale, at once,
// take it one only: the others see it held. Goroutines stand for the
// processes (each winner's file is left unwritten, a lock being written).
func TestPidLockRace(t *testing.T) {
	stale := fmt.Sprintf(`{"pid":%d,"since":"2026-11-25T17:00:00Z"}`, deadPID(t))
	for round := range 50 {
		path := filepath.Join(t.TempDir(), LockFile)
		os.WriteFile(path, []byte(stale), 0o644)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var won []*os.File
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f, held, err := pidLock(path)
				if err != nil || held == (f != nil) {
					t.Errorf("pidLock = %v, %v, %v", f, held, err)
				}
				if f != nil {
					mu.Lock()
					won = append(won, f)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		for _, f := range won {
			f.Close()
		}
		if len(won) != 1 {
			t.Fatalf("round %d: %d takers of one stale lock, want 1", round, len(won))
		}
		if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
			t.Errorf("round %d: %d files beside the lock, want none", round, len(ents)-1)
		}
	}
}

// TestLockHeldReadOnly: whether a results directory is in use is read
// from a lock file this process may not write (another user's run).
func TestLockHeldReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes read-only files")
	}
	dir := t.TempDir()
	l, err := lock(dir, lockTime)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	if err := os.Chmod(filepath.Join(dir, LockFile), 0o444); err != nil {
		t.Fatal(err)
	}
	if !lockHeld(filepath.Join(dir, LockFile)) {
		t.Error("lockHeld = false for a held read-only lock file, want true")
	}
}

// TestCheckTakesNoLock: checking whether a results directory is in use
// never refuses a process that locks it at the same moment, as a check
// that took the lock for an instant would. The lock file is left in place
// between the locks, as a killed holder leaves it.
func TestCheckTakesNoLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), LockFile)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	checked := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				checked <- n
				return
			default:
			}
			lockHeld(path)
			n++
		}
	}()
	refused := 0
	for range 3000 {
		f, held, err := acquireLock(path)
		if err != nil {
			t.Fatal(err)
		}
		if held {
			refused++
			continue
		}
		f.Close()
	}
	close(stop)
	n := <-checked
	if refused > 0 {
		t.Errorf("%d of 3000 locks refused while the lock was checked %d times, want none", refused, n)
	}
	if testing.Verbose() {
		t.Logf("checked %d times, %d refused", n, refused)
	}
}
