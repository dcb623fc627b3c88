module example.com/extinline

go 1.22
