//go:build !linux

package engine

import (
	"context"
	"strings"
	"time"

	"github.com/perfmut/perfmut/internal/proc"
)

// cpuModel asks sysctl (macOS, BSD) for the CPU's name.
func cpuModel(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for _, key := range []string{"machdep.cpu.brand_string", "hw.model"} {
		out, err := proc.Command(ctx, "", nil, "sysctl", "-n", key).Output()
		if s := strings.TrimSpace(string(out)); err == nil && s != "" {
			return s
		}
	}
	return "unknown CPU"
}
