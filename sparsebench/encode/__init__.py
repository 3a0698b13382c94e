"""Texts to sparse vectors: term counts through an analyzer (analysis/), SPLADE and custom
encoders, term weighting (BM25, IDF), pruning, quantization, and labelled CSR matrices."""
