"""The Snowball-stemmed analyzers (da, fi, hu, nl, no, ru, sv, tr): Lucene's Snowball
runtime, its generated stemmers (generated/) and closed forms of their hot routines
(fast_routines).
"""
