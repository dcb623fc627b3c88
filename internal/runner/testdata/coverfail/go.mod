module example.com/coverfail

go 1.22
