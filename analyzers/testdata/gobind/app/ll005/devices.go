package main

import "example.com/app/gpu"

type devices struct {
	engines []gpu.Engine
}
