package cli

import (
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lazylint/lazylint/config"
	"github.com/lazylint/lazylint/engine"
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
	return config.Load(path)
}

// flagOrConfig returns a boolean flag's value when it was given, else the
// config's setting, else the flag's default.
func flagOrConfig(cmd *cobra.Command, name string, flag bool, cfg *config.Config, setting func(*config.Config) *bool) bool {
	if cmd.Flags().Changed(name) || cfg == nil || setting(cfg) == nil {
		return flag
	}
	return *setting(cfg)
}

// configuredOptions returns engine options for checks under root, with the
// nearest config file from root up (the language server's settings).
func configuredOptions(root string) (engine.Options, error) {
	var cfg *config.Config // none: every rule at its defaults
	opts := engine.Options{BaseDir: root, SettingsFor: func(abs string) engine.Settings { return cfg.Settings(abs) }}
	path, err := config.Find(root)
	if err != nil || path == "" {
		return opts, err
	}
	if cfg, err = config.Load(path); err != nil {
		return opts, err
	}
	opts.Exclude = cfg.Excluded
	if cfg.LowConfidence != nil {
		opts.LowConfidence = *cfg.LowConfidence
	}
	if cfg.ReportUnusedSuppressions != nil {
		opts.ReportUnusedSuppressions = *cfg.ReportUnusedSuppressions
	}
	return opts, nil
}
