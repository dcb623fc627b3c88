package runner

import (
	"cmp"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perfmut/perfmut/internal/engine"
	"github.com/perfmut/perfmut/internal/proc"
	"github.com/perfmut/perfmut/results"
	"github.com/perfmut/perfmut/score"
)

// Trivial compiler equivalence: a mutant whose compiled code is the same as
// the baseline's at a level cannot be slower there, so it is not measured
// (status equivalent, outside the score). The code compared is every copy
// of the mutated package's code in the test binaries that judge it: its own
// functions and the functions it can be inlined into (see inlineSymbols).
//
// The code is compared as `go tool objdump` prints it, normalized so that
// what only moves with the binary's layout is ignored: the file:line column,
// the addresses and encodings, branch targets inside the function (made
// relative to its start) and RIP-relative displacements. Calls and
// symbolized loads keep their symbol names.

// funcCode is the normalized code of each TEXT symbol of an objdump listing.
type funcCode map[string][]string

var (
	ripOperand = regexp.MustCompile(`-?0x[0-9a-f]+\(IP\)`)
	hexTarget  = regexp.MustCompile(`^0x[0-9a-f]+$`)
)

// A symbolizer names the symbol holding an address ("name+off"), or "".
type symbolizer func(addr uint64) string

// parseObjdump reads the output of `go tool objdump` into normalized code
// per function. RIP-relative operands are named by sym; without it (or
// when it cannot name the target) they are kept as printed, which only
// makes code compare as different.
func parseObjdump(out string, sym symbolizer) funcCode {
	code := funcCode{}
	var name string
	var start uint64
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "TEXT "); ok {
			name, _, _ = strings.Cut(rest, " ")
			name = strings.TrimSuffix(name, "(SB)")
			code[name] = []string{}
			start = 0
			continue
		}
		if name == "" || strings.TrimSpace(line) == "" {
			continue
		}
		var fields []string
		for _, f := range strings.Split(line, "\t") {
			if f = strings.TrimSpace(f); f != "" {
				fields = append(fields, f)
			}
		}
		// file:line, address, encoding, instruction
		if len(fields) < 4 {
			continue
		}
		addr, err := strconv.ParseUint(strings.TrimPrefix(fields[1], "0x"), 16, 64)
		if err != nil {
			continue
		}
		if len(code[name]) == 0 {
			start = addr
		}
		next := addr + uint64(len(fields[2])/2)
		code[name] = append(code[name], normalizeInsn(strings.Join(fields[3:], " "), start, next, sym))
	}
	return code
}

// normalizeInsn removes from one instruction what depends on layout:
// RIP-relative displacements (named by their target's symbol) and absolute
// branch targets (made relative to the function's start). next is the
// address of the following instruction.
func normalizeInsn(insn string, start, next uint64, sym symbolizer) string {
	if sym != nil {
		insn = ripOperand.ReplaceAllStringFunc(insn, func(op string) string {
			disp, err := strconv.ParseInt(strings.Replace(strings.TrimSuffix(op, "(IP)"), "0x", "", 1), 16, 64)
			if err != nil {
				return op
			}
			if name := sym(next + uint64(disp)); name != "" {
				return name + "(IP)"
			}
			return op
		})
	}
	op, arg, ok := strings.Cut(insn, " ")
	if !ok || !hexTarget.MatchString(arg) || !isBranch(op) {
		return insn
	}
	target, err := strconv.ParseUint(arg[2:], 16, 64)
	if err != nil {
		return insn
	}
	return fmt.Sprintf("%s .%+d", op, int64(target-start))
}

func isBranch(op string) bool {
	return strings.HasPrefix(op, "J") || op == "CALL" || op == "B" || strings.HasPrefix(op, "B.") ||
		op == "BL" || op == "CBZ" || op == "CBNZ" || op == "TBZ" || op == "TBNZ"
}

