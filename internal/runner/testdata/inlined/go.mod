module example.com/inlined

go 1.22
