package runner

import (
	"os"
	"testing"

	"github.com/perfmut/perfmut/internal/testutil"
)

// TestMain holds the module's campaign lock while the tests run: they
// measure real benchmarks, and go test runs cmd/perfmut's campaign tests
// at the same time (see testutil.RunCampaignTests).
func TestMain(m *testing.M) { os.Exit(testutil.RunCampaignTests(m)) }
