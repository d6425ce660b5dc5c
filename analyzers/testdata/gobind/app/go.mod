module example.com/app

go 1.26

require example.com/cubind v0.0.0

replace example.com/cubind => ../cubind
