"""Pseudo-relevance feedback: a query expanded from the documents its first retrieval
ranks highest (RM3, Rocchio), then searched again, as Anserini's rerankers compute it.
One module per method, listed in methods.METHODS."""
