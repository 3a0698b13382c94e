"""Getting collections: downloads, the readers of every source (BEIR folders and
archives, MIRACL, mMARCO, ir_datasets, plain files) and their canonical form."""
