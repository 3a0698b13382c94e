"""Run fusion as ranx lays it out: one module per method, each with its formula and
source, listed in registry; the per-query score normalisations in norms; the settings and
the fusion itself in fuse.
"""
