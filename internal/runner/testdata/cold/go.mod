module example.com/cold

go 1.22
