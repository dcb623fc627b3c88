module example.com/genmod

go 1.24
