"""The visual report: figures (PNG and SVG) and HTML tables of a run's results, which
`snakemake --report report.html` packages into one self-contained page.

data.py reads what the figures show from the workflow's result files, figures.py draws
them, tables.py writes the HTML tables, style.py gives every figure one look (readable
in black and white) and deterministic files."""
