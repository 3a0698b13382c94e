"""The Snowball-stemmed analyzers (da, eu, fi, hu, nl, no, ru, sv, tr): Snowball 2.0.0's own
Python stemmers and runtime (vendor/, written by regenerate.py), a faster among look-up
for them (fast_runtime) and the chains (analyzer).
"""
