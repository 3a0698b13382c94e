"""Analyzers of other scripts: Arabic and Persian (Arabic script), Hindi, Bengali and
Telugu (Indic), Chinese and Korean (CJK bigrams).
"""
