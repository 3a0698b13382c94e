"""Parameter sweeps: grids expanded into variant models, one chosen on training queries
or by cross-validation."""
