module example.com/cubind

go 1.26