// diffCode compares base and mut and returns "" if they hold the same
// functions with the same code, or the first function that differs.
func diffCode(base, mut funcCode) string {
	names := make([]string, 0, len(base)+len(mut))
	for n := range base {
		names = append(names, n)
	}
	for n := range mut {
		if _, ok := base[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		b, okb := base[n]
		m, okm := mut[n]
		if !okb || !okm || !slices.Equal(b, m) {
			return n
		}
	}
	return ""
}

// inlineSymbols is the objdump -s pattern of every function that can hold
// code of package pkg: its own, its external test package's, those of the
// loaded packages that import it directly or not (affected) and of their
// external test packages, and the test main's. A small function is inlined
// into its callers and the linker drops its own copy when nothing else calls
// it, so comparing pkg's symbols alone misses the code that runs.
func (b *baseline) inlineSymbols(pkg string) string {
	pkgs := b.affected[pkg]
	if len(pkgs) == 0 {
		pkgs = []string{pkg}
	}
	return symbolsPattern(pkgs)
}

// symbolsPattern is the objdump -s pattern of the functions of the packages
// pkgs (import paths), of their external test packages and of package main.
func symbolsPattern(pkgs []string) string {
	alts := []string{"main"}
	for _, p := range pkgs {
		alts = append(alts, regexp.QuoteMeta(symbolPrefix(p))+"(?:_test)?")
	}
	return `^(?:` + strings.Join(alts, "|") + `)\.`
}

// symbolPrefix is how the linker spells an import path in symbol names
// (cmd/internal/objabi.PathToPrefix): control characters, spaces, '%', '"'
// and non-ASCII bytes, and the dots of the last path element, are
// %-escaped.
func symbolPrefix(path string) string {
	slash := strings.LastIndex(path, "/")
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c <= ' ' || c == '%' || c == '"' || c >= 0x7f || (c == '.' && i > slash) {
			fmt.Fprintf(&b, "%%%02x", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// objdumpCommand is the objdump tool's own path (go tool -n objdump), so
// that each disassembly runs it directly: through go tool, each one also
// paid for a go command (about three times objdump's CPU time on a
// btree test binary); "go tool objdump" if the path is not found.
func (t *tceState) objdumpCommand(ctx context.Context) []string {
	t.objdumpOnce.Do(func() {
		t.objdumpCmd = []string{"go", "tool", "objdump"}
		res, err := proc.Run(ctx, "", nil, 0, "go", "tool", "-n", "objdump")
		if err != nil || !res.OK() {
			return
		}
		if p := strings.TrimSpace(string(res.Output)); p != "" && !strings.Contains(p, "\n") {
			if _, err := os.Stat(p); err == nil {
				t.objdumpCmd = []string{p}
			}
		}
	})
	return t.objdumpCmd
}

// objdump disassembles the functions of bin whose names match the regular
// expression symbols.
func (t *tceState) objdump(ctx context.Context, e *engine.Engine, bin, symbols string) (funcCode, error) {
	cmd := append(slices.Clone(t.objdumpCommand(ctx)), "-s", symbols, bin)
	e.LogCmd("", cmd[0], cmd[1:]...)
	res, err := proc.Run(ctx, "", nil, 0, cmd[0], cmd[1:]...)
	if err != nil {
		return nil, err
	}
	if !res.OK() {
		if res.Canceled {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("go tool objdump %s: %s", bin, strings.TrimSpace(string(res.Output)))
	}
	return parseObjdump(string(res.Output), elfSymbolizer(bin)), nil
}

// baseCode is objdump of a baseline binary, disassembled once per run.
func (t *tceState) baseCode(ctx context.Context, e *engine.Engine, bin, symbols string) (funcCode, error) {
	key := bin + "\x00" + symbols
	if fc, ok := t.base.Load(key); ok {
		return fc.(funcCode), nil
	}
	fc, err := t.objdump(ctx, e, bin, symbols)
	if err == nil {
		t.base.Store(key, fc)
	}
	return fc, err
}

// equivalent compares, in each of the mutant's test binaries, the code
// that can hold the mutated package's (symbols, see inlineSymbols) with
// the baseline's (baseBins, by package) at level. It returns an equivalent result if every one is the
// same, or nil, and a fingerprint of that code in all the binaries ("" if
// unknown), by which duplicate mutants are found. A failure to disassemble
// is not fatal: the mutant is then measured.
func (t *tceState) equivalent(ctx context.Context, e *engine.Engine, symbols string, baseBins map[string]string, pkg, level string, bins map[string]string) (*results.LevelResult, string) {
	if len(bins) == 0 {
		return nil, ""
	}
	h := sha256.New()
	same := true
	for _, p := range slices.Sorted(maps.Keys(bins)) {
		base := baseBins[p]
		if base == "" {
			return nil, ""
		}
		// A binary may hold none of the package's code (all of it
		// inlined or unused): the same if the mutant's holds none.
		b, err := t.baseCode(ctx, e, base, symbols)
		if err != nil {
			return nil, ""
		}
		m, err := t.objdump(ctx, e, bins[p], symbols)
		if err != nil {
			return nil, ""
		}
		fmt.Fprintf(h, "%s\x00%s\x00", p, m.fingerprint())
		if diffCode(b, m) != "" {
			same = false
		}
	}
	print := hex.EncodeToString(h.Sum(nil))
	if !same {
		return nil, print
	}
	return &results.LevelResult{Status: score.Equivalent,
		Reason: fmt.Sprintf("the compiled code of %s, and of the code it can be inlined into, is the same as the baseline's at %s", pkg, level)}, print
}

// fingerprint is a hash of the normalized code of every function.
func (fc funcCode) fingerprint() string {
	h := sha256.New()
	for _, n := range slices.Sorted(maps.Keys(fc)) {
		fmt.Fprintf(h, "%s\x00%d\x00%s\x00", n, len(fc[n]), strings.Join(fc[n], "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// elfSymbolizer names addresses by bin's ELF symbol table; nil if bin is
// not ELF (the operands are then compared as printed).
func elfSymbolizer(bin string) symbolizer {
	f, err := elf.Open(bin)
	if err != nil {
		return nil
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil
	}
	syms = slices.DeleteFunc(syms, func(s elf.Symbol) bool { return s.Value == 0 || s.Name == "" })
	slices.SortFunc(syms, func(a, b elf.Symbol) int { return cmp.Compare(a.Value, b.Value) })
	return func(addr uint64) string {
		i, _ := slices.BinarySearchFunc(syms, addr, func(s elf.Symbol, a uint64) int {
			return cmp.Compare(s.Value, a+1)
		})
		if i == 0 {
			return ""
		}
		s := syms[i-1]
		if s.Size > 0 && addr >= s.Value+s.Size {
			return ""
		}
		return fmt.Sprintf("%s+%d", s.Name, addr-s.Value)
	}
}
