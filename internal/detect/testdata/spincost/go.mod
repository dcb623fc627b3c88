module example.com/spincost

go 1.22
