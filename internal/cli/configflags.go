package cli

import (
	"os"

	"github.com/lazylint/lazylint/rules"

	"github.com/spf13/pflag"

	"github.com/lazylint/lazylint/internal/config"
	"github.com/lazylint/lazylint/internal/engine"
)

// configFlags choose the config file: --config, or the nearest
// .lazylint.yml from the working directory up, or none with --no-config.
type configFlags struct {
	path string
	none bool
}

func (c *configFlags) register(f *pflag.FlagSet) {
	f.StringVar(&c.path, "config", "", "read this config file instead of the nearest .lazylint.yml from the working directory up")
	f.BoolVar(&c.none, "no-config", false, "read no config file")
}

// load reads the chosen config file. A nil *config.Config (no file) means
// every rule at its defaults; its methods accept it.
func (c *configFlags) load() (*config.Config, error) {
	if c.none {
		return nil, nil
	}
	path := c.path
	if path == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		if path, err = config.Find(wd); err != nil || path == "" {
			return nil, err
		}
	}
	return config.Load(path, rules.All)
}

// configOptions are the engine options a config (nil: none) makes, with
// a selection on top of its rules.
func configOptions(cfg *config.Config, sel config.Selection) engine.Options {
	opts := engine.Options{
		Catalog:     rules.All,
		SettingsFor: func(abs string) engine.Settings { return cfg.Settings(rules.All, abs, sel) },
		Exclude:     cfg.Excluded,
	}
	if cfg != nil && cfg.LowConfidence != nil {
		opts.LowConfidence = *cfg.LowConfidence
	}
	if cfg != nil && cfg.ReportUnusedSuppressions != nil {
		opts.ReportUnusedSuppressions = *cfg.ReportUnusedSuppressions
	}
	if cfg != nil {
		opts.Extensions = cfg.Extensions
	}
	return opts
}

// configuredOptions returns engine options for checks under root, with the
// nearest config file from root up (the language server's settings). With
// an error it still returns options: every rule at its defaults.
func configuredOptions(root string) (engine.Options, error) {
	var cfg *config.Config
	path, err := config.Find(root)
	if err == nil && path != "" {
		cfg, err = config.Load(path, rules.All)
	}
	opts := configOptions(cfg, config.Selection{})
	opts.BaseDir = root
	return opts, err
}
