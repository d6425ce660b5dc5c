// Package rules holds the registry of lazylint's rules; each rule lives in
// its own package (rules/ll001, ...). all.go is generated from the rule
// packages found here.
package rules

//go:generate go run ../internal/gen/cmd -registry ..
//go:generate go run ../internal/gen/cmd ..

import (
	"strings"

	"github.com/lazylint/lazylint/internal/rule"
)

// ByID returns the rule with the ID (case-insensitive) or name.
func ByID(id string) *rule.Rule {
	for _, r := range All {
		if strings.EqualFold(r.ID, id) || r.Name == id {
			return r
		}
	}
	return nil
}
