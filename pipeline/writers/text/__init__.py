"""Text outputs: CSV tables, FIDE TXT lists, TRF files, Parquet, and exact number text."""
