module example.com/shares

go 1.22
