"""One period's calculation reads the same in every face (issue 35: "a number shown in one face
is the same number, with the same words, in every other"): ``fiderate history --period``,
``/history/calculation`` and the rating site's calculation page.

- Differences carry their sign as the event's player page shows them (``+0.08``, not ``0.08``):
  S - PD, K x (S - PD), their sums and the change, each the games file's exact decimal signed by
  the one formatter (``rules.signs.signed``).
- K with its reason reads "K 40: junior (18 or younger this year) below 2300", never a reason in
  brackets inside brackets ("K 40 (junior (18 or younger ...) below 2300)").

Checked against the files the README's period run wrote (games_2026-11.csv, changes_2026-11.csv).
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from pipeline.rules.signs import signed
from pipeline.site import addresses as at
from pipeline.site.job import SiteRequest, run_site
from pipeline.web.app import create_app
from tests.conftest import run_cli
from tests.history.test_player_calculation import csv_rows, parse, period_out, table_dicts
from tests.web.conftest import local_client

__all__ = ["period_out"]  # the module's fixture: the README's period run

# A bracket opened inside another: the nesting the K reasons must not produce.
NESTED = re.compile(r"\([^()]*\(")


@pytest.fixture(scope="module")
def faces(period_out) -> dict[str, object]:
    site = period_out.parent / "www"
    run_site(SiteRequest(period_out / "ratings.db", site))
    return {"site": site}


def played(out: Path) -> list[dict[str, str]]:
    rows = csv_rows(out / "changes_2026-11.csv")
    return [r for r in rows if r["status"] == "rated" and int(r["games"]) > 0]


def rated_games(out: Path, player: str) -> list[dict[str, str]]:
    games = csv_rows(out / "games_2026-11.csv")
    return [g for g in games if g["player"] == player and g["rated"] == "true"]


def expected_cells(out: Path, change: dict[str, str]) -> tuple[list[str], list[str], str]:
    """Per game S - PD and K x (S - PD), and the period's exact change, each signed."""
    k = int(change["k"])
    games = rated_games(out, change["id"])
    devs = [signed(g["dev"]) for g in games]
    k_devs = [signed(f"{k * Decimal(g['dev']):.2f}") for g in games]
    return devs, k_devs, signed(change["change_exact"])


def page_cells(html: str) -> tuple[list[str], list[str], str, str]:
    page = parse(html)
    rows = table_dicts(page, "calculation")
    body = [r for r in rows if r["opponent"] != "sum"]
    (total,) = [r for r in rows if r["opponent"] == "sum"]
    return (
        [r["S - PD"] for r in body],
        [r["K x (S - PD)"] for r in body],
        total["K x (S - PD)"],
        " ".join(html.split()),
    )


def test_cli_web_and_site_calculations_sign_and_word_alike(period_out, faces):
    site = faces["site"]
    with local_client(create_app(period_out / "ratings.db")) as client:
        for change in played(period_out):
            player = change["id"]
            devs, k_devs, exact = expected_cells(period_out, change)
            k_line = f"K {change['k']}: "
            # The CLI's table: the S - PD and K x (S - PD) columns, then the sum row.
            done = run_cli("history", player, "--period", "2026-11", "--out", period_out)
            assert done.exit_code == 0, done.output
            lines = done.stdout.splitlines()
            assert k_line in lines[1] and not NESTED.search(lines[1]), lines[1]
            start = next(i for i, line in enumerate(lines) if line.startswith("event "))
            games = lines[start + 1 : start + 1 + len(devs)]
            # Right-aligned columns: each ends where its header ends.
            dev_end = lines[start].index(" S - PD ") + 7
            k_dev_end = lines[start].index("K x (S - PD)") + 12
            assert [line[:dev_end].split()[-1] for line in games] == devs, player
            assert [line[:k_dev_end].split()[-1] for line in games] == k_devs, player
            assert f"= {exact}; rounded once" in done.stdout
            answer = client.get(f"/history/calculation?id={player}&period=2026-11")
            assert answer.status_code == 200
            static = (site / at.calculation_page("standard", player, "2026-11")).read_text(
                encoding="utf-8"
            )
            for html in (answer.text, static):
                shown_devs, shown_k_devs, total, text = page_cells(html)
                assert (shown_devs, shown_k_devs, total) == (devs, k_devs, exact), player
                assert f"= {exact}; rounded once" in text
                assert re.search(rf"K {change['k']}</strong>: <span", text), player
                head = text[text.index("Rating ") :]
                assert not NESTED.search(re.sub(r"<[^>]+>", "", head.split("</p>")[0]))


def test_the_signed_form_is_one_rule():
    """The column form (report.html) is the one-value form, cell by cell."""
    import pandas as pd

    from pipeline.arrays.number_text import signed_text

    texts = ["6.90", "7", "0", "0.00", "-3", "-0.36", "", "first rating", "10", "0.08", "+2"]
    assert signed_text(pd.Series(texts, dtype=str)).tolist() == [signed(t) for t in texts]
    assert [signed(t) for t in texts] == [
        "+6.90", "+7", "0", "0.00", "-3", "-0.36", "", "first rating", "+10", "+0.08", "+2",
    ]  # fmt: skip
    assert [signed(v) for v in (7, 0, -3)] == ["+7", "0", "-3"]
