"""The history of ``fiderate period``: the SQLite store (schema and migrations, lists stored as
contents of compressed blocks, bulk inserts), the run journal that makes a run crash-safe, the
lock that lets one run at a time write, and the checks a run makes against what is stored.

Storage only: it imports the rules of a list (:mod:`pipeline.lists`) and the plain facts of a run
(:mod:`pipeline.model`), never the period job that drives it (:mod:`pipeline.jobs.period`).
"""
