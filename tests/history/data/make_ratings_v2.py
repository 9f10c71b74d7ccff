"""How ratings_v2.db and ratings_v2_expected.json were made (kept as a record; no test runs it).

With the code of commit c3932aa (history schema version 2) exported to a folder BASE:
    cd BASE && PYTHONPATH=. python make_ratings_v2.py OUT
then OUT/out/ratings.db, OUT/expected.json and OUT/out/rating_list_2027-01.csv copied here.
"""

import json
import shutil
import sys
from pathlib import Path

import pandas as pd

from pipeline.history.store import (
    SCHEMA_VERSION,
    connect,
    last_played,
    list_rows,
    pending_results,
    player_history,
)
from pipeline.jobs.period import PeriodRequest, run_period

GAMES = (
    "event,round,date,white,black,result\n"
    "Dec,1,2026-12-02,5100010,5100029,{}\nDec,2,2026-12-03,5100037,5100045,1-0\n"
)


def rows(frame: pd.DataFrame) -> list[list[object]]:
    frame = frame.sort_values("id").astype(object)
    return [[None if pd.isna(v) else v for v in r] for r in frame.itertuples(index=False)]


def main(root: Path) -> None:
    assert SCHEMA_VERSION == 2
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    sample, out, dec = Path("sample_data/period"), root / "out", root / "december"
    first = {"list_path": sample / "list_2026-11.csv", "events": (sample / "events",)}
    run_period(PeriodRequest(**first, period="2026-11", out_dir=out))  # type: ignore[arg-type]
    dec.mkdir()
    new_list = out / "rating_list_2026-12.csv"
    for result, replace in (("1-0", False), ("0-1", True)):  # December, then corrected
        (dec / "dec.csv").write_text(GAMES.format(result))
        run_period(
            PeriodRequest(
                list_path=new_list, events=(dec,), period="2026-12", out_dir=out, replace=replace
            )
        )
    con = connect(out / "ratings.db")
    lists = {str(i): rows(list_rows(con, i)) for (i,) in con.execute("SELECT id FROM lists")}
    ids = sorted({r[0] for v in lists.values() for r in v} | {"nobody"})
    replaced = con.execute(
        "SELECT MAX(id) FROM runs WHERE outcome = 'published' AND superseded_by IS NULL"
    ).fetchone()[0]
    expected = {
        "lists": lists,
        "last_played": last_played(con).to_dict(),
        "replaced_run": replaced,
        "last_played_replaced": last_played(con, replaced).to_dict(),
        "histories": {p: player_history(con, p) for p in ids},
        "pending": json.loads(pending_results(con).to_json(orient="records")),
        "contents": con.execute(
            "SELECT id, base_id, unlisted_period_games, players FROM list_contents ORDER BY id"
        ).fetchall(),
    }
    (root / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
