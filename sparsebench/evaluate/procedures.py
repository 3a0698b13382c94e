"""The significance tests and family-wise corrections by name: what the config and the
command line accept, importable without scipy (the command starts fast)."""

from __future__ import annotations

TESTS = ("t-test", "wilcoxon", "sign", "bootstrap", "randomization")
CORRECTIONS = ("holm", "bonferroni", "none")
