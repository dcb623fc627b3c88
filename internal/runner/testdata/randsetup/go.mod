module example.com/randsetup

go 1.22
