"""Pandera schemas, one per stage boundary of the pipeline.

raw input -> ``Games`` / ``Sides`` (readers) -> ``RatedSides`` (engine) -> ``RatingList``
(grouper) -> writers. :func:`validate` runs a schema lazily and turns pandera's report into the
project's Problems, grouped, never pandera's raw exception.
"""

from schemas.check import prepare_for_threads, validate
from schemas.games import Games
from schemas.players import Players
from schemas.sides import RatedSides, Sides
from schemas.totals import RatingList

__all__ = [
    "Games",
    "Players",
    "RatedSides",
    "RatingList",
    "Sides",
    "prepare_for_threads",
    "validate",
]
