package main

import (
	"fmt"
	"os"

	"github.com/lazylint/lazylint/cudaparse"
)

func main() {
	src, _ := os.ReadFile(os.Args[1])
	p, _ := cudaparse.NewParser()
	f, err := p.Parse(os.Args[1], src)
	if err != nil {
		panic(err)
	}
	txt, _ := cudaparse.Neutralize(src)
	fmt.Println(string(txt))
	fmt.Println(f.Root().String())
	for _, c := range f.Calls {
		fmt.Printf("call %s %v args=%d\n", c.Name, f.Position(c.Node.Start()), len(c.Args))
	}
	for _, l := range f.Launches {
		fmt.Printf("launch %s key=%s api=%q cfg=%d stream=%q\n", l.Kernel, l.KernelKey(), l.API, len(l.Config), l.Stream.Text())
	}
	for _, fn := range f.Functions {
		fmt.Printf("func %s space=%d params=%v\n", fn.Name, fn.Space, fn.Params)
	}
}
