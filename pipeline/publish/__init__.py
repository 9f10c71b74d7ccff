"""Scheduled rating-list runs: a whole rating period from the list in force and the period's
events to the next list, with first ratings, a change report and an SQLite history store.

``run_period`` is the library behind ``fiderate period``; ``history`` holds the store.
"""

from pipeline.publish.first_rating import FIRST_RATING, FirstRatingRules, compute
from pipeline.publish.run import PeriodOutcome, PeriodRequest, run_period

__all__ = [
    "FIRST_RATING",
    "FirstRatingRules",
    "PeriodOutcome",
    "PeriodRequest",
    "compute",
    "run_period",
]
