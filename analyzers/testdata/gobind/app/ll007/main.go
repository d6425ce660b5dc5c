// Command ll007 sets the loading mode through the environment.
package main

import (
	"os"

	"example.com/app/gpu"
	"example.com/cubind"
)

func tooLate() {
	cubind.Init()
	os.Setenv("CUDA_MODULE_LOADING", "EAGER") // want `^LL007 CUDA_MODULE_LOADING is set after CUDA was initialized`
}

func tooLateThroughEngine() {
	gpu.NewEngine(0)
	os.Setenv("CUDA_MODULE_LOADING", "EAGER") // want `LL007 CUDA_MODULE_LOADING is set after CUDA was initialized`
}

func inTime() {
	os.Setenv("CUDA_MODULE_LOADING", "EAGER") // ok: before the first CUDA call
	cubind.Init()
}

func main() {}
