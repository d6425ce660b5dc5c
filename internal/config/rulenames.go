package config

import (
	"fmt"
	"path"
	"strings"

	"github.com/lazylint/lazylint/internal/rule"
)

// Rules returns the rules that one entry of enable or disable stands for,
// on the command line (--enable, --disable) and in a config file alike:
// "all", a rule's ID (in any case) or name, or a glob over IDs and names
// as suppression comments take them ("LL00*", "LL00[1-3]", "*-launch").
// A glob that matches no rule is an error, as an unknown name is: a typo
// would otherwise select nothing, silently. catalog is every rule there is
// (the CLI's rules.All): this package knows no rule by itself.
func Rules(catalog []*rule.Rule, name string) ([]*rule.Rule, error) {
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, "all") {
		return catalog, nil
	}
	for _, r := range catalog {
		if strings.EqualFold(r.ID, name) || r.Name == name {
			return []*rule.Rule{r}, nil
		}
	}
	if !strings.ContainsAny(name, "*?[") {
		return nil, fmt.Errorf("unknown rule %q; `lazylint rules` lists them", name)
	}
	if _, err := path.Match(name, ""); err != nil {
		return nil, fmt.Errorf("bad rule pattern %q: %w", name, err)
	}
	var out []*rule.Rule
	for _, r := range catalog {
		if globNames(name, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no rule matches %q; `lazylint rules` lists them", name)
	}
	return out, nil
}

// globNames reports whether the glob p names r by its ID (in any case) or
// its name.
func globNames(p string, r *rule.Rule) bool {
	if ok, _ := path.Match(strings.ToUpper(p), r.ID); ok {
		return true
	}
	ok, _ := path.Match(strings.ToLower(p), r.Name)
	return ok
}
