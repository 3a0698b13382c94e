"""TREC run files: reading and checking them, writing their lines, streaming them a block
at a time, and fusing runs.
"""
