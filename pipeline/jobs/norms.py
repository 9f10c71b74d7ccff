"""Title norms of event files: the library behind ``fiderate norms``.

Reading and checking are those of ``fiderate rate`` (:func:`pipeline.jobs.rate.stages.read_inputs`);
the check itself is :mod:`pipeline.norms`. Nothing here writes files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import PLAYERS_LIST, RunError
from pipeline.jobs.rate.stages import read_inputs
from pipeline.model import READ_DEFAULTS, NormReport, ReadOptions
from pipeline.norms import NORM_RULES, norm_inputs


def norm_files(
    paths: Sequence[Path | str],
    players_path: Path | str | None = None,
    *,
    titles: Sequence[str] = (),
    player_ids: Sequence[str] = (),
    rules: str | None = None,
    reading: ReadOptions = READ_DEFAULTS,
) -> NormReport:
    """Read and check the inputs exactly as ``fiderate rate`` does, then check the norms."""
    unknown = [t for t in titles if t.upper() not in NORM_RULES]
    if unknown:
        raise RunError(f"--title {unknown[0]!r}: norms exist for {', '.join(NORM_RULES)}")
    inputs, players = read_inputs(paths, players_path, rules=rules, reading=reading)
    report = norm_inputs(inputs, players, titles=titles, player_ids=player_ids)
    if report is None:
        raise RunError(no_norm_data(", ".join(str(p) for p in paths)))
    return report


def no_norm_data(files: str) -> str:
    """Why ``files`` have no norms to check: no title or federation anywhere (``norm_inputs``
    gave None). In the CLI's words (``errors.in_face`` gives the web's)."""
    return (
        f"{files}: no player has a title or a federation (the inputs give no titles or "
        "federations), and the norm requirements are about the opponents' titles and "
        "federations: add them to the event file (TRF player records: title in columns "
        "11-13, federation in columns 54-56; a crosstable: title and federation columns) "
        f"or give {PLAYERS_LIST.cli} with title and federation columns"
    )


@dataclass(frozen=True)
class NormsRequest:
    """One ``fiderate norms`` run: the event files, the list in force, the titles and players
    to check (none: every title, every player), the rules column and how to read."""

    inputs: tuple[Path | str, ...]
    players: Path | str | None = None
    titles: tuple[str, ...] = ()
    player_ids: tuple[str, ...] = ()
    rules: str | None = None
    reading: ReadOptions = READ_DEFAULTS

    def __post_init__(self) -> None:
        # Lists given for these would leave the request mutable through them.
        for name in ("inputs", "titles", "player_ids"):
            object.__setattr__(self, name, tuple(getattr(self, name)))


def norms(request: NormsRequest) -> NormReport:
    """The title norms of ``request``'s events (:func:`norm_files`); nothing is written."""
    return norm_files(
        request.inputs,
        request.players,
        titles=request.titles,
        player_ids=request.player_ids,
        rules=request.rules,
        reading=request.reading,
    )
