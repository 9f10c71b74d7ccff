"""A period's calculation in the history says how each difference counted, in the words and with
the numbers ``fiderate rate`` shows for the same games (issue 35: the 400-point note in every
face). Before, the history kept only the counted difference: Becker (2391) against Jansen (1408)
read "diff 400", where rate's pages read "+983, counted +400 (400-point rule: +983 counts as
+400)".

The expected words come from the report model of a ``rate`` run of the same events with the same
list, never from text written here.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from pipeline.jobs.period import PeriodRequest, run_period
from pipeline.jobs.player_history import CalculationRequest, run_calculation
from pipeline.jobs.rate import RateOutputs, RateRequest, rate
from pipeline.model import RateOptions
from pipeline.site import addresses as at
from pipeline.site.job import SiteRequest, run_site
from pipeline.web.app import create_app
from tests.conftest import run_cli
from tests.web.conftest import local_client

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "period"
EVENT = "Club Championship 2026"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The README's period run on the sample, and ``rate`` on its event whose players are all
    on the list, with that list."""
    base = tmp_path_factory.mktemp("counted")
    run_period(
        PeriodRequest(
            list_path=SAMPLE / "list_2026-11.csv",
            events=(SAMPLE / "events",),
            period="2026-11",
            out_dir=base / "period",
        )
    )
    rated = rate(
        RateRequest(
            inputs=(SAMPLE / "events" / "club_championship.csv",),  # all on the list
            players=SAMPLE / "list_2026-11.csv",
            out_dir=base / "rate",
            options=RateOptions(period="2026-11"),
            outputs=RateOutputs(xlsx=False, html=False, report=True),
        )
    )
    return base / "period" / "ratings.db", rated.report


def _rated_games(report, player_id: str) -> dict[tuple[str, str], dict]:
    _, games = report.player(player_id)
    return {(g["event"], g["round"]): g for g in games[games["rated"]].to_dict("records")}


def test_the_history_keeps_each_difference_and_why_it_counted_so(runs):
    db, report = runs
    compared = explained = 0
    rated = report.standings[report.standings["games"] > 0]
    for player_id in rated["id"]:
        calc = run_calculation(CalculationRequest(player_id, "2026-11", db))
        expected = _rated_games(report, player_id)
        club = [g for g in calc.games if g["event"] == EVENT]
        assert len(club) == len(expected)
        for g in club:
            want = expected[(g["event"], g["round"])]
            assert g["gap"] == want["gap"], (player_id, g)
            assert g["diff"] == want["gap_used"], (player_id, g)
            assert g["counted"] == want["counted"], (player_id, g)
            compared += 1
            explained += bool(want["counted"])
    assert compared == report.rated_sides
    assert explained > 0  # the sample has games the 400-point rule cut


def test_both_history_faces_say_it_in_rates_words(runs):
    db, report = runs
    games = report.games
    cut = games[games["counted"] != ""].iloc[0]
    player, words = cut["player"], cut["counted"]
    text = run_cli("history", player, "--db", db, "--period", "2026-11")
    assert text.exit_code == 0, text.output
    assert words in text.stdout
    with local_client(create_app(db)) as client:
        page = client.get(f"/history/calculation?id={player}&period=2026-11")
        site = client.get("/site/" + at.calculation_page("standard", player, "2026-11"))
    assert page.status_code == 200 and site.status_code == 200
    assert words in page.text
    # The rating site's calculation page (live, and the same page as a static file) says it too.
    assert html.escape(words, quote=False) in site.text


def _change_line(text: str) -> str:
    """The change line of a calculation (page or console), as plain text."""
    plain = " ".join(re.sub(r"<[^>]+>", " ", text).split())
    found = re.search(r"change = K x sum\(S - PD\) = .*?= -?\d+(?=\s|$)", plain)
    assert found, plain
    return found.group(0)


def test_every_calculation_says_the_change_in_the_same_words(runs, tmp_path):
    # An event's player page (rate's words) and the history's two faces: "change = K x sum(S -
    # PD) = K x sum = exact; rounded once, .5 away from zero: +c; new rating r +c = new". The
    # history said "K × sum(S − PD)", "rounded once: +19 → 2410" and, on the console, no K x sum.
    db, _ = runs
    player = "5100029"
    calc = run_calculation(CalculationRequest(player, "2026-11", db))
    change = f"{calc.change:+d}"
    words = (
        f"change = K x sum(S - PD) = {calc.k} x {calc.sum_dev} = {calc.change_exact} "
        f"rounded once, .5 away from zero: {change} new rating {calc.rating} {change} = "
        f"{calc.new_rating}"
    )
    text = run_cli("history", player, "--db", db, "--period", "2026-11").stdout
    with local_client(create_app(db)) as client:
        page = client.get(f"/history/calculation?id={player}&period=2026-11").text
        files = {
            "event": ("club.csv", (SAMPLE / "events" / "club_championship.csv").read_bytes()),
            "players": ("list.csv", (SAMPLE / "list_2026-11.csv").read_bytes()),
        }
        event = client.post("/rate", files=files, data={"period": "2026-11"}, follow_redirects=True)
        token = re.search(r'href="/event/([^/"]+)/outputs.zip"', event.text).group(1)
        rated = client.get(f"/event/{token}/player?id={player}").text
    run_site(SiteRequest(db, tmp_path / "www"))
    site = (tmp_path / "www" / at.calculation_page("standard", player, "2026-11")).read_text(
        encoding="utf-8"
    )
    for face in (text, page, rated, site):
        assert _same_words(_change_line(face)) == _same_words(words)


def _same_words(line: str) -> str:
    """A change line without what only formats it: the semicolons, the spaces, the sign of a
    positive decimal (the event page signs sums, "+0.94"; the history does not)."""
    return " ".join(re.sub(r"\+(?=\d+\.\d)", "", line.replace(";", " ")).split())
