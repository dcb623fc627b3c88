module example.com/badbench

go 1.22
