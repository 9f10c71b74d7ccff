"""What both FIDE list layouts (TXT and XML) share: the players-file columns they fill, the
choice of the rating column, and how a list's problem is raised."""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.errors import Code, InputError, Problem

LIST_TYPES = ("standard", "rapid", "blitz")
# The text columns every layout provides (the chosen type's rating/games/k are added to these).
COMMON = [
    "id",
    "name",
    "federation",
    "sex",
    "title",
    "w_title",
    "o_title",
    "foa_title",
    "birth_year",
    "flag",
]
TYPED = ["rating", "period_games", "k"]
# A combined list read for rapid or blitz also gives the standard rating (7.2.1 fallback).
FAST_TYPES = ("rapid", "blitz")
STANDARD_FALLBACK = "standard_rating"


def list_problem(
    source: str, code: Code, message: str, fix: str, row: int | None = None
) -> InputError:
    return InputError([Problem(code, message, file=source, row=row, fix=fix)])


def choose_column(
    columns: Mapping[tuple[str | None, str], object], list_column: str
) -> tuple[str, str]:
    """(the type key whose rating is used, the list type) for the layout's columns."""
    if ("single", "rating") in columns:
        return "single", "single"
    if (list_column, "rating") in columns:
        return list_column, list_column
    raise KeyError(list_column)


class ListTypeError(Exception):
    pass
