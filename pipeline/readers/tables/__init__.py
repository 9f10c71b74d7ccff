"""Tables of text cells from CSV, XLSX and Parquet files, with the row numbers a person sees."""
