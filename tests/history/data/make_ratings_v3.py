"""How ratings_v3.db was made (kept as a record; no test runs it).

With the code of commit 3c61c7e (history schema version 3, before the periods' calculations
were stored), from the repository's root:
    PYTHONPATH=. python tests/history/data/make_ratings_v3.py OUT
then OUT/out/ratings.db copied here as ratings_v3.db, and OUT/out/rating_list_2027-01.csv as
rating_list_2027-01_v3.csv (the list the test rates January from; sha256 da1996ad...). It holds
the sample's November (the README's run) and a December played on the published list: two
periods rated before version 4, so no calculation of either is stored.
"""

import shutil
import sys
from pathlib import Path

from pipeline.history.store import SCHEMA_VERSION
from pipeline.jobs.period import PeriodRequest, run_period

GAMES = (
    "event,round,date,white,black,result\n"
    "Dec,1,2026-12-02,5100010,5100029,1-0\nDec,2,2026-12-03,5100037,5100045,1-0\n"
)


def main(root: Path) -> None:
    assert SCHEMA_VERSION == 3
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    sample, out, dec = Path("sample_data/period"), root / "out", root / "december"
    first = {"list_path": sample / "list_2026-11.csv", "events": (sample / "events",)}
    run_period(PeriodRequest(**first, period="2026-11", out_dir=out))  # type: ignore[arg-type]
    dec.mkdir()
    (dec / "dec.csv").write_text(GAMES)
    run_period(
        PeriodRequest(
            list_path=out / "rating_list_2026-12.csv", events=(dec,), period="2026-12", out_dir=out
        )
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
