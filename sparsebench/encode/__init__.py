"""Texts to sparse vectors: analysis (Lucene's analyzer), term weighting (BM25, IDF),
SPLADE and custom encoders, pruning, and labelled CSR matrices."""
