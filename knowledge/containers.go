package knowledge

import "strings"

// ElementContainers are the class templates whose first template argument
// is the type of what they hold, for deducing a kernel's template
// arguments from a launch's arguments (`k<<<g, b>>>(v.data())` with
// `thrust::device_vector<float> v` launches k<float>). Each maps to the
// methods that return a pointer to an element (`v.data()`, `p.get()`);
// an element is what subscripting one gives (`&v[0]`).
var ElementContainers = map[string][]string{
	"std::vector":              {"data"},
	"std::array":               {"data"},
	"std::unique_ptr":          {"get"},
	"std::shared_ptr":          {"get"},
	"thrust::device_vector":    {"data"},
	"thrust::host_vector":      {"data"},
	"thrust::universal_vector": {"data"},
	"thrust::device_ptr":       {"get"},
}

// ElementContainer returns the methods of a container template named by
// name, qualified or not ("device_vector" names thrust::device_vector).
func ElementContainer(name string) ([]string, bool) {
	if m, ok := ElementContainers[name]; ok {
		return m, true
	}
	for full, m := range ElementContainers {
		if name != "" && strings.HasSuffix(full, "::"+name) {
			return m, true
		}
	}
	return nil, false
}
