module example.com/selfread

go 1.26
