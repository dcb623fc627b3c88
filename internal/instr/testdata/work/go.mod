module example.com/work

go 1.22
