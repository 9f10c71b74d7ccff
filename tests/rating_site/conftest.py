"""Fixtures of the rating site's tests: real histories written by ``fiderate period`` (the
sample's November, then a December of games between its players), with hostile names and
events, and the site written from them by ``fiderate site``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.jobs.period import PeriodRequest, run_period

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "period"
# Names and an event from files: every page must show them as text (tests/web/test_pages.py).
HOSTILE = {
    "5100010": "<script>alert(1)</script>",
    "5100029": '"><img src=x onerror=alert(2)>',
    "5100037": '=HYPERLINK("http://x"), Eve & <b>Co</b>',
}
HOSTILE_EVENT = "</td><script>alert(3)</script> Open"
DECEMBER = [  # (white, black, result): games among the sample's players
    ("5100010", "5100029", "1/2-1/2"),
    ("5100037", "5100045", "1-0"),
    ("5100053", "5100061", "0-1"),
    ("5100070", "5100088", "1-0"),
    ("5100029", "5100037", "1-0"),
    ("5100045", "5100010", "0-1"),
]


def _hostile_list(folder: Path) -> Path:
    text = (SAMPLE / "list_2026-11.csv").read_text(encoding="utf-8")
    lines = text.splitlines()
    for at, line in enumerate(lines):
        player, _, rest = line.partition(",")
        if player in HOSTILE:
            after = rest.split('",', 1)[1]  # the name is quoted ("Surname, Given")
            name = HOSTILE[player].replace('"', '""')
            lines[at] = f'{player},"{name}",{after}'
    path = folder / "list_2026-11.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def december_event(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = ["event,round,date,white,black,result"]
    for n, (white, black, result) in enumerate(DECEMBER):
        event = HOSTILE_EVENT.replace('"', '""')
        rows.append(f'"{event}",{n // 3 + 1},2026-12-{n + 5:02d},{white},{black},{result}')
    path = folder / "december.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def november(work: Path) -> Path:
    """The sample's November period (hostile names) into ``work/out``; the database."""
    shutil.copytree(SAMPLE / "events", work / "events")
    out = work / "out"
    run_period(PeriodRequest(list_path=_hostile_list(work), events=(work / "events",),
                             period="2026-11", out_dir=out))  # fmt: skip
    return out / "ratings.db"


def december(work: Path) -> Path:
    """December rated on top of :func:`november`'s history."""
    out = work / "out"
    run_period(PeriodRequest(list_path=out / "rating_list_2026-12.csv",
                             events=(december_event(work / "december"),), period="2026-12",
                             out_dir=out))  # fmt: skip
    return out / "ratings.db"


@pytest.fixture(scope="module")
def two_months(tmp_path_factory) -> Path:
    """A history of three lists (November's, December's, January's) and two periods."""
    work = tmp_path_factory.mktemp("site-history")
    november(work)
    return december(work)


def rapid_december(work: Path) -> Path:
    """A rapid list into :func:`december`'s history: December's pairings played again as a
    rapid event (results reversed), rated by the rapid rules from November's list as the rapid
    list given (its own ``--out`` folder, the one history). A profile then holds a standard
    and a rapid table."""
    folder = work / "december-rapid"
    folder.mkdir(parents=True, exist_ok=True)
    flip = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}
    rows = ["event,round,date,white,black,result"]
    for n, (white, black, result) in enumerate(DECEMBER):
        rows.append(f"December Rapid,{n + 1},2026-12-20,{black},{white},{flip[result]}")
    (folder / "rapid.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    run_period(PeriodRequest(list_path=work / "list_2026-11.csv", events=(folder,),
                             period="2026-12", out_dir=work / "out-rapid",
                             db_path=work / "out" / "ratings.db", rules="rapid"))  # fmt: skip
    return work / "out" / "ratings.db"


@pytest.fixture(scope="module")
def standard_and_rapid(tmp_path_factory) -> Path:
    """A history of November's and December's standard periods and December's rapid period
    (:func:`rapid_december`): a profile holds a standard and a rapid table."""
    work = tmp_path_factory.mktemp("standard-and-rapid")
    november(work)
    december(work)
    return rapid_december(work)


def covering(periods: list[dict], month: str) -> dict:
    """The row of a profile's table that stands for the list of ``month``: a row stands for
    its first list (``month``) to its last (``until``; None: on to the latest list)."""
    found = [r for r in periods
             if r["month"] <= month and (r["until"] is None or month <= r["until"])]  # fmt: skip
    assert len(found) == 1, (month, periods)
    return found[0]
