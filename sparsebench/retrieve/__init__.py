"""Sparse retrieval: exact, order-independent scores on scipy or torch, and TREC run
files."""
