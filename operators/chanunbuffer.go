package operators

import (
	"bytes"
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/perfmut/perfmut/mutate"
)

// ChanUnbuffer drops the buffer of a channel.
var ChanUnbuffer = &mutate.Operator{
	Name:     "chan-unbuffer",
	Quadrant: mutate.Q4,
	Cost:     mutate.CostWait,
	Doc: mutate.Doc{
		Title: "make a buffered channel unbuffered",
		Body: `Replaces make(chan T, n) with make(chan T) where n is a constant above 0 or
an expression without side effects: every send waits for its receiver, so
producers and consumers run in lockstep. Code that relies on the buffer (a
send before the receiver starts, a semaphore filled ahead) deadlocks; the
tests filter that mutant as a timeout.`,
		Before: `jobs := make(chan int, 64)`,
		After:  `jobs := make(chan int)`,
	},
	Run: runChanUnbuffer,
}

func runChanUnbuffer(pass *mutate.Pass) {
	f := newFile(pass)
	ast.Inspect(f.File, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() {
			return true
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		if b, isB := f.Info.Uses[id].(*types.Builtin); !isB || b.Name() != "make" {
			return true
		}
		t := f.Info.TypeOf(call.Args[0])
		if t == nil {
			return true
		}
		if _, isChan := t.Underlying().(*types.Chan); !isChan {
			return true
		}
		size := call.Args[1]
		if tv := f.Info.Types[size]; tv.Value != nil {
			if constant.Sign(tv.Value) <= 0 {
				return true
			}
		} else if !f.pure(size) || !f.removable(nil, size) {
			return true
		}
		// Delete ", n"; across lines only n, so no line goes away.
		del := f.del(call.Args[0].End(), size.End())
		if bytes.ContainsRune(f.Src[del.Start:del.End], '\n') {
			del = f.del(size.Pos(), size.End())
		}
		f.Report(mutate.Site{
			Node:        call,
			Description: "make the channel unbuffered (buffer of " + f.short(size) + " dropped)",
			Edits:       []mutate.Edit{del},
		})
		return true
	})
}
