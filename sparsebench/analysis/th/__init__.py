"""Thai (org.apache.lucene.analysis.th): ThaiAnalyzer on ports of the JDK's BreakIterators.
GPLv2 with the Classpath exception, as OpenJDK: see NOTICE in this folder.
"""
