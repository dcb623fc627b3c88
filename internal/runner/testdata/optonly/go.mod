module example.com/optonly

go 1.22
