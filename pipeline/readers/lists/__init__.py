"""Players lists: the rating list in force as CSV/XLSX or FIDE's TXT/XML downloads."""
