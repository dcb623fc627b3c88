//go:build unix

package proc

import (
	"os"
	"strconv"
	"strings"
)

// zombie reports whether pid has exited and waits for its parent (which
// may be an init that never reaps): Linux says so in /proc; elsewhere
// false.
func zombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && strings.HasPrefix(s[i+1:], " Z")
}
