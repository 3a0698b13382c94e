"""Lucene 9.9.1's Snowball stemmers (org.tartarus.snowball.ext), one module per language,
translated mechanically from the Java Lucene generates (see
sparsebench/resources/lucene/snowball/README.md); each is a SnowballProgram subclass
(snowball/program.py) whose `stem` takes and returns UTF-16 code units."""
