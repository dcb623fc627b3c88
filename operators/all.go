package operators

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strings"

	"github.com/perfmut/perfmut/mutate"
)

// All lists every operator, in catalogue order: Q4, Q3, then Q2.
var All = []*mutate.Operator{
	LoopUnbreaker,
	Oblivion,
	GlobalOblivion,
	CapHintDrop,
	RLockToLock,
	PoolBypass,
	ChanUnbuffer,
	AtomicToMutex,
	SpinLoop,
	Sleep,
	AllocChurn,
	LockContention,
	CriticalSpin,
	TailSpike,
	CallReplace,
	VarReplace,
}

// ByName returns the operator of All called name, or nil.
func ByName(name string) *mutate.Operator {
	for _, op := range All {
		if op.Name == name {
			return op
		}
	}
	return nil
}

// Names returns the names of the operators of All for which keep is true,
// in catalogue order, comma-separated: for help texts that name, say, the
// inert operators.
func Names(keep func(*mutate.Operator) bool) string {
	var names []string
	for _, op := range All {
		if keep(op) {
			names = append(names, op.Name)
		}
	}
	return strings.Join(names, ", ")
}

var kebab = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// Validate checks a list of operators: unique kebab-case names, a known
// quadrant, a Cost that is set and agrees with Contention, a complete Doc, a Run function, and helper code that parses,
// declares only identifiers starting with mutate.HelperPrefix (distinct
// across operators) and imports only standard-library packages listed in
// HelperImports.
func Validate(ops []*mutate.Operator) error {
	var errs []error
	names := make(map[string]bool)
	helperIDs := make(map[string]string)
	for i, op := range ops {
		if op == nil {
			errs = append(errs, fmt.Errorf("operator %d is nil", i))
			continue
		}
		where := fmt.Sprintf("operator %q", op.Name)
		if !kebab.MatchString(op.Name) {
			errs = append(errs, fmt.Errorf("%s: name is not kebab-case", where))
		}
		if names[op.Name] {
			errs = append(errs, fmt.Errorf("%s: duplicate name", where))
		}
		names[op.Name] = true
		switch op.Quadrant {
		case mutate.Q2, mutate.Q3, mutate.Q4:
		default:
			errs = append(errs, fmt.Errorf("%s: unknown quadrant %q", where, op.Quadrant))
		}
		if op.Contention < mutate.ContentionNone || op.Contention > mutate.ContentionOnly {
			errs = append(errs, fmt.Errorf("%s: unknown Contention %d", where, op.Contention))
		}
		if err := checkCost(op); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
		}
		if op.Inert && op.Quadrant != mutate.Q3 {
			// Q2 and Q4 change which code runs: the tests must judge them.
			errs = append(errs, fmt.Errorf("%s: Inert is for Q3 operators (injected work) only", where))
		}
		d := op.Doc
		for _, field := range []struct{ name, val string }{{"Title", d.Title}, {"Body", d.Body}, {"Before", d.Before}, {"After", d.After}} {
			if strings.TrimSpace(field.val) == "" {
				errs = append(errs, fmt.Errorf("%s: Doc.%s is empty", where, field.name))
			}
		}
		if op.Run == nil {
			errs = append(errs, fmt.Errorf("%s: Run is nil", where))
		}
		ids, err := helperIdents(op)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
		}
		for _, id := range ids {
			if !strings.HasPrefix(id, mutate.HelperPrefix) {
				errs = append(errs, fmt.Errorf("%s: helper declares %s, which does not start with %s", where, id, mutate.HelperPrefix))
			}
			if other, dup := helperIDs[id]; dup {
				errs = append(errs, fmt.Errorf("%s: helper declares %s, as does operator %q", where, id, other))
			}
			helperIDs[id] = op.Name
		}
	}
	if err := mutate.Schema(slices.DeleteFunc(slices.Clone(ops), func(op *mutate.Operator) bool { return op == nil })).Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// checkCost checks that op's Cost is set, and that it is CostContention
// exactly when its cost depends on contention.
func checkCost(op *mutate.Operator) error {
	switch {
	case !op.Cost.Valid():
		return fmt.Errorf("Cost is %s; set it to mutate.CostWork, CostWait, CostContention or CostAlloc (what an instruction count can see of the change)", op.Cost)
	case (op.Cost == mutate.CostContention) != (op.Contention != mutate.ContentionNone):
		return fmt.Errorf("Cost %s with Contention %d: CostContention goes with a Contention other than ContentionNone, and only with one", op.Cost, op.Contention)
	}
	return nil
}

// helperIdents parses op.Helper and returns its top-level identifiers.
func helperIdents(op *mutate.Operator) ([]string, error) {
	if op.Helper == "" {
		if len(op.HelperImports) > 0 {
			return nil, errors.New("HelperImports without Helper")
		}
		return nil, nil
	}
	var src strings.Builder
	src.WriteString("package p\n")
	for _, imp := range op.HelperImports {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") || imp == "" {
			return nil, fmt.Errorf("helper import %q is not a standard-library package", imp)
		}
		fmt.Fprintf(&src, "import %q\n", imp)
	}
	src.WriteString(op.Helper)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, op.Name+"_helper.go", src.String(), parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("helper does not parse: %w", err)
	}
	var ids []string
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				ids = append(ids, d.Name.Name)
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue // counted below
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					ids = append(ids, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						ids = append(ids, n.Name)
					}
				}
			}
		}
	}
	if n := len(file.Imports); n != len(op.HelperImports) {
		return nil, errors.New("helper has its own import declaration; use HelperImports")
	}
	return ids, nil
}
