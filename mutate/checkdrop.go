package mutate

import (
	"go/ast"
	"go/types"
	"slices"
	"sort"
)

// A local mutant's check (see Check) also leaves out the declarations of
// the plain functions (no receiver, no type parameters, not init) that
// neither its function nor the package-level code the reduced check keeps
// names: go/types needs a function's signature only where it is named, and
// a local mutant adds no reference to one. In a package of thousands of
// small functions (a generated file) the check then parses and checks the
// mutated function and what it names, not every signature each time.

// plainDecl is a plain function declaration of a file: its name, its
// offsets (from "func" to the closing brace) and its index in Decls.
type plainDecl struct {
	name       string
	start, end int
	decl       int
}

// dropState is what checkPkg keeps for leaving plain functions out.
type dropState struct {
	plain [][]plainDecl // per file, in source order
	// needed holds the identifiers of the package-level code the reduced
	// check keeps, plain functions apart.
	needed map[string]bool
	// declUses[i] maps the offset of each import of file i to the
	// indices (in plain[i]) of the declarations that use it.
	declUses []map[int][]int
}

// initDrop fills cp.drop from the loaded syntax, its type information and
// the reduced copies.
func (cp *checkPkg) initDrop(info *types.Info) {
	d := &cp.drop
	d.needed = map[string]bool{}
	imports := map[types.Object]int{} // package name -> its import's offset
	if info != nil {
		for i, f := range cp.files {
			for _, imp := range f.Imports {
				obj := info.Implicits[imp]
				if imp.Name != nil {
					obj = info.Defs[imp.Name]
				}
				if obj != nil {
					imports[obj] = cp.tfiles[i].Offset(imp.Pos())
				}
			}
		}
	}
	importOffsets := func(_ int, id *ast.Ident) (int, bool) {
		if info == nil {
			return 0, false
		}
		off, ok := imports[info.Uses[id]]
		return off, ok
	}
	for i, f := range cp.files {
		tf := cp.tfiles[i]
		var plain []plainDecl
		for j, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil && bodyOptional(fd) {
				plain = append(plain, plainDecl{fd.Name.Name, tf.Offset(fd.Pos()), tf.Offset(fd.End()), j})
			}
		}
		d.plain = append(d.plain, plain)
		uses := map[int][]int{}
		for _, decl := range f.Decls {
			ast.Inspect(decl, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				imp, ok := importOffsets(i, id)
				if !ok {
					return true
				}
				off := tf.Offset(id.Pos())
				k := sort.Search(len(plain), func(k int) bool { return plain[k].end >= off })
				if k < len(plain) && plain[k].start <= off && !slices.Contains(uses[imp], k) {
					uses[imp] = append(uses[imp], k)
				}
				return true
			})
		}
		d.declUses = append(d.declUses, uses)
	}
	for i, f := range cp.reducedFiles() {
		for j, decl := range f.Decls {
			if cp.isPlain(i, j) {
				continue
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					d.needed[id.Name] = true
				}
				return true
			})
		}
	}
}

// isPlain reports whether Decls[j] of file i is a plain function.
func (cp *checkPkg) isPlain(i, j int) bool {
	plain := cp.drop.plain[i]
	k := sort.Search(len(plain), func(k int) bool { return plain[k].decl >= j })
	return k < len(plain) && plain[k].decl == j
}

// keep returns the names of the plain functions a local mutant's check
// keeps: those the reduced package-level code names and those the
// mutated function bodies (file i, original content src) name before or
// after the edits.
func (cp *checkPkg) keep(i int, src []byte, edits []Edit) map[string]bool {
	keep := make(map[string]bool, len(cp.drop.needed)+16)
	for n := range cp.drop.needed {
		keep[n] = true
	}
	for k, b := range cp.bodies[i] {
		if cp.blanked(i, k, edits) {
			continue
		}
		for _, id := range identifiers(string(src[b.lbrace:b.rbrace])) {
			keep[id] = true
		}
	}
	for _, e := range edits {
		for _, id := range identifiers(e.New) {
			keep[id] = true
		}
	}
	return keep
}

// dropped reports whether plain declaration k of file i is left out of a
// check that keeps keep (nil: none is left out). A declaration holding
// an edit is always kept.
func (cp *checkPkg) dropped(i, k int, keep map[string]bool, edits []Edit) bool {
	if keep == nil {
		return false
	}
	pd := cp.drop.plain[i][k]
	if keep[pd.name] {
		return false
	}
	for _, e := range edits {
		if e.Start >= pd.start && e.End <= pd.end {
			return false
		}
	}
	return true
}

// blankDecls returns src (file i, bodies already blanked) with the plain
// declarations the check leaves out replaced by spaces, newlines kept.
func (cp *checkPkg) blankDecls(i int, src []byte, keep map[string]bool, edits []Edit) []byte {
	for k, pd := range cp.drop.plain[i] {
		if !cp.dropped(i, k, keep, edits) {
			continue
		}
		for j := pd.start; j < pd.end; j++ {
			if c := src[j]; c != '\n' && c != '\r' {
				src[j] = ' '
			}
		}
	}
	return src
}

// filesKeeping returns the reduced files without the plain declarations
// the check leaves out (file i, the mutated one, is replaced anyway).
func (cp *checkPkg) filesKeeping(mutated int, keep map[string]bool) []*ast.File {
	red := cp.reducedFiles()
	out := make([]*ast.File, len(red))
	for i, f := range red {
		if i == mutated || len(cp.drop.plain[i]) == 0 {
			out[i] = f
			continue
		}
		nf := *f
		nf.Decls = make([]ast.Decl, 0, len(f.Decls))
		k := 0
		for j, decl := range f.Decls {
			plain := cp.drop.plain[i]
			for k < len(plain) && plain[k].decl < j {
				k++
			}
			if k < len(plain) && plain[k].decl == j && !keep[plain[k].name] {
				continue
			}
			nf.Decls = append(nf.Decls, decl)
		}
		out[i] = &nf
	}
	return out
}

// usedInDropped reports whether the import at offset off of file i is used
// in a plain declaration the check leaves out.
func (cp *checkPkg) usedInDropped(i, off int, keep map[string]bool, edits []Edit) bool {
	for _, k := range cp.drop.declUses[i][off] {
		if cp.dropped(i, k, keep, edits) {
			return true
		}
	}
	return false
}
