"""Snowball 2.0.0's Python stemmers and runtime, vendored from the
snowballstemmer 2.0.0 sdist (https://pypi.org/project/snowballstemmer/2.0.0/,
sha256 df3bac3df4c2c01363f3dd2cfa78cce2840a79b9f1c2d2de9ce8d31683992f52): do not edit.
Written by `python -m sparsebench.analysis.snowball.regenerate`.
Licence: BSD-3-Clause (LICENSE here).

Modules: among, basestemmer, basque_stemmer, danish_stemmer, dutch_stemmer,
finnish_stemmer, hungarian_stemmer, norwegian_stemmer, russian_stemmer, swedish_stemmer,
turkish_stemmer.
"""
