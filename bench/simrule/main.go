// Command simrule simulates perfmut's kill rule (package score) and prints
// the tables of docs/statistics.md, or, with -levels, writes the
// calibrated per-look levels of score/levels_table.go.
//
//	go run ./bench/simrule -levels -reps 1000000 > score/levels_table.go
//	go run ./bench/simrule -runs 4000
//	go run ./bench/simrule -runs 4000 -ks
//	go run ./bench/simrule -family -runs 20000
//	go run ./bench/simrule -tied -runs 20000
//	go run ./bench/simrule -compare -runs 4000
//	go run ./bench/simrule -margin -runs 4000
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	levels := flag.Bool("levels", false, "write score/levels_table.go (Go source) to stdout")
	reps := flag.Int("reps", 2000000, "null replicates for -levels")
	runs := flag.Int("runs", 4000, "simulated campaigns per table cell")
	family := flag.Bool("family", false, "print only the family-wise false-kill rates on mixed families (sec/op, two-valued B/op and allocs/op)")
	compare := flag.Bool("compare", false, "print only perfmut compare's power with and without a drift shared by a round's two samples")
	ksOnly := flag.Bool("ks", false, "with the default tables, only their KS columns")
	tied := flag.Bool("tied", false, "print only the false-kill rate of one benchmark of tied sec/op by benchmark name and rule seed")
	tiedIDs := flag.Bool("tied-ids", false, "print only the false-kill rate of one benchmark of tied sec/op for each of 10 fixed mutant IDs over fresh data")
	rows := flag.String("rows", "", "with -family, only the rows whose name contains this")
	survivors := flag.Bool("survivors", false, "print only the survivor table: P(survived) of a benchmark slower by the margin, by noise, grid and family, and of intermittent slowdowns")
	margin := flag.Bool("margin", false, "print only what the margin does to survivors: kill, survive and undecided rates by noise and effect")
	flag.Parse()
	if *margin {
		marginTable(os.Stdout, *runs)
		return
	}
	if *survivors {
		survivorTable(os.Stdout, *runs)
		return
	}
	if *compare {
		compareTable(os.Stdout, *runs)
		return
	}
	if *tied {
		tiedTable(os.Stdout, *runs)
		return
	}
	if *tiedIDs {
		tiedIDTable(os.Stdout, *runs)
		return
	}
	if *family {
		familyTable(os.Stdout, *runs, *rows)
		return
	}
	if *levels {
		if err := writeLevels(os.Stdout, os.Stderr, *reps); err != nil {
			fmt.Fprintln(os.Stderr, "simrule:", err)
			os.Exit(1)
		}
		return
	}
	if err := tables(os.Stdout, *runs, *ksOnly); err != nil {
		fmt.Fprintln(os.Stderr, "simrule:", err)
		os.Exit(1)
	}
}
