module example.com/repro

go 1.22
