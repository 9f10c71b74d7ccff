"""The slices of the report model (:class:`pipeline.report.EventReport`) the web's event and
player pages render: its frames' rows as plain records (a blank, ``<NA>``, becomes None for the
templates). Nothing here computes a number: a player's calculation is that player's rows of the
model's games and their standings row, as report.xlsx and report.html show them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from pipeline.report import EventReport


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """``frame``'s rows as dicts of plain values, None for a blank."""
    plain = frame.astype(object).where(frame.notna(), None)
    return plain.to_dict("records")


def standings_rows(report: EventReport) -> list[dict[str, Any]]:
    """The standings, in the model's order."""
    return records(report.standings)


def player_slice(report: EventReport, player_id: str) -> dict[str, Any] | None:
    """A player's standings row with their games as ``lines`` (the model's rows of that
    player, in game order), or None when the id is not a player of the event."""
    found = report.player(player_id)
    if found is None:
        return None
    row, games = found
    return {**records(row.to_frame().T)[0], "lines": records(games)}


__all__ = ["player_slice", "records", "standings_rows"]
