"""The light-stemmed analyzers (de, es, fr, it, pt, id): Lucene's light stemmers,
GermanNormalizationFilter and IndonesianStemmer.
"""
