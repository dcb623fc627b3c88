package instr

// platformReason is why valgrind cannot count Go programs on goos/goarch,
// "" if it can: on Linux, amd64 and arm64 (the architectures valgrind
// supports that Go programs are commonly built for).
func platformReason(goos, goarch string) string {
	switch goarch {
	case "amd64", "arm64":
		return ""
	}
	return "valgrind does not support Go programs on " + goos + "/" + goarch
}
