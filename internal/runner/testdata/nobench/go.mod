module example.com/nobench

go 1.26
