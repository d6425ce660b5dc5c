// Command ll006 asks for the loading mode through the binding.
package main

import (
	"fmt"

	"example.com/app/gpu"
	"example.com/cubind"
)

func modeFirst() {
	mode, _ := cubind.LoadingMode() // want `^LL006 cubind.LoadingMode calls cuModuleGetLoadingMode before anything initialized CUDA`
	fmt.Println(mode)
}

func modeAfterInit() {
	cubind.Init()
	mode, _ := cubind.LoadingMode() // ok: initialized first
	fmt.Println(mode)
}

func modeAfterWrapper() {
	gpu.Start()
	mode, _ := cubind.LoadingMode() // ok: gpu.Start initializes CUDA through the binding
	fmt.Println(mode)
}

func main() {}
