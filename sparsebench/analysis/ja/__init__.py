"""Japanese (org.apache.lucene.analysis.ja): JapaneseAnalyzer with Kuromoji's IPADIC
dictionaries (data in resources/lucene/ja).
"""
