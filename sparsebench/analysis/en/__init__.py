"""English (org.apache.lucene.analysis.en): Anserini's DefaultEnglishAnalyzer and Lucene's
Porter stemmer.
"""
