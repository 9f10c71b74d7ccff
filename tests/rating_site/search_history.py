"""A history for the site's search tests (tests/rating_site/test_site_search*.py), written by
``fiderate period`` runs: the sample's November (hostile names, and names in other alphabets
and with accents), a December whose list in force leaves a player out (dropped: on the
standard lists of November and December only, on no latest list), and a rapid December whose
list holds a player on no standard list (rapid only) and not the dropped one."""

from __future__ import annotations

from pathlib import Path

from pipeline.jobs.period import PeriodRequest, run_period
from tests.rating_site.conftest import DECEMBER, HOSTILE, SAMPLE, december_event

# id -> the name the November list gives (beside conftest's HOSTILE names).
NAMES = {
    "5100053": "Muller, Anna",
    "5100096": "Müller, Jörg",  # dropped from the standard list of 2027-01
    "5100100": "Ødegaard, Åse",
    "5100126": "Dupont, Jean-Pierre",
    "5100118": "ΣΙΣΥΦΟΣ, Νίκος",
}
DROPPED = "5100096"
RAPID_ONLY = ("5100990", "Straße, Łukasz")
LIST_HEADER = "id,name,rating,k,birth_year,games,ever_2400,federation,title,sex,last_played"


def _november_list(work: Path) -> Path:
    lines = (SAMPLE / "list_2026-11.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == LIST_HEADER
    names = {**HOSTILE, **NAMES}
    for at, line in enumerate(lines[1:], start=1):
        player, _, rest = line.partition(",")
        if player in names:
            after = rest.split('",', 1)[1]  # the name is quoted ("Surname, Given")
            lines[at] = f'{player},"{names[player].replace(chr(34), chr(34) * 2)}",{after}'
    path = work / "list_2026-11.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def search_history(work: Path) -> Path:
    """The history (``work/out/ratings.db``); its standard lists: 2026-11, 2026-12, 2027-01
    (without :data:`DROPPED`); rapid: 2026-12 and 2027-01 (with :data:`RAPID_ONLY`, without
    :data:`DROPPED`)."""
    out = work / "out"
    given = _november_list(work)
    run_period(PeriodRequest(list_path=given, events=(SAMPLE / "events",), period="2026-11",
                             out_dir=out))  # fmt: skip
    december = out / "rating_list_2026-12.csv"
    kept = [line for line in december.read_text(encoding="utf-8").splitlines()
            if not line.startswith(DROPPED + ",")]  # fmt: skip
    (work / "december_given.csv").write_text("\n".join(kept) + "\n", encoding="utf-8")
    run_period(PeriodRequest(list_path=work / "december_given.csv",
                             events=(december_event(work / "december"),), period="2026-12",
                             out_dir=out))  # fmt: skip
    rapid = work / "rapid"
    rapid.mkdir()
    rows = ["event,round,date,white,black,result"]
    rows += [f"Rapid,{n + 1},2026-12-20,{w},{b},{r}" for n, (w, b, r) in enumerate(DECEMBER)]
    (rapid / "rapid.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    rapid_list = [line for line in given.read_text(encoding="utf-8").rstrip("\n").split("\n")
                  if not line.startswith(DROPPED + ",")]  # fmt: skip
    player, name = RAPID_ONLY
    rapid_list.append(f'{player},"{name}",1650,20,2001,40,false,POL,,m,2026-10')
    (work / "rapid_2026-11.csv").write_text("\n".join(rapid_list) + "\n", encoding="utf-8")
    run_period(PeriodRequest(list_path=work / "rapid_2026-11.csv", events=(rapid,),
                             period="2026-12", out_dir=work / "out-rapid",
                             db_path=out / "ratings.db", rules="rapid"))  # fmt: skip
    return out / "ratings.db"
