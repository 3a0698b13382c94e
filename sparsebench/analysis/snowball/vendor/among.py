"""Snowball 2.0.0's Python among, vendored: do not edit.
Written by `python -m sparsebench.analysis.snowball.regenerate`.

Source: snowballstemmer-2.0.0/src/snowballstemmer/among.py
  (sha256 ebed9da6bee0a46b48be26c92714a09d2d903e40a3006e70f2c90fdccf41e7eb)
  of the snowballstemmer 2.0.0 sdist, https://pypi.org/project/snowballstemmer/2.0.0/
  (sha256 df3bac3df4c2c01363f3dd2cfa78cce2840a79b9f1c2d2de9ce8d31683992f52),
  by Snowball 2.0.0's Python backend (https://snowballstem.org/).
Licence: BSD-3-Clause (LICENSE in this folder).
Copyright (c) 2001, Dr Martin Porter; Copyright (c) 2004,2005, Richard Boulton.
Changed: this docstring; `from .module import name` made absolute.
Kept as one module: generated code, as its generator wrote it.
"""


class Among(object):
    def __init__(self, s, substring_i, result, method=None):
        """
        @ivar s search string
        @ivar substring index to longest matching substring
        @ivar result of the lookup
        @ivar method method to use if substring matches
        """
        self.s = s
        self.substring_i = substring_i
        self.result = result
        self.method = method
