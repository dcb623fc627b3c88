package runner

// CopyModule copies the module at src to dst (created), skipping .git
// and the directory skip (a results directory inside the module; "" for
// none): the private copy a command builds in when it must add files
// the module's own tree must never get.
func CopyModule(src, dst, skip string) error { return copyTree(src, dst, skip) }
