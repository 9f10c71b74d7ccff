"""FIDE's rules of a new rating list, as pure computation on tables: first ratings (B.02 8.2),
the next list (inactivity, floors, K carried on), the months of the lists, the change report and
its per-event breakdown, and the list file's columns and reading.

No storage and no files written here: the period job (:mod:`pipeline.jobs.period`) reads the
history (:mod:`pipeline.history`), calls these, and writes through :mod:`pipeline.writers`.
"""
