"""Outputs of an earlier run left in --out: named, never deleted.

A second ``fiderate rate`` into the same folder that writes fewer files (``--no-xlsx``,
``--no-html``, another ``--output-format``) leaves the first run's files beside the new ones; a
user opening report.xlsx would read the old event. They are the user's files now, so they stay,
and the run says which they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

# Every file name `fiderate rate` writes into --out (player-<id> files are asked for by name).
RATE_OUTPUT_NAMES = (
    "rating_list.csv",
    "games.csv",
    "rating_list.parquet",
    "games.parquet",
    "rating_list.xlsx",
    "report.xlsx",
    "report.html",
)


def stale_outputs(out_dir: Path | str, written: Iterable[Path]) -> list[str]:
    """A note for each output name in ``out_dir`` that this run did not write."""
    fresh = {Path(p).name for p in written}
    return [
        f"{Path(out_dir) / name} is left from an earlier run (not written this time)"
        for name in RATE_OUTPUT_NAMES
        if name not in fresh and (Path(out_dir) / name).is_file()
    ]
