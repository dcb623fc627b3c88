module example.com/hot

go 1.26
