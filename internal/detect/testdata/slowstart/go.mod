module example.com/slowstart

go 1.22
